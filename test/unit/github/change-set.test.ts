import { afterEach, describe, expect, it } from 'vitest';
import {
  changeSetForEvent,
  LIST_FILES_CAP,
  pullRequestChangeSet,
  pushChangeSet,
} from '../../../src/action/github/change-set.js';
import type { EventContext } from '../../../src/action/github/event.js';
import { createOctokit } from '../../../src/action/github/octokit.js';
import { fromApiFile, parseNameStatus } from '../../../src/changes/changed-file.js';
import { hasCommit, isShallow } from '../../../src/changes/fetch-commits.js';
import { type GitHubServer, startGitHubServer } from '../../support/github-server.js';
import { makeSandbox, type Sandbox, sh } from './git-repo.js';

const ZERO = '0'.repeat(40);
let server: GitHubServer | undefined;
let box: Sandbox | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  box?.cleanup();
  box = undefined;
});

const sorted = <T extends { path: string }>(xs: T[]) => [...xs].sort((a, b) => a.path.localeCompare(b.path));

describe('pullRequestChangeSet', () => {
  it('lists every page of PR files and keeps the old path of renames', async () => {
    const seeded = [
      ...Array.from({ length: 230 }, (_, i) => ({
        filename: `deploy/app/f${i}.yaml`,
        status: 'modified' as const,
      })),
      { filename: 'deploy/new/cm.yaml', status: 'renamed' as const, previous_filename: 'deploy/old/cm.yaml' },
      { filename: 'deploy/gone/cm.yaml', status: 'removed' as const },
      { filename: 'deploy/copy.yaml', status: 'copied' as const, previous_filename: 'deploy/app/f1.yaml' },
    ];
    server = await startGitHubServer({ pulls: { 9: { files: seeded } } });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });

    const cs = await pullRequestChangeSet(octokit, {
      owner: 'octo-org',
      repo: 'deploy',
      number: 9,
      baseSha: 'b'.repeat(40),
      headSha: 'h'.repeat(40),
      changedFiles: seeded.length,
      repoDir: '/nonexistent',
    });

    expect(cs).toMatchObject({ all: false, source: 'pulls-api', base: 'b'.repeat(40), notes: [] });
    expect(cs.files).toHaveLength(233);
    expect(cs.files.slice(230)).toEqual([
      { path: 'deploy/new/cm.yaml', status: 'renamed', previous: 'deploy/old/cm.yaml' },
      { path: 'deploy/gone/cm.yaml', status: 'removed' },
      { path: 'deploy/copy.yaml', status: 'added' },
    ]);
    expect(server.requests.map((r) => r.query.page ?? '1')).toEqual(['1', '2', '3']);
  });

  it('falls back to git when GitHub stops at 3,000 files, fetching what a depth-1 checkout lacks', async () => {
    box = makeSandbox();
    box.commit({ 'README.md': 'hello\n' });
    const base = box.commit({ 'deploy/app/cm.yaml': 'a: 1\n', 'deploy/old.yaml': 'x: 1\n' });
    box.push();
    sh(box.work, 'checkout', '--quiet', '-b', 'feature');
    sh(box.work, 'mv', 'deploy/app/cm.yaml', 'deploy/app/config.yaml');
    box.commit({ 'deploy/old.yaml': null });
    const many: Record<string, string> = {};
    for (let i = 0; i < 3100; i++) many[`bulk/f${String(i).padStart(4, '0')}.yaml`] = `i: ${i}\n`;
    const head = box.bulkCommit(many);
    box.push('HEAD:refs/heads/feature');
    const checkout = box.shallowClone('main');
    expect(await hasCommit(checkout, head)).toBe(false);

    server = await startGitHubServer({ gitDir: box.origin, pulls: { 3: { base, head } } });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const cs = await pullRequestChangeSet(octokit, {
      owner: 'octo-org',
      repo: 'deploy',
      number: 3,
      baseSha: base,
      headSha: head,
      repoDir: checkout,
    });

    expect(server.requests).toHaveLength(LIST_FILES_CAP / 100);
    expect(cs.source).toBe('git');
    expect(cs.notes[0]).toMatch(/GitHub listed 3000 files for pull request #3 \(it stops at 3000\)/);
    expect(cs.files).toHaveLength(3102);
    expect(sorted(cs.files).slice(0, 1)).toEqual([{ path: 'bulk/f0000.yaml', status: 'added' }]);
    expect(cs.files).toContainEqual({
      path: 'deploy/app/config.yaml',
      status: 'renamed',
      previous: 'deploy/app/cm.yaml',
    });
    expect(cs.files).toContainEqual({ path: 'deploy/old.yaml', status: 'removed' });
  }, 60_000);

  it('also falls back when the list is shorter than the payload says', async () => {
    box = makeSandbox();
    const base = box.commit({ 'a.yaml': 'a: 1\n' });
    const head = box.commit({ 'a.yaml': 'a: 2\n', 'b.yaml': 'b: 1\n' });
    box.push();
    server = await startGitHubServer({
      pulls: { 4: { files: [{ filename: 'a.yaml', status: 'modified' }] } },
    });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const cs = await pullRequestChangeSet(octokit, {
      owner: 'octo-org',
      repo: 'deploy',
      number: 4,
      baseSha: base,
      headSha: head,
      changedFiles: 2,
      repoDir: box.work,
    });
    expect(cs.source).toBe('git');
    expect(sorted(cs.files)).toEqual([
      { path: 'a.yaml', status: 'modified' },
      { path: 'b.yaml', status: 'added' },
    ]);
  });
});

