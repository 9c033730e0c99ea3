import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isDefaultBranchPush, readEventContext } from '../../../src/action/github/event.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'kpt-live-event-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

function payloadFile(payload: unknown): string {
  const file = path.join(dir, `event-${++n}.json`);
  writeFileSync(file, typeof payload === 'string' ? payload : JSON.stringify(payload));
  return file;
}

const BASE = 'a'.repeat(40);
const HEAD = 'b'.repeat(40);
const MERGE = 'c'.repeat(40);

/** The parts of a real `pull_request` payload we read, with the nesting GitHub uses. */
function pullRequestPayload(headRepo: unknown) {
  return {
    action: 'synchronize',
    number: 17,
    pull_request: {
      number: 17,
      changed_files: 4,
      base: { ref: 'main', sha: BASE, repo: { full_name: 'octo-org/deploy', fork: false } },
      head: { ref: 'feature', sha: HEAD, repo: headRepo },
    },
    repository: { full_name: 'octo-org/deploy', default_branch: 'main' },
  };
}

const runnerEnv = (name: string, payload: unknown, extra: Record<string, string> = {}) => ({
  GITHUB_EVENT_NAME: name,
  GITHUB_EVENT_PATH: payloadFile(payload),
  GITHUB_REPOSITORY: 'octo-org/deploy',
  GITHUB_SHA: MERGE,
  GITHUB_REF: 'refs/pull/17/merge',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_RUN_ID: '123456',
  GITHUB_API_URL: 'https://api.github.com',
  ...extra,
});

describe('readEventContext', () => {
  it('reads a pull_request run', async () => {
    const ctx = await readEventContext(
      runnerEnv('pull_request', pullRequestPayload({ full_name: 'octo-org/deploy', fork: false })),
    );
    expect(ctx).toEqual({
      name: 'pull_request',
      owner: 'octo-org',
      repo: 'deploy',
      sha: MERGE,
      ref: 'refs/pull/17/merge',
      defaultBranch: 'main',
      action: 'synchronize',
      pullRequest: {
        number: 17,
        baseSha: BASE,
        headSha: HEAD,
        baseRef: 'main',
        headRef: 'feature',
        headRepoFork: false,
        changedFiles: 4,
      },
      runUrl: 'https://github.com/octo-org/deploy/actions/runs/123456',
      serverUrl: 'https://github.com',
      apiUrl: 'https://api.github.com',
    });
    expect(isDefaultBranchPush(ctx)).toBe(false);
  });

  it.each([
    { name: 'same repository', headRepo: { full_name: 'octo-org/deploy', fork: false }, fork: false },
    {
      name: 'same repository that is itself a fork',
      headRepo: { full_name: 'octo-org/deploy', fork: true },
      fork: false,
    },
    { name: 'another owner', headRepo: { full_name: 'someone/deploy', fork: true }, fork: true },
    { name: 'head repository deleted', headRepo: null, fork: true },
    { name: 'no full_name, fork flag', headRepo: { fork: true }, fork: true },
  ])('fork detection: $name → $fork', async ({ headRepo, fork }) => {
    const ctx = await readEventContext(runnerEnv('pull_request', pullRequestPayload(headRepo)));
    expect(ctx.pullRequest?.headRepoFork).toBe(fork);
  });

  it('reads a push to the default branch on GitHub Enterprise Server', async () => {
    const env = runnerEnv(
      'push',
      {
        ref: 'refs/heads/main',
        before: BASE,
        after: HEAD,
        created: false,
        repository: { default_branch: 'main' },
      },
      {
        GITHUB_SHA: HEAD,
        GITHUB_REF: 'refs/heads/main',
        GITHUB_SERVER_URL: 'https://ghe.example.com/',
        GITHUB_API_URL: 'https://ghe.example.com/api/v3',
      },
    );
    const ctx = await readEventContext(env);
    expect(ctx.push).toEqual({ before: BASE, after: HEAD });
    expect(ctx.pullRequest).toBeUndefined();
    expect(ctx.runUrl).toBe('https://ghe.example.com/octo-org/deploy/actions/runs/123456');
    expect(ctx.apiUrl).toBe('https://ghe.example.com/api/v3');
    expect(isDefaultBranchPush(ctx)).toBe(true);
    expect(isDefaultBranchPush({ ...ctx, ref: 'refs/heads/feature' })).toBe(false);
  });

  it('reads a merge_group run: the queue commit and its base, never a push', async () => {
    const ctx = await readEventContext(
      runnerEnv(
        'merge_group',
        {
          action: 'checks_requested',
          merge_group: {
            head_sha: HEAD,
            head_ref: 'refs/heads/gh-readonly-queue/main/pr-17-aaaa',
            base_sha: BASE,
            base_ref: 'refs/heads/main',
          },
          repository: { default_branch: 'main' },
        },
        { GITHUB_SHA: HEAD, GITHUB_REF: 'refs/heads/gh-readonly-queue/main/pr-17-aaaa' },
      ),
    );
    expect(ctx.action).toBe('checks_requested');
    expect(ctx.mergeGroup).toEqual({
      baseSha: BASE,
      headSha: HEAD,
      baseRef: 'refs/heads/main',
      headRef: 'refs/heads/gh-readonly-queue/main/pr-17-aaaa',
    });
    expect(ctx.push).toBeUndefined();
    await expect(
      readEventContext(runnerEnv('merge_group', { merge_group: { head_sha: HEAD } })),
    ).rejects.toThrow(/merge_group payload lacks base_sha/);
  });

  it('reads a workflow_dispatch run with neither pull request nor push', async () => {
    const ctx = await readEventContext(
      runnerEnv('workflow_dispatch', { inputs: {}, ref: 'refs/heads/main' }),
    );
    expect(ctx.pullRequest).toBeUndefined();
    expect(ctx.push).toBeUndefined();
  });

  it.each([
    { name: 'no event name', env: { GITHUB_REPOSITORY: 'o/r' }, error: /GITHUB_EVENT_NAME is not set/ },
    { name: 'no repository', env: { GITHUB_EVENT_NAME: 'push' }, error: /GITHUB_REPOSITORY is not set/ },
    {
      name: 'bad repository',
      env: { GITHUB_EVENT_NAME: 'push', GITHUB_REPOSITORY: 'just-a-name' },
      error: /expected "owner\/repo"/,
    },
    {
      name: 'unreadable payload',
      env: {
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REPOSITORY: 'o/r',
        GITHUB_EVENT_PATH: '/nonexistent/event.json',
      },
      error: /GITHUB_EVENT_PATH names \/nonexistent\/event.json, which cannot be read/,
    },
    {
      name: 'payload not JSON',
      env: () => ({
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REPOSITORY: 'o/r',
        GITHUB_EVENT_PATH: payloadFile('{oops'),
      }),
      error: /is not JSON/,
    },
    {
      name: 'push without before',
      env: () => ({
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REPOSITORY: 'o/r',
        GITHUB_EVENT_PATH: payloadFile({ after: HEAD }),
      }),
      error: /push payload lacks "before" or "after"/,
    },
    {
      name: 'pull request without head sha',
      env: () => ({
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_REPOSITORY: 'o/r',
        GITHUB_EVENT_PATH: payloadFile({ pull_request: { number: 1, base: { sha: BASE }, head: {} } }),
      }),
      error: /pull_request payload lacks number, base.sha or head.sha/,
    },
  ])('refuses $name', async ({ env, error }) => {
    await expect(readEventContext(typeof env === 'function' ? env() : env)).rejects.toThrow(error);
  });
});
