import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOctokit } from '../../../src/action/github/octokit.js';
import {
  isWriteRequest,
  RateLimitBudgetError,
  rateLimitWaitMs,
} from '../../../src/action/github/rate-limit.js';
import { type GitHubServer, startGitHubServer } from '../../support/github-server.js';

let server: GitHubServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

const PR = 7;
const where = { owner: 'octo-org', repo: 'deploy', issue_number: PR };
const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('GitHub rate limits', () => {
  for (const status of [403, 429] as const) {
    it(`waits out a secondary rate limit (${status} with retry-after) and posts every comment`, async () => {
      server = await startGitHubServer({ secondaryRateLimit: { writes: 3, retryAfterSeconds: 1, status } });
      const waits: number[] = [];
      const octokit = createOctokit(server.writeToken, {
        baseUrl: server.url,
        onRateLimit: (ms) => waits.push(ms),
        policy: { writeSpacingMs: 20 },
      });
      // five packages' comments at once, as a loop might hand them over
      const posted = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          octokit.rest.issues.createComment({ ...where, body: `package ${i}` }),
        ),
      );
      expect(posted.map((r) => r.status)).toEqual(Array(5).fill(201));
      expect(server.state.comments.get(PR)?.map((c) => c.body)).toEqual(
        Array.from({ length: 5 }, (_, i) => `package ${i}`),
      );
      // the server did refuse one, and the client waited as told (1 s) before retrying it
      expect(server.requests.filter((q) => q.status === status)).toHaveLength(1);
      expect(waits).toEqual([1000]);
    }, 30_000);
  }

  it('sends content-creating requests one at a time, at least one second apart; reads stay concurrent', async () => {
    server = await startGitHubServer({ comments: { [PR]: ['a'] } });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    await Promise.all([
      ...Array.from({ length: 3 }, (_, i) => octokit.rest.issues.createComment({ ...where, body: `w${i}` })),
      ...Array.from({ length: 4 }, () => octokit.rest.issues.listComments(where)),
    ]);
    const writes = server.requests.filter((q) => q.write).map((q) => q.at);
    expect(writes).toHaveLength(3);
    for (let i = 1; i < writes.length; i++) expect(writes[i] - writes[i - 1]).toBeGreaterThanOrEqual(1000);
    const reads = server.requests.filter((q) => q.method === 'GET').map((q) => q.at);
    // the reads did not queue behind the writes
    expect(Math.max(...reads)).toBeLessThan(writes[1]);
  }, 30_000);

  it('without retry-after, waits a minute, then two, as GitHub asks (doubling while the limit answers)', async () => {
    server = await startGitHubServer({
      secondaryRateLimit: { writes: 1, retryAfterSeconds: 1, retryAfterHeader: false },
    });
    const waits: number[] = [];
    // the asked waits are recorded; the real pause is short (the server's window is one real second)
    const octokit = createOctokit(server.writeToken, {
      baseUrl: server.url,
      onRateLimit: (ms) => waits.push(ms),
      policy: { writeSpacingMs: 0, sleep: () => realSleep(600) },
    });
    await octokit.rest.issues.createComment({ ...where, body: 'first' });
    await octokit.rest.issues.createComment({ ...where, body: 'second' });
    expect(server.state.comments.get(PR)?.map((c) => c.body)).toEqual(['first', 'second']);
    expect(waits).toEqual([60_000, 120_000]);
    const refused = server.requests.filter((q) => q.status === 403);
    expect(refused.length).toBe(2);
  }, 30_000);

  it('stops waiting at the run budget: the request fails at once, saying so, and later ones do too', async () => {
    server = await startGitHubServer({
      secondaryRateLimit: { writes: 1, retryAfterSeconds: 30, retryAfterHeader: false },
    });
    const slept: number[] = [];
    const octokit = createOctokit(server.writeToken, {
      baseUrl: server.url,
      onRateLimit: () => {},
      policy: { writeSpacingMs: 0, budgetMs: 90_000, sleep: async (ms) => void slept.push(ms) },
    });
    await octokit.rest.issues.createComment({ ...where, body: 'first' });
    const err = await octokit.rest.issues.createComment({ ...where, body: 'second' }).catch((e) => e);
    expect(err).toBeInstanceOf(RateLimitBudgetError);
    expect(String(err.message)).toMatch(
      /secondary rate limit: GitHub asks to wait 120 s, more than is left \(30 s\) of this run's 90-second budget/,
    );
    // one wait of a minute was spent; the two-minute one was refused without sleeping
    expect(slept).toEqual([60_000]);
    const third = await octokit.rest.issues.createComment({ ...where, body: 'third' }).catch((e) => e);
    expect(third).toBeInstanceOf(RateLimitBudgetError);
    expect(slept).toEqual([60_000]);
    expect(server.state.comments.get(PR)?.map((c) => c.body)).toEqual(['first']);
  }, 30_000);

  it('an exhausted primary limit waits until x-ratelimit-reset only within the budget (an hour is not)', async () => {
    server = await startGitHubServer({ primaryRateLimit: 2 });
    const slept: number[] = [];
    const octokit = createOctokit(server.writeToken, {
      baseUrl: server.url,
      policy: { sleep: async (ms) => void slept.push(ms) },
    });
    const ok = await octokit.rest.issues.listComments(where);
    expect(ok.headers['x-ratelimit-limit']).toBe('2');
    expect(ok.headers['x-ratelimit-remaining']).toBe('1');
    expect(ok.headers['x-ratelimit-resource']).toBe('core');
    await octokit.rest.issues.listComments(where);
    const err = await octokit.rest.issues.listComments(where).catch((e) => e);
    expect(err).toBeInstanceOf(RateLimitBudgetError);
    expect(String(err.message)).toMatch(/primary rate limit: GitHub asks to wait \d+ s/);
    expect(slept).toEqual([]);
  });

  it('retries a read GitHub answered 502 (twice at most), never a write', async () => {
    server = await startGitHubServer({ comments: { [PR]: ['a'] } });
    const slept: number[] = [];
    const octokit = createOctokit(server.writeToken, {
      baseUrl: server.url,
      policy: { sleep: async (ms) => void slept.push(ms), writeSpacingMs: 0 },
    });
    server.state.faults.push({ method: 'GET', path: /\/comments$/, status: 502, times: 2 });
    const r = await octokit.rest.issues.listComments(where);
    expect(r.data.map((c) => c.body)).toEqual(['a']);
    expect(slept).toEqual([1000, 3000]);
    server.state.faults.push({ method: 'GET', path: /\/comments$/, status: 503, times: 3 });
    await expect(octokit.rest.issues.listComments(where)).rejects.toMatchObject({ status: 503 });
    server.state.faults.push({ method: 'POST', path: /\/comments$/, status: 502 });
    await expect(octokit.rest.issues.createComment({ ...where, body: 'x' })).rejects.toMatchObject({
      status: 502,
    });
    expect(server.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
  });

  it('still fails a 403 that is no rate limit (a read-only token writing), without waiting', async () => {
    server = await startGitHubServer();
    const waits: number[] = [];
    const octokit = createOctokit(server.readToken, {
      baseUrl: server.url,
      onRateLimit: (ms) => waits.push(ms),
    });
    await expect(octokit.rest.issues.createComment({ ...where, body: 'x' })).rejects.toMatchObject({
      status: 403,
    });
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
    expect(rateLimitWaitMs(answer(429, {}), now)).toBe(60_000);
    expect(rateLimitWaitMs(answer(403, {}, 'Resource not accessible by integration'), now)).toBeUndefined();
    expect(rateLimitWaitMs(answer(404, { 'retry-after': '5' }), now)).toBeUndefined();
    expect(rateLimitWaitMs(new Error('socket hang up'), now)).toBeUndefined();
  });

  it.each([
    [{ method: 'GET', url: '/repos/{owner}/{repo}/issues/{issue_number}/comments' }, false],
    [{ method: 'POST', url: '/repos/{owner}/{repo}/issues/{issue_number}/comments' }, true],
    [{ method: 'PATCH', url: '/repos/{owner}/{repo}/issues/comments/{comment_id}' }, true],
    [{ method: 'POST', url: '/graphql', query: 'query { viewer { login } }' }, false],
    [{ method: 'POST', url: '/graphql', query: ' mutation($input: X!) { minimizeComment }' }, true],
  ])('isWriteRequest(%o) = %s', (options, want) => {
    expect(isWriteRequest(options)).toBe(want);
  });
});