describe('pushChangeSet', () => {
  it('fetches a `before` that a depth-1 checkout lacks, then diffs before → after', async () => {
    box = makeSandbox();
    box.commit({ 'deploy/a/cm.yaml': 'v: 1\n', 'deploy/b/cm.yaml': 'v: 1\n' });
    const before = box.commit({ 'deploy/c/cm.yaml': 'v: 1\n' });
    box.push();
    const after = box.commit({
      'deploy/a/cm.yaml': 'v: 2\n',
      'deploy/c/cm.yaml': null,
      'deploy/d/cm.yaml': 'other: true\n',
    });
    box.push();
    const checkout = box.shallowClone('main');
    expect(await hasCommit(checkout, before)).toBe(false);

    const cs = await pushChangeSet({ before, after, repoDir: checkout });

    expect(await hasCommit(checkout, before)).toBe(true);
    expect(await isShallow(checkout)).toBe(true);
    expect(cs).toMatchObject({ all: false, source: 'git', base: before, head: after });
    expect(cs.notes).toEqual([`fetched ${before} (not in the checkout)`]);
    expect(sorted(cs.files)).toEqual([
      { path: 'deploy/a/cm.yaml', status: 'modified' },
      { path: 'deploy/c/cm.yaml', status: 'removed' },
      { path: 'deploy/d/cm.yaml', status: 'added' },
    ]);
  });

  it('asks the compare API when `before` cannot be fetched (never pushed, or gone after a force push)', async () => {
    box = makeSandbox();
    box.commit({ 'x.yaml': 'v: 1\n' });
    box.push();
    sh(box.work, 'checkout', '--quiet', '-b', 'rewritten');
    const lost = box.commit({ 'y.yaml': 'v: 1\n' }); // never pushed: origin cannot serve it
    sh(box.work, 'checkout', '--quiet', 'main');
    const after = box.commit({ 'x.yaml': 'v: 2\n', 'z.yaml': 'z: 1\n' });
    sh(box.work, 'push', '--quiet', 'origin', `${after}:refs/heads/other`);
    const checkout = box.shallowClone('other');
    server = await startGitHubServer({ gitDir: box.work });
    const octokit = createOctokit(server.readToken, { baseUrl: server.url });

    const cs = await pushChangeSet(
      { before: lost, after, repoDir: checkout },
      { octokit, owner: 'octo-org', repo: 'deploy' },
    );

    expect(cs.source).toBe('compare-api');
    expect(cs.notes[0]).toMatch(
      new RegExp(`could not fetch commit ${lost} from origin .*not our ref.*compare API`),
    );
    expect(sorted(cs.files)).toEqual([
      { path: 'x.yaml', status: 'modified' },
      { path: 'z.yaml', status: 'added' },
    ]);
    expect(server.requests[0]).toMatchObject({
      method: 'GET',
      path: `/repos/octo-org/deploy/compare/${lost}...${after}`,
    });
  });

  it.each([
    { name: 'no API to ask', withApi: false },
    { name: 'the compare API does not know it either', withApi: true },
  ])('counts every package when before is unreachable and $name', async ({ withApi }) => {
    box = makeSandbox();
    const after = box.commit({ 'x.yaml': 'v: 1\n' });
    box.push();
    const checkout = box.shallowClone('main');
    server = await startGitHubServer({ gitDir: box.origin });
    const api = withApi
      ? {
          octokit: createOctokit(server.writeToken, { baseUrl: server.url }),
          owner: 'octo-org',
          repo: 'deploy',
        }
      : undefined;
    const cs = await pushChangeSet({ before: 'f'.repeat(40), after, repoDir: checkout }, api);
    expect(cs).toMatchObject({ all: true, files: [], source: 'none' });
    expect(cs.notes.at(-1)).toMatch(/every package counts as changed/);
  });

  it('treats a zero `before` (new branch) as all packages, a zero `after` (deleted branch) as none', async () => {
    const created = await pushChangeSet({ before: ZERO, after: 'a'.repeat(40), repoDir: '/nonexistent' });
    expect(created).toMatchObject({ all: true, files: [], head: 'a'.repeat(40) });
    expect(created.notes[0]).toMatch(/created the branch/);
    const deleted = await pushChangeSet({ before: 'a'.repeat(40), after: ZERO, repoDir: '/nonexistent' });
    expect(deleted).toMatchObject({ all: false, files: [] });
  });
});

