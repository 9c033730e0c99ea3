import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApplyFeedback } from '../../../src/action/apply-feedback.js';
import type { EventContext } from '../../../src/action/github/event.js';
import { mergedPullsOf, mergedPullsOfCommits } from '../../../src/action/github/merged-pulls.js';
import { createOctokit } from '../../../src/action/github/octokit.js';
import type { ActionInputs } from '../../../src/action/inputs.js';
import { PreviewComments } from '../../../src/action/preview-comments.js';
import { flushLog } from '../../../src/action/toolkit.js';
import type { PackageRunResult } from '../../../src/pipeline/run-package.js';
import { planOf } from '../../../src/preview/plan-digest.js';
import { checkPlan } from '../../../src/preview/plan-gate.js';
import { parsePlanDigest } from '../../../src/report/plan-digest-marker.js';
import { previewMarker } from '../../../src/report/preview-markdown.js';
import { type GitHubServer, startGitHubServer } from '../../support/github-server.js';
import { buildDocument, configMap, wordpressPreview } from '../report/preview-fixtures.js';

let server: GitHubServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

const PR = 7;
const SHA = '9c1d2e3f4a5b6c7d8e9f00112233445566778899';

function ctx(kind: 'pr' | 'push'): EventContext {
  return {
    name: kind === 'pr' ? 'pull_request' : 'push',
    owner: 'octo-org',
    repo: 'deploy',
    sha: SHA,
    ref: kind === 'pr' ? `refs/pull/${PR}/merge` : 'refs/heads/main',
    defaultBranch: 'main',
    runUrl: 'https://github.example/octo-org/deploy/actions/runs/4242',
    serverUrl: 'https://github.example',
    apiUrl: server!.url,
    ...(kind === 'pr'
      ? { pullRequest: { number: PR, baseSha: 'a'.repeat(40), headSha: 'b'.repeat(40), headRepoFork: false } }
      : { push: { before: 'a'.repeat(40), after: SHA } }),
  };
}

type CommentInputs = Pick<ActionInputs, 'comment' | 'commentKey' | 'packages' | 'commentLayout'>;
const commentInputs = (extra: Partial<CommentInputs> = {}): CommentInputs => ({
  comment: 'changes',
  commentKey: '',
  packages: [],
  commentLayout: 'auto',
  ...extra,
});

function previewResult(path: string, changes: boolean): PackageRunResult {
  const doc = changes
    ? { ...wordpressPreview(), package: path }
    : buildDocument([{ live: configMap('a', {}), desired: configMap('a', {}), action: 'unchanged' }], {
        package: path,
      });
  return { path, mode: 'preview', outcome: 'success', notices: [], exitCode: 0, preview: doc };
}

const bodies = () => (server!.state.comments.get(PR) ?? []).map((c) => c.body);

