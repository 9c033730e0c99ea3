import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOriginAndClone, git } from '../support/git-repo.js';
import { type GitHubServer, startGitHubServer } from '../support/github-server.js';
import {
  configMap,
  controlPlane,
  deployment,
  uniqueName,
  useCluster,
  yamlOf,
} from '../support/harness/index.js';
import { runAction } from '../support/run-action.js';

const ZERO = '0'.repeat(40);
const short = (sha: string) => sha.slice(0, 7);

/**
 * Main is what runs: the bundled action on pushes whose runs GitHub cancelled or that failed, against the
 * real control plane, the local GitHub API and real git. A push applies what the cluster lacks of the
 * pushed commit (catch-up), comments Applied on every pull request merged since, holds a failed tree
 * instead of retrying it on every push, and refuses scopes nobody asked for.
 */
describe('catch-up on push', () => {
  const cluster = useCluster({ namespace: 'catchup' });
  const { api } = cluster;
  let gh: GitHubServer;
  let repo: ReturnType<typeof createOriginAndClone>;
  let kubeconfig: string;
  const shas: Record<string, string> = {};
  const repository = { full_name: 'acme/platform', default_branch: 'main' };

  const kptfile = (name: string) => `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n`;
  const rg = (name: string) =>
    `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: ${name}\n  namespace: ${cluster.ns}\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${name}-id\n`;
  const cm = (name: string, color: string) => yamlOf(configMap(name, { color }));
  const neverReady = (name: string) =>
    yamlOf(
      deployment(name, {
        image: `example/${name}:1`,
        podAnnotations: { 'sim.kpt-live-action.dev/behavior': 'never-ready' },
      }),
    );
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
  const dispatch = (extra: Record<string, string>) =>
    runAction({
      event: 'workflow_dispatch',
      payload: { ref: 'refs/heads/main', inputs: {}, repository },
      inputs: inputs(extra),
      workspace: repo.shallowCheckout('main'),
      apiUrl: gh.url,
      sha: git(repo.work, 'rev-parse', 'main'),
      ref: 'refs/heads/main',
    });
  const pr = (number: number, branch: string, action = 'synchronize') => {
    const pull = gh.state.pulls.get(number)!;
    return runAction({
      event: 'pull_request',
      payload: {
        action,
        number,
        pull_request: {
          number,
          base: { sha: pull.base, ref: 'main', repo: { full_name: 'acme/platform' } },
          head: { sha: pull.head, ref: branch, repo: { full_name: 'acme/platform' } },
        },
        repository,
      },
      inputs: inputs(),
      workspace: repo.shallowCheckout(branch),
      apiUrl: gh.url,
      sha: pull.head!,
      ref: `refs/pull/${number}/merge`,
    });
  };
  /** A pull request: a branch from `base` with one commit, previewed; returns its head. */
  const openPull = async (
    number: number,
    name: string,
    base: string,
    files: Record<string, string | null>,
  ) => {
    git(repo.work, 'checkout', '-q', '-B', name, base);
    const head = repo.commit(files, name);
    git(repo.work, 'checkout', '-q', 'main');
    gh.state.pulls.set(number, { base, head });
    const preview = await pr(number, name);
    expect(preview.code, preview.stdout).toBe(0);
    return head;
  };
  /** Merges the branch into main with a merge commit, as GitHub's merge button does; returns the merge. */
  const merge = (number: number, name: string, at: string) => {
    git(repo.work, 'merge', '-q', '--no-ff', '-m', `Merge pull request #${number}`, name);
    git(repo.work, 'push', '-q', 'origin', 'main');
    const sha = git(repo.work, 'rev-parse', 'HEAD');
    gh.state.commitPulls.set(sha, [{ number, merged_at: at }]);
    return sha;
  };
  /** A commit straight on main (no pull request). */
  const direct = (files: Record<string, string | null>, message: string) => repo.commit(files, message);
  const color = async (name: string) => {
    const r = await api.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/${name}`);
    return r.status === 404 ? undefined : (r.body as { data: { color: string } }).data.color;
  };
  const comments = (n: number) => (gh.state.comments.get(n) ?? []).map((c) => c.body);
  const packagesOf = (run: { outputs: Record<string, string> }) => JSON.parse(run.outputs.packages ?? '[]');

  beforeAll(async () => {
    kubeconfig = fs.readFileSync(controlPlane().kubeconfigPath, 'utf8');
    repo = createOriginAndClone();
    shas.initial = repo.commit({
      'deploy/a/Kptfile': kptfile('a'),
      'deploy/a/resourcegroup.yaml': rg(uniqueName('a')),
      'deploy/a/config.yaml': cm('a-config', 'blue'),
      'deploy/b/Kptfile': kptfile('b'),
      'deploy/b/resourcegroup.yaml': rg(uniqueName('b')),
      'deploy/b/config.yaml': cm('b-config', 'blue'),
    });
    gh = await startGitHubServer({ owner: 'acme', repo: 'platform', gitDir: repo.origin });
    const first = await push(ZERO, shas.initial);
    expect(first.code, first.stdout).toBe(0);
    expect(packagesOf(first)).toEqual(['deploy/a', 'deploy/b']);
    expect(first.stdout).toContain('deploy/a: runs: no deploy record here yet');
  });
  afterAll(async () => {
    await gh?.close();
  });

  it('two merges, the first run cancelled: the run for B applies A and B and comments Applied on both pull requests', async () => {
    await openPull(21, 'pr-a', shas.initial, { 'deploy/a/config.yaml': cm('a-config', 'green') });
    await openPull(22, 'pr-b', shas.initial, { 'deploy/b/config.yaml': cm('b-config', 'green') });
    expect(comments(21)[0]).toMatch(/<!-- kpt-live-action:plan v1 hash=\S+ objects=1 tree=[0-9a-f]{40}\n/);
    const a = merge(21, 'pr-a', '2026-02-01T00:00:00Z');
    const b = merge(22, 'pr-b', '2026-02-01T00:01:00Z');
    // GitHub cancelled the pending run for A when B's queued: only B's run happens, and it is strict
    const run = await push(a, b, { 'plan-drift': 'fail' });
    expect(run.code, run.stdout).toBe(0);
    expect(packagesOf(run)).toEqual(['deploy/a', 'deploy/b']);
    expect(await color('a-config')).toBe('green');
    expect(await color('b-config')).toBe('green');
    expect(run.stdout).toContain(
      `deploy/a: runs: changed since ${short(shas.initial)}, the last commit applied here`,
    );
    expect(run.stdout).toContain(`deploy/b: runs: changed by this push (${short(a)}..${short(b)})`);
    expect(run.summary).toContain('| why it runs |');
    // each package's plan was the one reviewed on its own pull request
    expect(run.stdout).toContain('deploy/a: the plan matches the one reviewed on #21');
    expect(run.stdout).toContain('deploy/b: the plan matches the one reviewed on #22');
    for (const [n, pkg] of [
      [21, 'deploy/a'],
      [22, 'deploy/b'],
    ] as const) {
      const body = comments(n).join('\n');
      expect(body, `#${n}`).toContain(`### Applied · \`${pkg}\` · ✅ applied`);
      expect(body, `#${n}`).toContain(`\`${short(b)}\``);
    }
    // a pull request gets the Applied section of its own package only
    expect(comments(21).join('\n')).not.toContain('deploy/b');
    shas.b = b;
  });

  it('a failed tree is held: later pushes do not retry it until it changes or a run names it', async () => {
    const broken = direct({ 'deploy/a/web.yaml': neverReady('web') }, 'a web that never becomes ready');
    const failed = await push(shas.b, broken, { 'reconcile-timeout': '3s' });
    expect(failed.code, failed.stdout).toBe(1);
    expect(packagesOf(failed)).toEqual(['deploy/a']);

    // the next push changes only deploy/b: deploy/a is held, named in a warning and the summary
    const other = direct({ 'deploy/b/config.yaml': cm('b-config', 'red') }, 'b red');
    const next = await push(broken, other);
    expect(next.code, next.stdout).toBe(0);
    expect(packagesOf(next)).toEqual(['deploy/b']);
    const held = `deploy/a: tree of ${short(broken)} failed; not retried until deploy/a changes`;
    expect(next.stdout).toContain(`::warning title=kpt-live-action%3A deploy/a held::${held}`);
    expect(next.summary).toContain('**Held**');
    expect(next.summary).toContain(`tree of ${short(broken)} failed; not retried until deploy/a changes`);
    expect(await color('b-config')).toBe('red');

    // a manual run that names it runs it again
    const named = await dispatch({ mode: 'apply', packages: 'deploy/a', 'reconcile-timeout': '3s' });
    expect(named.code, named.stdout).toBe(1);
    expect(packagesOf(named)).toEqual(['deploy/a']);
    expect(named.stdout).toContain('Deployment/web');

    // a change to it releases it
    const fixed = direct({ 'deploy/a/web.yaml': null }, 'remove web');
    const after = await push(other, fixed);
    expect(after.code, after.stdout).toBe(0);
    expect(packagesOf(after)).toEqual(['deploy/a']);
    shas.fixed = fixed;
  });

  it('a package the pre-flight rejects (no deploy record) is held through the watermark', async () => {
    const bad = direct({ 'deploy/b/bad.yaml': cm('Bad_Name', 'x') }, 'an invalid name');
    const rejected = await push(shas.fixed, bad);
    expect(rejected.code, rejected.stdout).toBe(1);
    const next = direct({ 'deploy/a/config.yaml': cm('a-config', 'teal') }, 'a teal');
    const run = await push(bad, next);
    expect(run.code, run.stdout).toBe(0);
    expect(packagesOf(run)).toEqual(['deploy/a']);
    expect(run.stdout).toMatch(new RegExp(`deploy/b held::deploy/b: tree of ${short(bad)} failed \\(`));
    const repaired = direct({ 'deploy/b/bad.yaml': null }, 'drop the invalid object');
    const again = await push(next, repaired);
    expect(again.code, again.stdout).toBe(0);
    expect(packagesOf(again)).toEqual(['deploy/b']);
    shas.repaired = repaired;
  });

  it('scope: destroy needs packages, a glob that matches nothing is an error, before any write', async () => {
    const requests = gh.requests.length;
    for (const packages of ['', '  \n  ']) {
      const run = await dispatch({ mode: 'destroy', packages });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('mode: destroy needs the packages input');
    }
    expect(gh.requests.length).toBe(requests);
    expect(await color('a-config')).toBe('teal');
    const glob = await dispatch({ mode: 'apply', packages: 'deploy/nothing-*' });
    expect(glob.code).toBe(1);
    expect(glob.stdout).toContain('"deploy/nothing-*" matches no package directory');
    // on push, packages filters the catch-up set: a line that matches nothing is an error there too
    const filtered = await push(shas.repaired, shas.repaired, { packages: 'deploy/nothing-*' });
    expect(filtered.code).toBe(1);
    expect(filtered.stdout).toContain('matches no package directory');
  });

  it('a workflow_dispatch apply without packages applies the catch-up set, not every package', async () => {
    const run = await dispatch({ mode: 'apply' });
    expect(run.code, run.stdout).toBe(0);
    expect(packagesOf(run)).toEqual([]);
    expect(run.stdout).toMatch(/deploy\/a: up to date: \w{7} applied here/);
    expect(run.summary).toContain('Nothing to apply');
  });

  it('a closed pull request does nothing; merge_group previews base..head and refuses apply', async () => {
    git(repo.work, 'checkout', '-q', '-B', 'closed', shas.repaired);
    const head = repo.commit({ 'deploy/a/config.yaml': cm('a-config', 'gray') }, 'closed');
    git(repo.work, 'checkout', '-q', 'main');
    gh.state.pulls.set(23, { base: shas.repaired, head });
    const closed = await pr(23, 'closed', 'closed');
    expect(closed.code, closed.stdout).toBe(0);
    expect(closed.stdout).toContain('::notice::pull request #23 is closed: nothing to do');
    expect(packagesOf(closed)).toEqual([]);
    expect(comments(23)).toHaveLength(0);

    git(repo.work, 'checkout', '-q', '-B', 'gh-readonly-queue/main/pr-24', shas.repaired);
    const queued = repo.commit({ 'deploy/b/config.yaml': cm('b-config', 'queued') }, 'queue');
    git(repo.work, 'checkout', '-q', 'main');
    const group = (mode: string) =>
      runAction({
        event: 'merge_group',
        payload: {
          action: 'checks_requested',
          merge_group: {
            head_sha: queued,
            head_ref: 'refs/heads/gh-readonly-queue/main/pr-24',
            base_sha: shas.repaired,
            base_ref: 'refs/heads/main',
          },
          repository,
        },
        inputs: inputs({ mode }),
        workspace: repo.shallowCheckout('gh-readonly-queue/main/pr-24'),
        apiUrl: gh.url,
        sha: queued,
        ref: 'refs/heads/gh-readonly-queue/main/pr-24',
      });
    const preview = await group('auto');
    expect(preview.code, preview.stdout).toBe(0);
    expect(packagesOf(preview)).toEqual(['deploy/b']);
    expect(preview.summary).toContain('queued');
    expect(await color('b-config')).toBe('red');
    const apply = await group('apply');
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('mode: apply on a merge_group event');
    expect(await color('b-config')).toBe('red');
  });

  it("mode resolve: with credentials the catch-up set; without, the push's own change and a notice", async () => {
    const x = direct({ 'deploy/a/config.yaml': cm('a-config', 'olive') }, 'a olive (its run never happens)');
    const y = direct({ 'deploy/b/config.yaml': cm('b-config', 'olive') }, 'b olive');
    const withCluster = await push(x, y, { mode: 'resolve' });
    expect(withCluster.code, withCluster.stdout).toBe(0);
    expect(packagesOf(withCluster)).toEqual(['deploy/a', 'deploy/b']);
    const home = fs.mkdtempSync(`${repo.root}/home-`);
    const without = await runAction({
      event: 'push',
      payload: { ref: 'refs/heads/main', before: x, after: y, repository },
      inputs: inputs({ mode: 'resolve', kubeconfig: '' }),
      workspace: repo.shallowCheckout('main'),
      apiUrl: gh.url,
      sha: y,
      ref: 'refs/heads/main',
      env: { HOME: home },
    });
    expect(without.code, without.stdout).toBe(0);
    expect(packagesOf(without)).toEqual(['deploy/b']);
    expect(without.stdout).toContain(
      "::notice::no cluster credentials: the packages are the push's own change",
    );
    // resolve writes nothing
    expect(await color('a-config')).toBe('teal');
  });

  it('a package added or deleted by a merge whose run never happened is found through the watermark', async () => {
    const add = direct(
      {
        'deploy/c/Kptfile': kptfile('c'),
        'deploy/c/resourcegroup.yaml': rg(uniqueName('c')),
        'deploy/c/config.yaml': cm('c-config', 'blue'),
      },
      'add deploy/c (its run never happens)',
    );
    const next = direct({ 'deploy/b/config.yaml': cm('b-config', 'navy') }, 'b navy');
    // the monorepo fan-out: resolve lists the packages, one job per package applies it (packages filters)
    const resolved = await push(add, next, { mode: 'resolve' });
    expect(resolved.code, resolved.stdout).toBe(0);
    expect(packagesOf(resolved)).toContain('deploy/c');
    expect(resolved.stdout).toMatch(/deploy\/c: runs: added since \w{7}, the last commit fully applied here/);
    for (const pkg of packagesOf(resolved)) {
      const job = await push(add, next, { packages: pkg });
      expect(job.code, job.stdout).toBe(0);
      expect(packagesOf(job)).toEqual([pkg]);
    }
    expect(await color('c-config')).toBe('blue');
    expect(await color('b-config')).toBe('navy');

    const del = direct({ 'deploy/c': null }, 'delete deploy/c (its run never happens)');
    const after = direct({ 'deploy/b/config.yaml': cm('b-config', 'pink') }, 'b pink');
    const refused = await push(del, after);
    expect(refused.code, refused.stdout).toBe(1);
    expect(refused.stdout).toMatch(
      /deploy\/c: runs: deleted since \w{7}, the last commit fully applied here/,
    );
    expect(refused.stdout).toContain('Set destroy-removed-packages: true to delete them');
    expect(await color('c-config')).toBe('blue');
    // not retried by the next push: held, and the job is green
    const later = direct({ 'deploy/b/config.yaml': cm('b-config', 'gold') }, 'b gold');
    const held = await push(after, later);
    expect(held.code, held.stdout).toBe(0);
    expect(packagesOf(held)).toEqual(['deploy/b']);
    expect(held.stdout).toMatch(/deploy\/c held::deploy\/c: its deletion at \w{7} was not applied/);
    // turning destroy-removed-packages on releases it: the objects are deleted
    const destroyed = await dispatch({ mode: 'apply', 'destroy-removed-packages': 'true' });
    expect(destroyed.code, destroyed.stdout).toBe(0);
    expect(packagesOf(destroyed)).toEqual(['deploy/c']);
    expect(await color('c-config')).toBeUndefined();
  });
});
