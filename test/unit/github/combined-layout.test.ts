import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApplyFeedback } from '../../../src/action/apply-feedback.js';
import type { EventContext } from '../../../src/action/github/event.js';
import { createOctokit } from '../../../src/action/github/octokit.js';
import { readCommentThread } from '../../../src/action/github/pr-comment.js';
import type { ActionInputs } from '../../../src/action/inputs.js';
import { PreviewComments } from '../../../src/action/preview-comments.js';
import { reviewedPlanFor } from '../../../src/action/reviewed-plan.js';
import { flushLog } from '../../../src/action/toolkit.js';
import { reportUnposted } from '../../../src/action/unposted.js';
import type { PackageRunResult } from '../../../src/pipeline/run-package.js';
import { planOf } from '../../../src/preview/plan-digest.js';
import { checkPlan } from '../../../src/preview/plan-gate.js';
import type { PreviewDocument } from '../../../src/preview/types.js';
import { packageSection, sectionPackages } from '../../../src/report/combined-sections.js';
import { previewMarker } from '../../../src/report/preview-markdown.js';
import { type GitHubServer, startGitHubServer } from '../../support/github-server.js';
import { buildDocument, configMap, generatedPreview, wordpressPreview } from '../report/preview-fixtures.js';

let server: GitHubServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

const PR = 21;
const SHA = '9c1d2e3f4a5b6c7d8e9f00112233445566778899';
const ctx = (kind: 'pr' | 'push'): EventContext => ({
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
});

type Inputs = Pick<ActionInputs, 'comment' | 'commentKey' | 'packages' | 'commentLayout'>;
const inputs = (extra: Partial<Inputs> = {}): Inputs => ({
  comment: 'changes',
  commentKey: 'prod',
  packages: [],
  commentLayout: 'auto',
  ...extra,
});

function result(pkg: string, kind: 'changed' | 'quiet' | 'big'): PackageRunResult {
  const doc: PreviewDocument =
    kind === 'changed'
      ? { ...wordpressPreview(), package: pkg }
      : kind === 'big'
        ? { ...generatedPreview(60, 40), package: pkg }
        : buildDocument([{ live: configMap('a', {}), desired: configMap('a', {}), action: 'unchanged' }], {
            package: pkg,
          });
  return { path: pkg, mode: 'preview', outcome: 'success', notices: [], exitCode: 0, preview: doc };
}

const packages = (n: number) => Array.from({ length: n }, (_, i) => `deploy/p${String(i).padStart(2, '0')}`);
const comments = () => server!.state.comments.get(PR) ?? [];
const bodies = () => comments().map((c) => c.body);
const octokitFor = (token = server!.writeToken) =>
  createOctokit(token, { baseUrl: server!.url, policy: { writeSpacingMs: 0 } });

async function previewRun(
  paths: string[],
  kind: (p: string) => 'changed' | 'quiet' | 'big',
  extra: Partial<Inputs> = {},
) {
  const c = new PreviewComments(inputs(extra), ctx('pr'), octokitFor());
  await c.begin(paths);
  await Promise.all(paths.map((p) => c.onPreview(result(p, kind(p)))));
  await c.finish(paths);
}

