import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOriginAndClone, git } from '../support/git-repo.js';
import { type GitHubServer, startGitHubServer } from '../support/github-server.js';
import { configMap, controlPlane, uniqueName, useCluster, yamlOf } from '../support/harness/index.js';
import { runAction } from '../support/run-action.js';

const ZERO = '0'.repeat(40);
const RUN_LINK = 'https://github.example/acme/platform/actions/runs/4242';

/**
 * The PR loop end to end, with the bundled action against the real control plane and the local GitHub
 * API: comments per (package, comment-key), `comment: changes`, packages a PR stops changing, the apply
 * result back on the merged PR, and the reviewed plan compared with the applied one (`plan-drift`).
 */
describe('the PR loop', () => {
  const cluster = useCluster({ namespace: 'prloop' });
  const { api } = cluster;
  let gh: GitHubServer;
  let repo: ReturnType<typeof createOriginAndClone>;
  let kubeconfig: string;
  const shas: Record<string, string> = {};
  const repository = { full_name: 'acme/platform', default_branch: 'main' };

  const kptfile = (name: string) => `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n`;
  const rg = (name: string) =>
    `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: ${name}\n  namespace: NS\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${name}-id\n`;
  const cm = (name: string, color: string) => yamlOf(configMap(name, { color }));
  const inputs = (extra: Record<string, string> = {}) => ({
    kubeconfig,
    'github-token': gh.writeToken,
    'reconcile-timeout': '60s',
    namespace: cluster.ns,
    ...extra,
  });
  const push = (before: string, after: string, extra: Record<string, string> = {}) =>
    runAction({
      event: 'push',
      payload: { ref: 'refs/heads/main', before, after, repository },
      inputs: inputs(extra),
      workspace: repo.shallowCheckout('main'),
      apiUrl: gh.url,
      sha: after,
      ref: 'refs/heads/main',
    });
  const pr = (
    number: number,
    branch: string,
    extra: Record<string, string | undefined> = {},
    how: {
      headRepo?: string;
      event?: 'pull_request' | 'pull_request_target';
      workspace?: string;
      env?: Record<string, string>;
    } = {},
  ) => {
    const pull = gh.state.pulls.get(number)!;
    const all = inputs(extra as Record<string, string>);
    for (const [k, v] of Object.entries(extra)) if (v === undefined) delete all[k as keyof typeof all];
    return runAction({
      event: how.event ?? 'pull_request',
      payload: {
        number,
        pull_request: {
          number,
          base: { sha: pull.base, ref: 'main', repo: { full_name: 'acme/platform' } },
          head: { sha: pull.head, ref: branch, repo: { full_name: how.headRepo ?? 'acme/platform' } },
        },
        repository,
      },
      inputs: all,
      workspace: how.workspace ?? repo.shallowCheckout(branch),
      apiUrl: gh.url,
      sha: pull.head!,
      ref: `refs/pull/${number}/merge`,
      env: how.env,
    });
  };
  /** A branch from `base` with one commit per entry of `commits`; returns their SHAs. */
  const branch = (name: string, base: string, ...commits: Record<string, string | null>[]) => {
    git(repo.work, 'checkout', '-q', '-B', name, base);
    const out = commits.map((files, i) => repo.commit(files, `${name} ${i + 1}`));
    git(repo.work, 'checkout', '-q', 'main');
    return out;
  };
  const comments = (n: number) => gh.state.comments.get(n) ?? [];
  const color = async (name: string) =>
    (
      (await api.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/${name}`)).body as {
        data: { color: string };
      }
    ).data.color;

  beforeAll(async () => {
    kubeconfig = fs.readFileSync(controlPlane().kubeconfigPath, 'utf8');
    repo = createOriginAndClone();
    shas.initial = repo.commit({
      'deploy/app/Kptfile': kptfile('app'),
      'deploy/app/resourcegroup.yaml': rg(uniqueName('app')).replace('NS', cluster.ns),
      'deploy/app/config.yaml': cm('app-config', 'blue'),
      'deploy/other/Kptfile': kptfile('other'),
      'deploy/other/resourcegroup.yaml': rg(uniqueName('other')).replace('NS', cluster.ns),
      'deploy/other/config.yaml': cm('other-config', 'blue'),
    });
    gh = await startGitHubServer({ owner: 'acme', repo: 'platform', gitDir: repo.origin });
    const first = await push(ZERO, shas.initial);
    expect(first.code, first.stdout).toBe(0);
  });
  afterAll(async () => {
    await gh?.close();
  });

  it.each([
    ['comment', 'sometimes', /Invalid input 'comment': "sometimes" \(accepted: changes, always, never\)/],
    ['plan-drift', 'strict', /Invalid input 'plan-drift': "strict" \(accepted: warn, fail, ignore\)/],
    ['comment-key', 'prod --> x', /Invalid input 'comment-key': "prod --> x"/],
    ['comment-key', 'prod\neu', /Invalid input 'comment-key': "prod\\neu"/],
  ])('refuses %s=%j before any request, naming the allowed values', async (name, value, message) => {
    gh.state.pulls.set(10, { base: shas.initial, head: shas.initial });
    const before = gh.requests.length;
    const run = await pr(10, 'main', { [name]: value });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(message);
    expect(gh.requests.length).toBe(before);
  });

  it('keeps one comment per comment-key: two matrix jobs do not overwrite each other', async () => {
    [shas.keys] = branch('keys', shas.initial, { 'deploy/app/config.yaml': cm('app-config', 'green') });
    gh.state.pulls.set(11, { base: shas.initial, head: shas.keys });
    for (const key of ['staging', 'prod', 'staging']) {
      const run = await pr(11, 'keys', { 'comment-key': key });
      expect(run.code, run.stdout).toBe(0);
    }
    const bodies = comments(11).map((c) => c.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[0].split('\n')[0]).toBe('<!-- kpt-live-action:preview package=deploy/app key=staging -->');
    expect(bodies[1].split('\n')[0]).toBe('<!-- kpt-live-action:preview package=deploy/app key=prod -->');
    expect(bodies[1]).toContain('<!-- kpt-live-action:plan v1 ');
    expect(bodies[1]).toContain('green');
  });

  it('writes no comment for a package with nothing to do, and updates the one an earlier push got', async () => {
    const [readme] = branch('readme', shas.initial, { 'deploy/other/README.md': '# other\n' });
    gh.state.pulls.set(12, { base: shas.initial, head: readme });
    const quiet = await pr(12, 'readme');
    expect(quiet.code, quiet.stdout).toBe(0);
    expect(JSON.parse(quiet.outputs.packages)).toEqual(['deploy/other']);
    expect(quiet.stdout).toContain('deploy/other: nothing would change; no PR comment (comment: changes)');
    expect(comments(12)).toHaveLength(0);

    const [changed] = branch('flip', shas.initial, { 'deploy/other/config.yaml': cm('other-config', 'red') });
    gh.state.pulls.set(13, { base: shas.initial, head: changed });
    const first = await pr(13, 'flip');
    expect(first.code, first.stdout).toBe(0);
    expect(comments(13), first.stdout).toHaveLength(1);
    expect(comments(13)[0].body).toContain('### Preview');
    // the next push to the pull request reverts the change (the README edit keeps the package touched)
    const [reverted] = branch('flip', changed, {
      'deploy/other/config.yaml': cm('other-config', 'blue'),
      'deploy/other/README.md': '# other\n',
    });
    gh.state.pulls.set(13, { base: shas.initial, head: reverted });
    const second = await pr(13, 'flip');
    expect(second.code, second.stdout).toBe(0);
    expect(comments(13)).toHaveLength(1);
    expect(comments(13)[0].body).toContain('**No changes**');
    expect(comments(13)[0].body).not.toContain('### Preview');
  });

  it('updates the comment of a package the pull request no longer changes', async () => {
    const [both] = branch('both', shas.initial, {
      'deploy/app/config.yaml': cm('app-config', 'red'),
      'deploy/other/config.yaml': cm('other-config', 'red'),
    });
    gh.state.pulls.set(14, { base: shas.initial, head: both });
    const two = await pr(14, 'both');
    expect(two.code, two.stdout).toBe(0);
    expect(comments(14), two.stdout).toHaveLength(2);
    // the next push takes the change of deploy/other back
    const [one] = branch('both', both, { 'deploy/other/config.yaml': cm('other-config', 'blue') });
    gh.state.pulls.set(14, { base: shas.initial, head: one });
    const run = await pr(14, 'both');
    expect(run.code, run.stdout).toBe(0);
    expect(JSON.parse(run.outputs.packages)).toEqual(['deploy/app']);
    const bodies = comments(14).map((c) => c.body);
    expect(bodies).toHaveLength(2);
    const other = bodies.find((b) => b.startsWith('<!-- kpt-live-action:preview package=deploy/other -->'))!;
    expect(other).toContain('**No longer changed by this pull request**');
    expect(other).toContain('Earlier preview');
    expect(gh.requests.some((r) => r.method === 'DELETE')).toBe(false);
  });

  it('after the merge push, the merged pull request comment shows the applied result and the run link', async () => {
    git(repo.work, 'merge', '-q', '--ff-only', 'keys');
    git(repo.work, 'push', '-q', 'origin', 'main');
    gh.state.commitPulls.set(shas.keys, [{ number: 11, merged_at: '2026-01-02T00:00:00Z' }]);
    const run = await push(shas.initial, shas.keys, { 'comment-key': 'prod' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain('deploy/app: the plan matches the one reviewed on #11');
    expect(await color('app-config')).toBe('green');
    const [staging, prod] = comments(11).map((c) => c.body);
    expect(prod).toContain('### Preview');
    expect(prod).toContain('### Applied · `deploy/app` · ✅ applied');
    expect(prod).toContain('**1 configured**');
    expect(prod).toContain(`[run](${RUN_LINK})`);
    expect(prod).toContain(`\`${shas.keys.slice(0, 7)}\``);
    // the other matrix job's comment is its own
    expect(staging).not.toContain('### Applied');
    expect(gh.requests.some((r) => r.path === `/repos/acme/platform/commits/${shas.keys}/pulls`)).toBe(true);
  });

  it('a plan that changed between review and apply: refused before any write under fail, a warning under warn', async () => {
    const [head] = branch('drift', shas.keys, { 'deploy/app/config.yaml': cm('app-config', 'purple') });
    gh.state.pulls.set(15, { base: shas.keys, head });
    expect((await pr(15, 'drift')).code).toBe(0);
    // after the review, another run (say a hotfix applied from a laptop) sets another value with the same
    // field manager, so the apply itself meets no conflict: only the plan differs from the reviewed one
    const live = (await api.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/app-config`))
      .body as {
      metadata: { annotations: Record<string, string> };
    };
    const patched = await api.request(
      'PATCH',
      `/api/v1/namespaces/${cluster.ns}/configmaps/app-config?fieldManager=kpt-live-action&force=true`,
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'app-config', namespace: cluster.ns, annotations: live.metadata.annotations },
        data: { color: 'orange' },
      },
      'application/apply-patch+yaml',
    );
    expect(patched.status).toBe(200);
    git(repo.work, 'merge', '-q', '--ff-only', 'drift');
    git(repo.work, 'push', '-q', 'origin', 'main');
    gh.state.commitPulls.set(head, [{ number: 15, merged_at: '2026-01-03T00:00:00Z' }]);

    const refused = await push(shas.keys, head, { 'plan-drift': 'fail' });
    expect(refused.code, refused.stdout).toBe(1);
    expect(refused.stdout).toMatch(/plan changed since #15 was reviewed: ConfigMap\/app-config/);
    expect(refused.stdout).toContain('plan-drift: fail');
    expect(await color('app-config')).toBe('orange');
    expect(comments(15)[0].body).toContain('❌ not applied');

    const warned = await push(shas.keys, head);
    expect(warned.code, warned.stdout).toBe(0);
    expect(warned.stdout).toMatch(
      /::warning title=kpt-live-action%3A plan changed since review \(deploy\/app\)::/,
    );
    expect(warned.summary).toContain('Plan changed since review');
    expect(warned.summary).toContain('ConfigMap/app-config');
    expect(await color('app-config'), warned.stdout).toBe('purple');
    const body = comments(15)[0].body;
    expect(body).toContain('✅ applied');
    expect(body).toContain('The plan changed since this pull request was reviewed');
    expect(body.split('<!-- kpt-live-action:applied -->')).toHaveLength(2);
    shas.drift = head;
  });

  it('with a read-only token the apply still succeeds, with a notice', async () => {
    const [head] = branch('ro', shas.drift, { 'deploy/app/config.yaml': cm('app-config', 'teal') });
    git(repo.work, 'merge', '-q', '--ff-only', 'ro');
    git(repo.work, 'push', '-q', 'origin', 'main');
    gh.state.commitPulls.set(head, [{ number: 16, merged_at: '2026-01-04T00:00:00Z' }]);
    const run = await push(shas.drift, head, { 'github-token': gh.readToken });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/::notice::.*apply result not posted on #16: .*403/);
    expect(await color('app-config')).toBe('teal');
  });

  it('a fork or Dependabot pull request without cluster credentials and with a read-only token: skipped with a notice and a job summary, exit 0', async () => {
    const [head] = branch('fork-bare', shas.initial, { 'deploy/app/config.yaml': cm('app-config', 'pink') });
    gh.state.pulls.set(30, { base: shas.initial, head });
    const before = gh.requests.length;
    // a runner with no kubeconfig anywhere: no input, no KUBECONFIG, no ~/.kube/config, not in a pod
    const env = { HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'runner-home-')) };
    const fork = await pr(
      30,
      'fork-bare',
      { kubeconfig: undefined, 'github-token': gh.readToken },
      { headRepo: 'someone/platform', env },
    );
    expect(fork.code, fork.stdout).toBe(0);
    expect(fork.stdout).toMatch(
      /::notice::preview skipped: pull request #30 comes from a fork, and GitHub gives such runs no secrets/,
    );
    expect(fork.stdout).not.toContain('no kubeconfig');
    expect(fork.summary).toContain('### Preview skipped · pull request #30 from a fork');
    expect(fork.summary).toContain('pull_request_target');
    expect(fork.outputs.packages).toBe('[]');
    const bot = await pr(
      30,
      'fork-bare',
      { kubeconfig: undefined, 'github-token': gh.readToken },
      { env: { ...env, GITHUB_ACTOR: 'dependabot[bot]' } },
    );
    expect(bot.code, bot.stdout).toBe(0);
    expect(bot.stdout).toContain('comes from Dependabot');
    expect(comments(30)).toHaveLength(0);
    expect(gh.requests.slice(before).filter((r) => r.write)).toHaveLength(0);
  });

  it('a fork pull request with credentials (a self-hosted runner): strict, no cluster values, no Kptfile change', async () => {
    const [head] = branch('fork-creds', shas.initial, { 'deploy/app/config.yaml': cm('app-config', 'pink') });
    gh.state.pulls.set(31, { base: shas.initial, head });
    const live = await color('app-config');
    const run = await pr(31, 'fork-creds', { 'inventory-policy': 'adopt' }, { headRepo: 'someone/platform' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain('inventory-policy adopt is ignored for a pull request from a fork');
    const [comment] = comments(31);
    expect(comment.body).toContain('`data.color` changed');
    for (const text of [comment.body, run.summary, run.stdout, run.outputs.result]) {
      expect(text).not.toContain(live);
      expect(text).not.toContain('pink');
      expect(text).not.toContain('```diff');
    }
    const [kpt] = branch('fork-kptfile', shas.initial, {
      'deploy/app/Kptfile': `${kptfile('app')}info:\n  description: now mine\n`,
    });
    gh.state.pulls.set(32, { base: shas.initial, head: kpt });
    const refused = await pr(32, 'fork-kptfile', {}, { headRepo: 'someone/platform' });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(
      /refusing to preview a pull request from a fork that changes a Kptfile or inventory file \(deploy\/app\/Kptfile\)/,
    );
    expect(comments(32)).toHaveLength(0);
    expect(await color('app-config')).toBe(live);
  });

  it('pull_request_target: previews the head checked out into working-directory; the base checkout alone fails with the fix', async () => {
    const [head] = branch('target', shas.initial, { 'deploy/other/config.yaml': cm('other-config', 'gold') });
    gh.state.pulls.set(33, { base: shas.initial, head });
    const ws = repo.shallowCheckout('main');
    const target = { event: 'pull_request_target' as const, workspace: ws, headRepo: 'someone/platform' };
    const wrong = await pr(33, 'target', {}, target);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(
      /pull_request_target: the packages are read from .*, which holds commit [0-9a-f]{7}, not the pull request's head [0-9a-f]{7}.*working-directory: pr/,
    );
    expect(comments(33)).toHaveLength(0);
    git(ws, 'clone', '-q', '--depth', '1', '--branch', 'target', `file://${repo.origin}`, 'pr');
    const run = await pr(33, 'target', { 'working-directory': 'pr' }, target);
    expect(run.code, run.stdout).toBe(0);
    expect(JSON.parse(run.outputs.packages)).toEqual(['deploy/other']);
    expect(comments(33)).toHaveLength(1);
    expect(comments(33)[0].body).toContain('`data.color` changed');
    expect(comments(33)[0].body).not.toContain('gold');
  });

  it('comment-layout: combined: one comment for the pull request; after the merge the plan check reads it and the Applied sections go into it', async () => {
    const main = git(repo.work, 'rev-parse', 'main');
    const [head] = branch('combined', main, {
      'deploy/app/config.yaml': cm('app-config', 'navy'),
      'deploy/other/config.yaml': cm('other-config', 'navy'),
    });
    gh.state.pulls.set(34, { base: main, head });
    const run = await pr(34, 'combined', { 'comment-layout': 'combined' });
    expect(run.code, run.stdout).toBe(0);
    expect(comments(34)).toHaveLength(1);
    const body = comments(34)[0].body;
    expect(body.split('\n')[0]).toBe('<!-- kpt-live-action:preview combined part=1 -->');
    expect(body).toContain('<!-- kpt-live-action:section package=deploy/app -->');
    expect(body).toContain('<!-- kpt-live-action:section package=deploy/other -->');
    expect(body.match(/<!-- kpt-live-action:plan v1 /g)).toHaveLength(2);

    git(repo.work, 'merge', '-q', '--ff-only', 'combined');
    git(repo.work, 'push', '-q', 'origin', 'main');
    gh.state.commitPulls.set(head, [{ number: 34, merged_at: '2026-01-05T00:00:00Z' }]);
    const applied = await push(main, head, { 'comment-layout': 'combined', 'plan-drift': 'fail' });
    expect(applied.code, applied.stdout).toBe(0);
    expect(applied.stdout).toContain('deploy/app: the plan matches the one reviewed on #34');
    expect(applied.stdout).toContain('deploy/other: the plan matches the one reviewed on #34');
    expect(await color('app-config')).toBe('navy');
    const after = comments(34);
    expect(after).toHaveLength(1);
    expect(after[0].body).toContain('### Applied · `deploy/app` · ✅ applied');
    expect(after[0].body).toContain('### Applied · `deploy/other` · ✅ applied');
    expect(after[0].body.match(/<!-- kpt-live-action:plan v1 /g)).toHaveLength(2);
  });
});
