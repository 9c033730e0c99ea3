import { afterEach, describe, expect, it } from 'vitest';
import { createOctokit } from '../../../src/action/github/octokit.js';
import { rateLimitWaitMs, waitOutRateLimits } from '../../../src/action/github/rate-limit.js';
import { type GitHubServer, startGitHubServer } from '../../support/github-server.js';

let server: GitHubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PR = 7;

describe('GitHub rate limits', () => {
  for (const status of [403, 429] as const) {
    it(`waits out a secondary rate limit (${status} with retry-after) and posts every comment`, async () => {
      server = await startGitHubServer({
        pulls: { [PR]: { files: [] } },
        secondaryRateLimit: { writes: 3, retryAfterSeconds: 1, status },
      });
      const waits: number[] = [];
      const octokit = createOctokit(server.writeToken, {
        baseUrl: server.url,
        onRateLimit: (ms) => waits.push(ms),
      });
      const started = Date.now();
      // five packages' comments at once, as the action posts them
      const posted = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          octokit.rest.issues.createComment({
            owner: 'octo-org',
            repo: 'deploy',
            issue_number: PR,
            body: `package ${i}`,
          }),
        ),
      );
      expect(posted.map((r) => r.status)).toEqual(Array(5).fill(201));
      expect(
        server.state.comments
          .get(PR)
          ?.map((c) => c.body)
          .sort(),
      ).toEqual(Array.from({ length: 5 }, (_, i) => `package ${i}`).sort());
      // the server did refuse some, and the client waited as told (1 s) before each retry
      expect(server.requests.filter((q) => q.status === status).length).toBeGreaterThan(0);
      expect(waits.length).toBeGreaterThan(0);
      expect(waits.every((w) => w === 1000)).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    }, 30_000);
  }

  it('still fails a 403 that is no rate limit (a read-only token writing), without waiting', async () => {
    server = await startGitHubServer({ pulls: { [PR]: { files: [] } } });
    const waits: number[] = [];
    const octokit = createOctokit(server.readToken, {
      baseUrl: server.url,
      onRateLimit: (ms) => waits.push(ms),
    });
    await expect(
      octokit.rest.issues.createComment({ owner: 'octo-org', repo: 'deploy', issue_number: PR, body: 'x' }),
    ).rejects.toMatchObject({ status: 403 });
    expect(waits).toEqual([]);
    expect(server.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
  });
});

describe('rateLimitWaitMs', () => {
  const answer = (status: number, headers: Record<string, string>, message = '') => ({
    status,
    message,
    response: { headers, data: { message } },
  });
  it('reads retry-after (seconds or a date), an exhausted primary limit and the secondary-limit message', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(rateLimitWaitMs(answer(403, { 'retry-after': '30' }), now)).toBe(30_000);
    expect(rateLimitWaitMs(answer(429, { 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }), now)).toBe(
      10_000,
    );
    expect(rateLimitWaitMs(answer(429, { 'retry-after': '0' }), now)).toBe(1000);
    expect(
      rateLimitWaitMs(
        answer(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 42) }),
        now,
      ),
    ).toBe(42_000);
    expect(rateLimitWaitMs(answer(403, {}, 'You have exceeded a secondary rate limit.'), now)).toBe(60_000);
    expect(rateLimitWaitMs(answer(403, {}, 'Resource not accessible by integration'), now)).toBeUndefined();
    expect(rateLimitWaitMs(answer(404, { 'retry-after': '5' }), now)).toBeUndefined();
    expect(rateLimitWaitMs(new Error('socket hang up'), now)).toBeUndefined();
  });

  it('gives up after five waits, and at once on a wait longer than five minutes', async () => {
    const limited = answer(429, { 'retry-after': '2' });
    let calls = 0;
    const slept: number[] = [];
    const wrap = waitOutRateLimits<void, string>(
      () => {},
      async (ms) => void slept.push(ms),
    );
    await expect(
      wrap(async () => {
        calls++;
        throw limited;
      }),
    ).rejects.toBe(limited);
    expect(calls).toBe(6);
    expect(slept).toEqual(Array(5).fill(2000));
    const long = answer(429, { 'retry-after': '3600' });
    calls = 0;
    await expect(
      wrap(async () => {
        calls++;
        throw long;
      }),
    ).rejects.toBe(long);
    expect(calls).toBe(1);
  });
});
