import { afterEach, describe, expect, it } from 'vitest';
import {
  DRIFT_LABEL,
  listDriftIssues,
  pickDriftIssue,
  syncDriftIssue,
} from '../../../src/action/github/drift-issue.js';
import { createOctokit } from '../../../src/action/github/octokit.js';
import { driftMarker } from '../../../src/report/drift-markdown.js';
import { type GitHubServer, startGitHubServer } from '../../support/github-server.js';

let server: GitHubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const owner = 'octo-org';
const repo = 'deploy';
const web = driftMarker('deploy/web');

function input(marker: string, drifted: boolean, text = 'ConfigMap/settings changed') {
  return {
    owner,
    repo,
    marker,
    title: 'Drift: deploy/web',
    body: `${marker}\n${text}`,
    drifted,
    inSyncComment: 'In sync again. Closing.',
  };
}

async function sync(s: GitHubServer, marker: string, drifted: boolean, text?: string, token = s.writeToken) {
  const octokit = createOctokit(token, { baseUrl: s.url });
  const issues = await listDriftIssues(octokit, owner, repo);
  return syncDriftIssue(octokit, issues, input(marker, drifted, text));
}

describe('drift issues', () => {
  it('opens one labelled issue (creating the label), updates it in place, closes it with a comment, reopens it', async () => {
    server = await startGitHubServer();
    const s = server;
    const opened = await sync(s, web, true, 'first');
    expect(opened).toMatchObject({ action: 'opened' });
    const number = (opened as { number: number }).number;
    expect(s.state.labels.get(DRIFT_LABEL)).toMatchObject({ name: DRIFT_LABEL, color: 'd93f0b' });
    expect(s.requests.filter((r) => r.path.endsWith('/labels')).map((r) => r.method)).toEqual(['POST']);

    expect(await sync(s, web, true, 'second')).toEqual(
      expect.objectContaining({ action: 'updated', number }),
    );
    expect(s.state.issues.size).toBe(1);
    expect(s.state.issues.get(number)).toMatchObject({ state: 'open', body: `${web}\nsecond` });
    expect(s.state.issues.get(number)?.labels.map((l) => l.name)).toEqual([DRIFT_LABEL]);

    expect(await sync(s, web, false)).toEqual(expect.objectContaining({ action: 'closed', number }));
    expect(s.state.issues.get(number)).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect(s.state.comments.get(number)?.map((c) => c.body)).toEqual(['In sync again. Closing.']);

    // still in sync: nothing written
    const before = s.requests.length;
    expect(await sync(s, web, false)).toEqual({ action: 'none' });
    expect(s.requests.slice(before).every((r) => !r.write)).toBe(true);

    expect(await sync(s, web, true, 'third')).toEqual(
      expect.objectContaining({ action: 'reopened', number }),
    );
    expect(s.state.issues.get(number)).toMatchObject({ state: 'open', body: `${web}\nthird` });
    expect(s.state.issues.size).toBe(1);
    // the label existed by then: never created twice
    expect(s.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/labels'))).toHaveLength(1);
  });

  it('finds its issue on page 2 of 150 labelled issues, never through the Search API', async () => {
    const others = Array.from({ length: 150 }, (_, i) => ({
      title: `Drift: other/${i}`,
      body: `${driftMarker(`other/${i}`)}\nold`,
      labels: [DRIFT_LABEL],
      state: i % 2 ? ('closed' as const) : ('open' as const),
    }));
    // ours is the oldest: GitHub lists newest first, so it is on the second page
    server = await startGitHubServer({
      issues: [{ title: 'Drift: deploy/web', body: `${web}\nold`, labels: [DRIFT_LABEL] }, ...others],
    });
    const s = server;
    const r = await sync(s, web, true, 'new');
    expect(r).toMatchObject({ action: 'updated', number: 1 });
    const lists = s.requests.filter((q) => q.method === 'GET' && q.path.endsWith('/issues'));
    expect(lists.map((q) => q.query.page ?? '1')).toEqual(['1', '2']);
    expect(lists[0].query).toMatchObject({ labels: DRIFT_LABEL, state: 'all', per_page: '100' });
    expect(s.requests.some((q) => q.path.startsWith('/search'))).toBe(false);
    expect(s.state.issues.size).toBe(151);
  });

  it('keeps a separate issue per comment key, and a package path that is a prefix never matches', async () => {
    server = await startGitHubServer();
    const s = server;
    const prod = driftMarker('deploy/web', 'prod');
    const nested = driftMarker('deploy/web/extra');
    const a = await sync(s, web, true);
    const b = await sync(s, prod, true);
    const c = await sync(s, nested, true);
    const numbers = [a, b, c].map((x) => (x as { number: number }).number);
    expect(new Set(numbers).size).toBe(3);
    expect(prod).toBe('<!-- kpt-live-action:drift package=deploy/web key=prod -->');
    expect(await sync(s, prod, true)).toMatchObject({ action: 'updated', number: numbers[1] });
  });

  it('a read-only token reads but is skipped with a reason on write, never an error', async () => {
    server = await startGitHubServer();
    const s = server;
    const r = await sync(s, web, true, 'x', s.readToken);
    expect(r.action).toBe('skipped');
    expect((r as { reason: string }).reason).toMatch(/403.*issues: write/);
    expect(s.state.issues.size).toBe(0);
  });

  it('prefers an issue that starts with the marker over one quoting it, then an open one', () => {
    const issues = [
      { number: 1, state: 'open', body: `quoting ${web}` },
      { number: 2, state: 'closed', body: `${web}\nours` },
      { number: 3, state: 'open', body: `${web}\nours, open` },
    ];
    expect(pickDriftIssue(issues.slice(0, 2), web)?.number).toBe(2);
    expect(pickDriftIssue(issues, web)?.number).toBe(3);
    expect(pickDriftIssue(issues, driftMarker('deploy/we'))).toBeUndefined();
  });
});

describe('drift issues against what GitHub really answers', () => {
  it('skips the pull requests GET /issues lists with the label (every pull request is an issue there)', async () => {
    server = await startGitHubServer({
      pulls: { 3: { files: [], title: 'bump', labels: [DRIFT_LABEL] } },
      issues: [{ title: 'Drift: deploy/web', body: `${web}\nold`, labels: [DRIFT_LABEL] }],
    });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const raw = await octokit.rest.issues.listForRepo({ owner, repo, labels: DRIFT_LABEL, state: 'all' });
    expect(raw.data.map((i) => [i.number, Boolean(i.pull_request)])).toEqual([
      [4, false],
      [3, true],
    ]);
    expect((await listDriftIssues(octokit, owner, repo)).map((i) => i.number)).toEqual([4]);
  });

  it('issues turned off: GitHub answers 410, and the skip says issues are disabled', async () => {
    server = await startGitHubServer({ issuesDisabled: true });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const err = await listDriftIssues(octokit, owner, repo).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 410 });
    const r = await syncDriftIssue(octokit, [], input(web, true));
    expect(r.action).toBe('skipped');
    expect(r.action === 'skipped' && r.reason).toMatch(
      /GitHub answered 410 \(Issues are disabled for this repo\) to opening an issue in octo-org\/deploy; issues are disabled in this repository/,
    );
  });

  it('a read-only token: the skip names the permission to add', async () => {
    server = await startGitHubServer();
    const r = await sync(server, web, true, 'x', server.readToken);
    expect(r.action === 'skipped' && r.reason).toMatch(/"permissions: issues: write"/);
  });
});