describe('comment-layout: combined (and auto above 10 packages)', () => {
  it('auto with 12 packages: one comment for all, earlier per-package comments pointing to it, every plan readable', async () => {
    const earlier = `${previewMarker('deploy/p03', 'prod')}\n### Preview · deploy/p03 (old)`;
    server = await startGitHubServer({ comments: { [PR]: [earlier, 'LGTM'] } });
    const paths = packages(12);
    await previewRun(paths, (p) => (p.endsWith('1') ? 'quiet' : 'changed'));
    const all = bodies();
    expect(all).toHaveLength(3);
    const combined = all[2];
    expect(combined.split('\n')[0]).toBe('<!-- kpt-live-action:preview combined part=1 key=prod -->');
    expect(sectionPackages(combined)).toEqual(paths);
    expect(all[0]).toContain(
      '**Moved** · the preview of `deploy/p03` is now in [the combined preview comment](',
    );
    expect(all[0].split('\n')[0]).toBe(previewMarker('deploy/p03', 'prod'));
    expect(all[1]).toBe('LGTM');
    const thread = await readCommentThread(octokitFor(), {
      owner: 'octo-org',
      repo: 'deploy',
      issueNumber: PR,
    });
    if ('skipped' in thread) throw new Error(thread.skipped);
    for (const p of paths) {
      const found = reviewedPlanFor(thread.comments, p, 'prod');
      expect(found?.layout, p).toBe('combined');
      expect(found?.commentId).toBe(comments()[2].id);
      expect(found?.plan.changed?.length ?? 0).toBe(p.endsWith('1') ? 0 : 5);
    }
    // the moved comment holds no digest any more: only the combined one is read
    expect(all[0]).not.toContain('kpt-live-action:plan');

    // the next push: the comment is edited in place, nothing new is created
    const posts = server.requests.filter((q) => q.method === 'POST' && q.write).length;
    await previewRun(paths.slice(0, 11), () => 'changed');
    expect(server.requests.filter((q) => q.method === 'POST' && q.write)).toHaveLength(posts);
    expect(bodies()[2]).toContain(
      '**No longer changed by this pull request** (merging it applies nothing to them): `deploy/p11`',
    );
    expect(sectionPackages(bodies()[2])).toEqual(paths.slice(0, 11));
  });

  it('auto with few packages writes one comment each; a pull request that has a combined comment keeps it', async () => {
    server = await startGitHubServer();
    await previewRun(packages(3), () => 'changed');
    expect(bodies().map((b) => b.split('\n')[0])).toEqual(packages(3).map((p) => previewMarker(p, 'prod')));
    await previewRun(packages(11), () => 'changed');
    expect(bodies()).toHaveLength(4);
    expect(bodies()[3].split('\n')[0]).toBe('<!-- kpt-live-action:preview combined part=1 key=prod -->');
    // back to two packages: still the combined comment, one place to look
    await previewRun(packages(2), () => 'changed');
    expect(bodies()).toHaveLength(4);
    expect(sectionPackages(bodies()[3])).toEqual(packages(2));
  });

  it('comment: changes writes nothing while no package has anything to do', async () => {
    server = await startGitHubServer();
    await previewRun(packages(12), () => 'quiet');
    expect(bodies()).toHaveLength(0);
    expect(server.requests.filter((q) => q.write)).toHaveLength(0);
  });

  it('more parts only when needed; parts a later, shorter preview no longer needs are marked unused', async () => {
    server = await startGitHubServer();
    await previewRun(packages(12), () => 'big', { commentLayout: 'combined' });
    const parts = bodies();
    expect(parts.length).toBeGreaterThan(1);
    parts.forEach((b, i) => {
      expect(b.split('\n')[0]).toBe(`<!-- kpt-live-action:preview combined part=${i + 1} key=prod -->`);
      expect(b.length).toBeLessThanOrEqual(65_536);
    });
    expect(parts.flatMap((b) => sectionPackages(b))).toEqual(packages(12));
    await previewRun(packages(2), () => 'changed', { commentLayout: 'combined' });
    const after = bodies();
    expect(after).toHaveLength(parts.length);
    expect(sectionPackages(after[0])).toEqual(packages(2));
    for (const b of after.slice(1))
      expect(b).toContain('This part of the combined preview is no longer needed');
  });

  it('per-package after combined: the combined comment says so and loses its digests', async () => {
    server = await startGitHubServer();
    await previewRun(packages(2), () => 'changed', { commentLayout: 'combined' });
    await previewRun(packages(2), () => 'changed', { commentLayout: 'per-package' });
    const [combined, a, b] = bodies();
    expect(combined).toContain('now one comment per package');
    expect(combined).not.toContain('kpt-live-action:plan');
    expect(a.split('\n')[0]).toBe(previewMarker('deploy/p00', 'prod'));
    expect(b.split('\n')[0]).toBe(previewMarker('deploy/p01', 'prod'));
    const thread = await readCommentThread(octokitFor(), {
      owner: 'octo-org',
      repo: 'deploy',
      issueNumber: PR,
    });
    if ('skipped' in thread) throw new Error(thread.skipped);
    expect(reviewedPlanFor(thread.comments, 'deploy/p00', 'prod')?.layout).toBe('per-package');
  });

  it('after the merge: the plan check reads the combined comment; Applied sections go into the part holding each package, one edit per part', async () => {
    server = await startGitHubServer();
    const paths = packages(12);
    await previewRun(paths, () => 'changed');
    server.state.commitPulls.set(SHA, [{ number: PR, merged_at: '2026-01-02T00:00:00Z' }]);
    const before = server.requests.length;
    const f = new ApplyFeedback(
      {
        comment: 'changes',
        commentKey: 'prod',
        commentOnApply: true,
        planDrift: 'fail',
        commentLayout: 'auto',
      },
      ctx('push'),
      octokitFor(),
    );
    f.begin(paths);
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const doc = { ...wordpressPreview(), package: 'deploy/p00' };
    f.verdict('deploy/p00', checkPlan((await f.gate('deploy/p00'))!, planOf(doc.objects, [])));
    for (const p of paths.slice(0, 3)) {
      await f.report(
        {
          path: p,
          mode: 'apply',
          outcome: 'success',
          notices: [],
          exitCode: 0,
          run: { outcome: 'success', durationMs: 5, objects: [] },
        },
        [],
      );
    }
    await f.finish();
    flushLog();
    const printed = out.mock.calls.map((a) => String(a[0])).join('');
    out.mockRestore();
    expect(printed).toContain(`deploy/p00: the plan matches the one reviewed on #${PR}`);
    const writes = server.requests.slice(before).filter((q) => q.write);
    expect(writes.map((q) => q.method)).toEqual(['PATCH']);
    const body = bodies()[0];
    for (const p of paths.slice(0, 3))
      expect(packageSection(body, p)).toContain(`### Applied · \`${p}\` · ✅ applied`);
    expect(packageSection(body, 'deploy/p03')).not.toContain('### Applied');
    // the reviewed plans are still there beside the Applied sections
    const thread = await readCommentThread(octokitFor(), {
      owner: 'octo-org',
      repo: 'deploy',
      issueNumber: PR,
    });
    if ('skipped' in thread) throw new Error(thread.skipped);
    expect(reviewedPlanFor(thread.comments, 'deploy/p00', 'prod')?.plan.changed).toHaveLength(5);
  });

  it('when the rate-limit budget runs out, the run says what it could not post (warning and job summary)', async () => {
    server = await startGitHubServer({
      secondaryRateLimit: { writes: 1, retryAfterSeconds: 600, retryAfterHeader: false },
    });
    const summary = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kla-summary-')), 'summary.md');
    fs.writeFileSync(summary, '');
    vi.stubEnv('GITHUB_STEP_SUMMARY', summary);
    const octokit = createOctokit(server.writeToken, {
      baseUrl: server.url,
      onRateLimit: () => {},
      policy: { writeSpacingMs: 0, budgetMs: 30_000, sleep: async () => {} },
    });
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const c = new PreviewComments(inputs({ commentLayout: 'per-package' }), ctx('pr'), octokit);
    await c.begin(['deploy/a', 'deploy/b']);
    await c.onPreview(result('deploy/a', 'changed'));
    await c.onPreview(result('deploy/b', 'changed'));
    await c.finish(['deploy/a', 'deploy/b']);
    reportUnposted(octokit);
    flushLog();
    const printed = out.mock.calls.map((a) => String(a[0])).join('');
    out.mockRestore();
    expect(bodies()).toHaveLength(1);
    expect(printed).toMatch(
      /::warning title=kpt-live-action%3A not posted on GitHub::1 thing\(s\) not posted on GitHub: the PR comment of deploy\/b\. GitHub's rate limits used up this run's 30-second budget/,
    );
    const text = fs.readFileSync(summary, 'utf8');
    expect(text).toContain('### Not posted on GitHub');
    expect(text).toMatch(
      /- the PR comment of deploy\/b: .*GitHub asks to wait 60 s, more than is left \(30 s\)/,
    );
  });
});