describe('preview comments (comment-key, comment modes, dropped packages)', () => {
  it('keeps one comment per (package, key): two matrix jobs with different keys keep two comments', async () => {
    server = await startGitHubServer();
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    for (const key of ['staging', 'prod', 'staging']) {
      const c = new PreviewComments(commentInputs({ commentKey: key }), ctx('pr'), octokit);
      await c.onPreview(previewResult('deploy/wordpress', true));
      await c.finish(['deploy/wordpress']);
    }
    expect(bodies()).toHaveLength(2);
    expect(bodies()[0].split('\n')[0]).toBe(previewMarker('deploy/wordpress', 'staging'));
    expect(bodies()[1].split('\n')[0]).toBe(previewMarker('deploy/wordpress', 'prod'));
    // the comment carries its plan digest
    expect(parsePlanDigest(bodies()[0])?.changed?.length).toBeGreaterThan(0);
  });

  it('writes no comment for a package with nothing to do, and updates one written earlier', async () => {
    server = await startGitHubServer();
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const quiet = new PreviewComments(commentInputs(), ctx('pr'), octokit);
    await quiet.onPreview(previewResult('deploy/readme-only', false));
    expect(bodies()).toHaveLength(0);
    expect(server.requests.filter((r) => r.write)).toHaveLength(0);

    await new PreviewComments(commentInputs(), ctx('pr'), octokit).onPreview(previewResult('deploy/a', true));
    expect(bodies()[0]).toContain('### Preview');
    await new PreviewComments(commentInputs(), ctx('pr'), octokit).onPreview(
      previewResult('deploy/a', false),
    );
    expect(bodies()).toHaveLength(1);
    expect(bodies()[0]).toContain('**No changes**');
    expect(bodies()[0]).not.toContain('### Preview');

    // always: a comment even when nothing changes; never: nothing at all
    await new PreviewComments(commentInputs({ comment: 'always' }), ctx('pr'), octokit).onPreview(
      previewResult('deploy/b', false),
    );
    expect(bodies()).toHaveLength(2);
    const writes = server.requests.filter((r) => r.write).length;
    await new PreviewComments(commentInputs({ comment: 'never' }), ctx('pr'), octokit).onPreview(
      previewResult('deploy/c', true),
    );
    expect(server.requests.filter((r) => r.write)).toHaveLength(writes);
  });

  it('updates the comment of a package the pull request no longer changes, never deleting it', async () => {
    const other = `${previewMarker('deploy/other', 'prod')}\n### Preview · old`;
    server = await startGitHubServer({
      comments: {
        [PR]: [`${previewMarker('deploy/old')}\n### Preview · deploy/old\n\nold table`, other, 'LGTM'],
      },
    });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const c = new PreviewComments(commentInputs(), ctx('pr'), octokit);
    await c.onPreview(previewResult('deploy/a', true));
    await c.finish(['deploy/a']);
    expect(bodies()).toHaveLength(4);
    expect(bodies()[0]).toContain('**No longer changed by this pull request**');
    expect(bodies()[0]).toContain('old table');
    // another key's comment belongs to another job; a person's comment is left alone
    expect(bodies()[1]).toBe(other);
    expect(bodies()[2]).toBe('LGTM');
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);
    // a second run does not edit it again
    const writes = server.requests.filter((r) => r.write).length;
    await new PreviewComments(commentInputs(), ctx('pr'), octokit).finish(['deploy/a']);
    expect(server.requests.filter((r) => r.write)).toHaveLength(writes);
  });

  it('lists the comments once per run, every page', async () => {
    server = await startGitHubServer({
      comments: { [PR]: Array.from({ length: 230 }, (_, i) => `chat ${i}`) },
    });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const c = new PreviewComments(commentInputs(), ctx('pr'), octokit);
    await c.onPreview(previewResult('deploy/a', true));
    await c.onPreview(previewResult('deploy/b', true));
    await c.finish(['deploy/a', 'deploy/b']);
    const lists = server.requests.filter((r) => r.method === 'GET');
    expect(lists.map((r) => r.query.page ?? '1')).toEqual(['1', '2', '3']);
    expect(bodies()).toHaveLength(232);
  });

  it('with a read-only token: a notice, no failure', async () => {
    server = await startGitHubServer();
    const octokit = createOctokit(server.readToken, { baseUrl: server.url });
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const c = new PreviewComments(commentInputs(), ctx('pr'), octokit);
    await c.onPreview(previewResult('deploy/a', true));
    await c.finish(['deploy/a']);
    flushLog(); // the log is written in batches
    const printed = out.mock.calls.map((a) => String(a[0])).join('');
    out.mockRestore();
    expect(printed).toMatch(/::notice::PR comment skipped: .*403/);
    expect(bodies()).toHaveLength(0);
  });
});

type FeedbackInputs = Pick<
  ActionInputs,
  'comment' | 'commentKey' | 'commentOnApply' | 'planDrift' | 'commentLayout'
>;
const feedbackInputs = (extra: Partial<FeedbackInputs> = {}): FeedbackInputs => ({
  comment: 'changes',
  commentLayout: 'auto',
  commentKey: '',
  commentOnApply: true,
  planDrift: 'warn',
  ...extra,
});