describe('changeSetForEvent', () => {
  const ctx = (over: Partial<EventContext>): EventContext => ({
    name: 'pull_request',
    owner: 'octo-org',
    repo: 'deploy',
    sha: '',
    ref: '',
    runUrl: '',
    serverUrl: '',
    apiUrl: '',
    ...over,
  });

  it('without a token, reads a pull request from git (three-dot, after deepening a depth-1 checkout)', async () => {
    box = makeSandbox();
    box.commit({ 'a.yaml': 'a: 1\n' });
    const base = box.commit({ 'b.yaml': 'b: 1\n' });
    box.push();
    sh(box.work, 'checkout', '--quiet', '-b', 'feature');
    box.commit({ 'c.yaml': 'c: 1\n' });
    const head = box.commit({ 'a.yaml': 'a: 2\n' });
    box.push('HEAD:refs/heads/feature');
    sh(box.work, 'checkout', '--quiet', 'main');
    box.commit({ 'main-only.yaml': 'm: 1\n' }); // on base after branching: not part of the PR
    box.push();
    const checkout = box.shallowClone('main');
    const cs = await changeSetForEvent(
      ctx({ pullRequest: { number: 1, baseSha: base, headSha: head, headRepoFork: true } }),
      { repoDir: checkout },
    );
    expect(cs).toMatchObject({ all: false, source: 'git', base, head });
    expect(sorted(cs.files)).toEqual([
      { path: 'a.yaml', status: 'modified' },
      { path: 'c.yaml', status: 'added' },
    ]);
  });

  it('counts every package for an event that names no change', async () => {
    const cs = await changeSetForEvent(ctx({ name: 'workflow_dispatch', sha: 'd'.repeat(40) }), {
      repoDir: '/nonexistent',
    });
    expect(cs).toMatchObject({ all: true, files: [], head: 'd'.repeat(40) });
    expect(cs.notes[0]).toMatch(/a workflow_dispatch event names no change/);
  });
});

describe('parseNameStatus', () => {
  it.each([
    { name: 'empty', out: '', want: [] },
    {
      name: 'each status, with a space and a newline in names',
      out: 'A\0new file.yaml\0M\0m.yaml\0D\0gone\nline.yaml\0T\0link\0R087\0old.yaml\0new.yaml\0C100\0src.yaml\0copy.yaml\0',
      want: [
        { path: 'new file.yaml', status: 'added' },
        { path: 'm.yaml', status: 'modified' },
        { path: 'gone\nline.yaml', status: 'removed' },
        { path: 'link', status: 'modified' },
        { path: 'new.yaml', status: 'renamed', previous: 'old.yaml' },
        { path: 'copy.yaml', status: 'added' },
      ],
    },
  ])('$name', ({ out, want }) => {
    expect(parseNameStatus(out)).toEqual(want);
  });

  it('rejects truncated output', () => {
    expect(() => parseNameStatus('R100\0only-one\0')).toThrow(/truncated/);
  });
});

describe('fromApiFile', () => {
  it.each([
    [
      { filename: 'a', status: 'added' },
      { path: 'a', status: 'added' },
    ],
    [
      { filename: 'a', status: 'removed' },
      { path: 'a', status: 'removed' },
    ],
    [
      { filename: 'a', status: 'changed' },
      { path: 'a', status: 'modified' },
    ],
    [
      { filename: 'a', status: 'unchanged' },
      { path: 'a', status: 'modified' },
    ],
    [
      { filename: 'b', status: 'renamed', previous_filename: 'a' },
      { path: 'b', status: 'renamed', previous: 'a' },
    ],
    [
      { filename: 'b', status: 'copied', previous_filename: 'a' },
      { path: 'b', status: 'added' },
    ],
  ])('%o → %o', (api, want) => {
    expect(fromApiFile(api)).toEqual(want);
  });
});
