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
import { RUNTIMES } from '../support/node24.js';
import { runAction } from '../support/run-action.js';

const ZERO = '0'.repeat(40);

/**
 * The bundled action (dist/index.js) run as a runner runs it, against the real control plane, a local
 * GitHub API and real git repositories: PR previews with sticky comments, applies on push, failures with
 * annotations, fork tokens, shallow clones, and a PR that deletes a package. Under this Node and under
 * Node 24, the runtime action.yml declares.
 */
describe.each(RUNTIMES)('the action end to end ($name)', ({ binary }) => {
  let node: string;
  const cluster = useCluster({ namespace: 'e2e' });
  const { api } = cluster;
  let gh: GitHubServer;
  let repo: ReturnType<typeof createOriginAndClone>;
  let kubeconfig: string;
  const shas: Record<string, string> = {};
  const repository = { full_name: 'acme/platform', default_branch: 'main' };

  const kptfile = (name: string) => `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n`;
  const rg = (name: string) =>
    `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: ${name}\n  namespace: NS\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${name}-id\n`;
  const cm = (name: string) => yamlOf(configMap(name, { color: 'blue' }));
  const deploy = (name: string, behavior = 'ready', spec: Record<string, unknown> = {}) =>
    yamlOf(
      deployment(name, {
        image: `example/${name}:1`,
        podAnnotations: { 'sim.kpt-live-action.dev/behavior': behavior },
        spec,
      }),
    );
  const inputs = (extra: Record<string, string> = {}) => ({
    kubeconfig,
    'github-token': gh.writeToken,
    'reconcile-timeout': '60s',
    // objects without a namespace go to this one (else the kubeconfig context's, as kpt)
    namespace: cluster.ns,
    ...extra,
  });
  const push = (before: string, after: string, workspace: string, extra: Record<string, string> = {}) =>
    runAction({
      event: 'push',
      payload: { ref: 'refs/heads/main', before, after, repository },
      inputs: inputs(extra),
      workspace,
      apiUrl: gh.url,
      sha: after,
      ref: 'refs/heads/main',
      node,
    });
  const pr = (number: number, base: string, head: string, branch: string, token = gh.writeToken) =>
    runAction({
      event: 'pull_request',
      payload: {
        number,
        pull_request: {
          number,
          base: { sha: base, ref: 'main', repo: { full_name: 'acme/platform' } },
          head: { sha: head, ref: branch, repo: { full_name: 'acme/platform' } },
        },
        repository,
      },
      inputs: inputs({ 'github-token': token }),
      workspace: repo.shallowCheckout(branch),
      apiUrl: gh.url,
      sha: head,
      ref: `refs/pull/${number}/merge`,
      node,
    });

  beforeAll(async () => {
    node = binary();
    kubeconfig = fs.readFileSync(controlPlane().kubeconfigPath, 'utf8');
    repo = createOriginAndClone();
    const app = uniqueName('app');
    const other = uniqueName('other');
    shas.initial = repo.commit({
      'deploy/app/Kptfile': kptfile('app'),
      'deploy/app/resourcegroup.yaml': rg(app).replace('NS', cluster.ns),
      'deploy/app/web.yaml': deploy('web'),
      'deploy/app/config.yaml': cm('config-map-1'),
      'deploy/other/Kptfile': kptfile('other'),
      'deploy/other/resourcegroup.yaml': rg(other).replace('NS', cluster.ns),
      'deploy/other/cm.yaml': cm('other-cm'),
      'README.md': '# platform\n',
    });
    git(repo.work, 'checkout', '-q', '-b', 'feature');
    shas.feature = repo.commit(
      { 'deploy/app/config.yaml': null, 'deploy/app/config-2.yaml': cm('config-map-2') },
      'rename config',
    );
    git(repo.work, 'checkout', '-q', 'main');
    gh = await startGitHubServer({
      owner: 'acme',
      repo: 'platform',
      gitDir: repo.origin,
      pulls: { 7: { base: shas.initial, head: shas.feature } },
    });
  });
  afterAll(async () => {
    await gh?.close();
  });

  it('applies every package on the first push of a new branch (zero before)', async () => {
    const run = await push(ZERO, shas.initial, repo.shallowCheckout('main'));
    expect(run.code, run.stdout).toBe(0);
    expect(JSON.parse(run.outputs.packages)).toEqual(['deploy/app', 'deploy/other']);
    expect(run.outputs.created).toBe('3');
    expect(run.summary).toContain('deploy/app');
    expect(run.stdout).toContain('deployment.apps/web apply successful');
    expect(
      (await api.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/config-map-1`)).status,
    ).toBe(200);
  });

  it('previews a pull request in one comment per package, updated in place on the next run', async () => {
    const first = await pr(7, shas.initial, shas.feature, 'feature');
    expect(first.code, first.stdout).toBe(0);
    expect(JSON.parse(first.outputs.packages)).toEqual(['deploy/app']);
    const result = JSON.parse(first.outputs.result);
    expect(result.packages[0].summary).toMatchObject({ create: 1, prune: 1, unchanged: 1, configure: 0 });
    let comments = gh.state.comments.get(7) ?? [];
    expect(comments).toHaveLength(1);
    expect(comments[0].body).toContain('<!-- kpt-live-action:preview package=deploy/app -->');
    expect(comments[0].body).toContain('config-map-2');
    expect(comments[0].body).toContain('config-map-1');
    const id = comments[0].id;

    const second = await pr(7, shas.initial, shas.feature, 'feature');
    expect(second.code).toBe(0);
    comments = gh.state.comments.get(7) ?? [];
    expect(comments).toHaveLength(1);
    expect(comments[0].id).toBe(id);
    expect(gh.requests.some((r) => r.method === 'PATCH' && r.path.endsWith(`/issues/comments/${id}`))).toBe(
      true,
    );
    // nothing was applied by the previews
    expect(
      (await api.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/config-map-2`)).status,
    ).toBe(404);
  });

  it('still succeeds with a job summary when the token may not comment (fork pull request)', async () => {
    const before = (gh.state.comments.get(7) ?? []).map((c) => c.body);
    const run = await pr(7, shas.initial, shas.feature, 'feature', gh.readToken);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/::notice::PR comment skipped/);
    expect(run.summary).toContain('deploy/app');
    expect((gh.state.comments.get(7) ?? []).map((c) => c.body)).toEqual(before);
  });

  it('applies and prunes on the merge push, from a shallow clone that lacks the before commit', async () => {
    git(repo.work, 'merge', '-q', '--ff-only', 'feature');
    git(repo.work, 'push', '-q', 'origin', 'main');
    const ws = repo.shallowCheckout('main');
    expect(() => git(ws, 'cat-file', '-e', shas.initial)).toThrow();
    const run = await push(shas.initial, shas.feature, ws);
    expect(run.code, run.stdout).toBe(0);
    expect(JSON.parse(run.outputs.packages)).toEqual(['deploy/app']);
    expect(run.outputs.pruned).toBe('1');
    expect(run.outputs.created).toBe('1');
    expect(
      (await api.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/config-map-1`)).status,
    ).toBe(404);
    expect(
      (await api.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/config-map-2`)).status,
    ).toBe(200);
  });

  it('fails the step with an annotation at the file and line of a Deployment that stalls', async () => {
    const sha = repo.commit({
      // a comment first: the annotation names line 2
      'deploy/app/stuck.yaml': `# a deployment that never becomes ready\n${deploy('stuck', 'never-ready', { progressDeadlineSeconds: 3 })}`,
    });
    const run = await push(shas.feature, sha, repo.shallowCheckout('main'));
    shas.stuck = sha;
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /::error title=kpt-live-action%3A Deployment\/stuck failed,file=deploy\/app\/stuck.yaml,line=2::Deployment\/stuck: Failed: Progress deadline exceeded/,
    );
    expect(run.outputs.failed).toBe('1');
  });

  it('previews the removal of a package that the pull request deletes', async () => {
    git(repo.work, 'checkout', '-q', '-b', 'drop-other');
    const head = repo.commit({ 'deploy/other': null }, 'drop other');
    git(repo.work, 'checkout', '-q', 'main');
    gh.state.pulls.set(8, { base: shas.stuck, head });
    const run = await pr(8, shas.stuck, head, 'drop-other');
    expect(run.code, run.stdout).toBe(0);
    const result = JSON.parse(run.outputs.result);
    expect(result.packages).toHaveLength(1);
    expect(result.packages[0].path).toBe('deploy/other');
    expect(result.packages[0].summary.prune).toBe(1);
    expect(run.stdout).toMatch(/removed by this change: merging would prune 1 object/);
    const comment = (gh.state.comments.get(8) ?? [])[0];
    expect(comment.body).toContain('package=deploy/other');
    expect(comment.body).toContain('other-cm');
  });
});