function applyResult(path: string, failed = false): PackageRunResult {
  const id = { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' };
  return {
    path,
    mode: 'apply',
    outcome: failed ? 'failed' : 'success',
    notices: [],
    exitCode: failed ? 3 : 0,
    run: {
      outcome: failed ? 'failed' : 'success',
      durationMs: 1000,
      objects: [
        failed
          ? { id, action: 'configured', reconcile: 'Failed', message: 'Progress deadline exceeded' }
          : { id, action: 'configured', reconcile: 'Successful' },
      ],
    },
  };
}

describe('the result back on the merged pull request', () => {
  it('lists the pull requests of the commit with pagination, newest merge first', async () => {
    server = await startGitHubServer();
    server.state.commitPulls.set(
      SHA,
      Array.from({ length: 120 }, (_, i) => ({
        number: i + 1,
        merged_at: `2026-01-01T00:${String(i % 60).padStart(2, '0')}:00Z`,
      })),
    );
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const pulls = await mergedPullsOf(octokit, { owner: 'octo-org', repo: 'deploy', sha: SHA });
    expect(Array.isArray(pulls) && pulls.length).toBe(120);
    expect(server.requests.map((r) => r.query.page ?? '1')).toEqual(['1', '2']);
  });

  it('lists the pull requests of several commits once each, newest merge first, asking each commit once', async () => {
    server = await startGitHubServer();
    const [c1, c2, c3] = ['1', '2', '3'].map((c) => c.repeat(40));
    server.state.commitPulls.set(c1, [{ number: 4, merged_at: '2026-01-01T00:00:00Z' }]);
    server.state.commitPulls.set(c2, [{ number: 5, merged_at: '2026-01-03T00:00:00Z' }]);
    // a rebase merge: two commits of one pull request
    server.state.commitPulls.set(c3, [{ number: 5, merged_at: '2026-01-03T00:00:00Z' }]);
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const cache = new Map();
    const where = { owner: 'octo-org', repo: 'deploy' };
    const found = await mergedPullsOfCommits(octokit, where, [c1, c2, c3], cache);
    expect(found).toEqual({
      pulls: [
        { number: 5, mergedAt: '2026-01-03T00:00:00Z' },
        { number: 4, mergedAt: '2026-01-01T00:00:00Z' },
      ],
    });
    await mergedPullsOfCommits(octokit, where, [c1, c3], cache);
    expect(server.requests).toHaveLength(3);
  });

  it('adds an Applied section with the run link to the comment of the merged pull request', async () => {
    const preview = `${previewMarker('deploy/a', 'prod')}\n### Preview · deploy/a\n`;
    server = await startGitHubServer({ comments: { [PR]: [preview, previewMarker('deploy/a')] } });
    server.state.commitPulls.set(SHA, [{ number: PR, merged_at: '2026-01-01T00:00:00Z' }]);
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const f = new ApplyFeedback(feedbackInputs({ commentKey: 'prod' }), ctx('push'), octokit);
    await f.report(applyResult('deploy/a', true), []);
    const [mine, noKey] = bodies();
    expect(mine).toContain('### Preview · deploy/a');
    expect(mine).toContain('### Applied · `deploy/a` · ❌ applied with failures');
    expect(mine).toContain('`Deployment/web`: Progress deadline exceeded');
    expect(mine).toContain('[run](https://github.example/octo-org/deploy/actions/runs/4242)');
    expect(mine).toContain('`9c1d2e3`');
    expect(noKey).toBe(previewMarker('deploy/a'));
  });

  it('posts a comment of its own when the package has none, unless comment is never', async () => {
    server = await startGitHubServer();
    server.state.commitPulls.set(SHA, [{ number: PR, merged_at: '2026-01-01T00:00:00Z' }]);
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    await new ApplyFeedback(feedbackInputs({ comment: 'never' }), ctx('push'), octokit).report(
      applyResult('deploy/a'),
      [],
    );
    expect(bodies()).toHaveLength(0);
    await new ApplyFeedback(feedbackInputs(), ctx('push'), octokit).report(applyResult('deploy/a'), []);
    expect(bodies()).toHaveLength(1);
    expect(bodies()[0].split('\n')[0]).toBe(previewMarker('deploy/a'));
    expect(bodies()[0]).toContain('✅ applied');
    // comment-on-apply: false posts nothing
    await new ApplyFeedback(feedbackInputs({ commentOnApply: false }), ctx('push'), octokit).report(
      applyResult('deploy/b'),
      [],
    );
    expect(bodies()).toHaveLength(1);
  });

  it('with a read-only token: a notice, no failure', async () => {
    server = await startGitHubServer({ comments: { [PR]: [previewMarker('deploy/a')] } });
    server.state.commitPulls.set(SHA, [{ number: PR, merged_at: '2026-01-01T00:00:00Z' }]);
    const octokit = createOctokit(server.readToken, { baseUrl: server.url });
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    await new ApplyFeedback(feedbackInputs(), ctx('push'), octokit).report(applyResult('deploy/a'), []);
    flushLog(); // the log is written in batches
    const printed = out.mock.calls.map((a) => String(a[0])).join('');
    out.mockRestore();
    expect(printed).toMatch(/::notice::apply result not posted on #7: .*403/);
    expect(bodies()).toEqual([previewMarker('deploy/a')]);
  });

  it('compares the plan with the reviewed one: warns under warn, refuses under fail, and fails closed without a reviewed plan', async () => {
    const doc = { ...wordpressPreview(), package: 'deploy/a' };
    const reviewed: PackageRunResult = { ...previewResult('deploy/a', true), preview: doc };
    server = await startGitHubServer();
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    await new PreviewComments(commentInputs(), { ...ctx('pr') }, octokit).onPreview(reviewed);
    server.state.commitPulls.set(SHA, [{ number: PR, merged_at: '2026-01-01T00:00:00Z' }]);

    const same = planOf(doc.objects, []);
    const changed = same.map((e) =>
      e.key === 'shop_mysql-config__ConfigMap'
        ? { ...e, action: 'configure' as const, hash: 'abcabcabcabc' }
        : e,
    );
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    // the gate is fetched before the run, the comparison runs after the pre-flight, the verdict is reported after the run
    const check = async (f: ApplyFeedback, pkg: string, planned: typeof same | undefined) => {
      const verdict = checkPlan((await f.gate(pkg))!, planned);
      f.verdict(pkg, verdict);
      return verdict;
    };
    const warn = new ApplyFeedback(feedbackInputs(), ctx('push'), octokit);
    await check(warn, 'deploy/a', same);
    expect(warn.summarySection('deploy/a')).toBe('');
    await check(warn, 'deploy/a', changed);
    expect(warn.summarySection('deploy/a')).toContain(
      '`ConfigMap/mysql-config (namespace shop)`: reviewed unchanged, now configure',
    );

    const fail = new ApplyFeedback(feedbackInputs({ planDrift: 'fail' }), ctx('push'), octokit);
    expect((await check(fail, 'deploy/a', changed)).refuse).toMatch(
      /plan changed since #7 was reviewed: ConfigMap\/mysql-config.*plan-drift: fail/,
    );
    expect((await check(fail, 'deploy/a', same)).refuse).toBeUndefined();

    expect(
      await new ApplyFeedback(feedbackInputs({ planDrift: 'ignore' }), ctx('push'), octokit).gate('deploy/a'),
    ).toBeUndefined();
    // no digest for this package, or preflight off: plan-drift: fail fails closed; warn warns
    expect((await check(fail, 'deploy/none', changed)).refuse).toMatch(
      /no reviewed plan for deploy\/none: the PR comment was deleted or never written \(#7.*Refusing to apply \(plan-drift: fail\)/,
    );
    expect((await check(fail, 'deploy/a', undefined)).refuse).toMatch(/preflight is off/);
    // a package whose plan changes nothing needs no review
    const nothing = same.map((e) => ({ ...e, action: 'unchanged' as const, hash: '' }));
    expect((await check(fail, 'deploy/none', nothing)).refuse).toBeUndefined();
    await check(warn, 'deploy/none', changed);
    await check(warn, 'deploy/a', undefined);
    flushLog(); // the log is written in batches
    const printed = out.mock.calls.map((a) => String(a[0])).join('');
    out.mockRestore();
    expect(printed).toMatch(
      /::warning title=kpt-live-action%3A plan changed since review \(deploy\/a\)::the plan changed since #7 was reviewed/,
    );
    expect(printed).toMatch(
      /::warning title=kpt-live-action%3A plan changed since review \(deploy\/none\)::no reviewed plan for deploy\/none: the PR comment was deleted or never written/,
    );
    expect(printed).toMatch(/::notice::deploy\/a: plan-drift not checked: preflight is off/);
  });
});
