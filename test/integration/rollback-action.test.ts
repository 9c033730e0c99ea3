import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHistory } from '../../src/inventory/deploy-history.js';
import { adminClient, controlPlane, createNamespace, uniqueName } from '../support/cluster.js';
import { productClient } from '../support/engine.js';
import { createOriginAndClone, git } from '../support/git-repo.js';
import { type GitHubServer, startGitHubServer } from '../support/github-server.js';
import { getObject } from '../support/rollback.js';
import { runAction } from '../support/run-action.js';

const ZERO = '0'.repeat(40);

/**
 * The bundled action with `on-failure: rollback` on pushes to main, from shallow checkouts (the commit
 * rolled back to is fetched by SHA), against the real control plane and a local GitHub API: a manual
 * `mode: rollback`, a pull request whose preview says what a failure would do, and its merge, whose
 * apply fails, is rolled back, and says so on the merged pull request.
 */
describe('the action with on-failure: rollback', () => {
  const api = adminClient();
  let ns: string;
  let gh: GitHubServer;
  let repo: ReturnType<typeof createOriginAndClone>;
  let kubeconfig: string;
  const shas: Record<string, string> = {};
  const repository = { full_name: 'acme/platform', default_branch: 'main' };

  const rg = (name: string) =>
    `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${name}-id\n`;
  const cm = (name: string, color: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  color: ${color}\n`;
  const web = (image: string, behavior: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}, annotations: {sim.kpt-live-action.dev/behavior: ${behavior}}}
    spec: {containers: [{name: app, image: "${image}"}]}
`;
  const inputs = (extra: Record<string, string> = {}) => ({
    kubeconfig,
    'github-token': gh.writeToken,
    'reconcile-timeout': '60s',
    namespace: ns,
    'on-failure': 'rollback',
    ...extra,
  });
  const push = (before: string, after: string) =>
    runAction({
      event: 'push',
      payload: { ref: 'refs/heads/main', before, after, repository },
      inputs: inputs(),
      workspace: repo.shallowCheckout('main'),
      apiUrl: gh.url,
      sha: after,
      ref: 'refs/heads/main',
    });
  const dispatch = (extra: Record<string, string>) =>
    runAction({
      event: 'workflow_dispatch',
      payload: { ref: 'refs/heads/main', repository, inputs: {} },
      inputs: inputs({ mode: 'rollback', ...extra }),
      workspace: repo.shallowCheckout('main'),
      apiUrl: gh.url,
      sha: git(repo.work, 'rev-parse', 'main'),
      ref: 'refs/heads/main',
    });
  const color = async () => (await getObject(`/api/v1/namespaces/${ns}/configmaps/settings`))?.data.color;
  const image = async () =>
    (await getObject(`/apis/apps/v1/namespaces/${ns}/deployments/web`))?.spec.template.spec.containers[0]
      .image;

  const appInventory = uniqueName('app');
  beforeAll(async () => {
    ns = await createNamespace(api, 'rbaction');
    kubeconfig = fs.readFileSync(controlPlane().kubeconfigPath, 'utf8');
    repo = createOriginAndClone();
    shas.initial = repo.commit({
      'deploy/app/Kptfile': 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\n',
      'deploy/app/resourcegroup.yaml': rg(appInventory),
      'deploy/app/web.yaml': web('example/web:1', 'ready'),
      'deploy/app/settings.yaml': cm('settings', 'blue'),
    });
    gh = await startGitHubServer({ owner: 'acme', repo: 'platform', gitDir: repo.origin });
    const first = await push(ZERO, shas.initial);
    expect(first.code, first.stdout).toBe(0);
    shas.green = repo.commit({ 'deploy/app/settings.yaml': cm('settings', 'green') });
    const second = await push(shas.initial, shas.green);
    expect(second.code, second.stdout).toBe(0);
    expect(await color()).toBe('green');
  });
  afterAll(async () => {
    await gh?.close();
  });

  it('mode: rollback needs packages, then returns the named package to the deploy before the last', async () => {
    const bare = await dispatch({});
    expect(bare.code).toBe(1);
    expect(bare.stdout).toMatch(/::error::mode: rollback needs the packages input/);
    expect(await color()).toBe('green');

    const run = await dispatch({ packages: 'deploy/app' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs['rolled-back-to']).toBe(shas.initial);
    expect(await color()).toBe('blue');
    expect(run.stdout).toContain('Preview of deploy/app');
    expect(run.stdout).toContain('configmap/settings apply successful');
    expect(run.summary).toMatch(
      new RegExp(`#### ↩️ rolled back to \`${shas.initial.slice(0, 7)}\`, Current in `),
    );
    const result = JSON.parse(run.outputs.result).packages[0];
    expect(result).toMatchObject({
      mode: 'rollback',
      outcome: 'success',
      rollback: { status: 'rolled-back', to: shas.initial, of: shas.green, kept: [], pruned: [] },
    });
  });

  it('a pull request preview says which commit a failed apply would return to; its merge fails, is rolled back, and the merged pull request says so', async () => {
    git(repo.work, 'checkout', '-q', '-b', 'crash');
    shas.crash = repo.commit({
      'deploy/app/web.yaml': web('example/web:2', 'crashloop'),
      'deploy/app/extra.yaml': cm('extra', 'new'),
    });
    git(repo.work, 'checkout', '-q', 'main');
    gh.state.pulls.set(21, { base: shas.green, head: shas.crash });
    const preview = await runAction({
      event: 'pull_request',
      payload: {
        number: 21,
        pull_request: {
          number: 21,
          base: { sha: shas.green, ref: 'main', repo: { full_name: 'acme/platform' } },
          head: { sha: shas.crash, ref: 'crash', repo: { full_name: 'acme/platform' } },
        },
        repository,
      },
      inputs: inputs(),
      workspace: repo.shallowCheckout('crash'),
      apiUrl: gh.url,
      sha: shas.crash,
      ref: 'refs/pull/21/merge',
    });
    expect(preview.code, preview.stdout).toBe(0);
    const [comment] = gh.state.comments.get(21) ?? [];
    // the cluster runs the initial commit again (the manual rollback): a failure would return there
    const line = `on failure: rolls back to \`${shas.initial.slice(0, 7)}\``;
    expect(comment.body).toContain(line);
    const digest = comment.body.slice(comment.body.indexOf('<!-- kpt-live-action:plan'));
    expect(digest).not.toContain('on failure');

    git(repo.work, 'merge', '-q', '--ff-only', 'crash');
    git(repo.work, 'push', '-q', 'origin', 'main');
    gh.state.commitPulls.set(shas.crash, [{ number: 21, merged_at: '2026-02-01T00:00:00Z' }]);
    const run = await push(shas.green, shas.crash);
    expect(run.code).toBe(1);
    expect(run.outputs['rolled-back-to']).toBe(shas.initial);
    expect(run.stdout).toMatch(
      /::error title=kpt-live-action%3A Deployment\/web failed,file=deploy\/app\/web.yaml,line=1::Deployment\/web: Failed: new pods fail: /,
    );
    expect(run.stdout).toContain(
      `the apply of deploy/app failed: rolling back to ${shas.initial.slice(0, 7)}, its last successful deploy`,
    );
    expect(run.stdout).toMatch(
      new RegExp(
        `::warning title=kpt-live-action%3A deploy/app rolled back::rolled back to ${shas.initial.slice(0, 7)}, Current in [\\d.]+m?s; added by the failed deploy, kept: ConfigMap/extra`,
      ),
    );
    // the step's failure names both
    expect(run.stdout).toMatch(
      new RegExp(
        `::error::deploy/app: Deployment/web failed: .*; rolled back to ${shas.initial.slice(0, 7)}`,
      ),
    );
    expect(run.summary).toContain('❌ `deploy/app`: `Deployment/web` Failed');
    expect(run.summary).toMatch(
      new RegExp(
        `#### ↩️ rolled back to \`${shas.initial.slice(0, 7)}\`, Current in [\\d.]+m?s; added by the failed deploy, kept: \`ConfigMap/extra\``,
      ),
    );
    const result = JSON.parse(run.outputs.result).packages[0];
    expect(result.outcome).toBe('failed');
    expect(result.rollback).toMatchObject({
      status: 'rolled-back',
      to: shas.initial,
      of: shas.crash,
      kept: ['ConfigMap/extra'],
    });
    expect(result.rollback.summary).toMatchObject({ configured: 2 });

    const body = (gh.state.comments.get(21) ?? [])[0].body;
    expect(body).toContain('### Applied · `deploy/app` · ❌ applied with failures');
    expect(body).toMatch(/- ❌ `Deployment\/web`: Failed: new pods fail: /);
    expect(body).toMatch(
      new RegExp(
        `↩️ rolled back to \`${shas.initial.slice(0, 7)}\`, Current in [\\d.]+m?s; added by the failed deploy, kept: \`ConfigMap/extra\``,
      ),
    );
    expect(await image()).toBe('example/web:1');
    expect(await color()).toBe('blue');

    // recorded as a rollback of the crash commit, with the tree it applied: catch-up reads it as what the
    // cluster runs, and holds the failed tree on the next push instead of applying it again
    const conn = await productClient();
    try {
      const inventory = { name: appInventory, namespace: ns, id: `${appInventory}-id` };
      const [rolled, crashed] = await readHistory(conn.client, inventory);
      const initial = (await readHistory(conn.client, inventory)).at(-1)!;
      expect(rolled).toMatchObject({
        mode: 'rollback',
        commit: shas.initial,
        result: 'success',
        rollback: { of: shas.crash },
      });
      expect(initial).toMatchObject({ mode: 'apply', commit: shas.initial });
      expect(rolled.tree).toBeDefined();
      expect(rolled.tree).toBe(initial.tree);
      expect(crashed).toMatchObject({ mode: 'apply', commit: shas.crash, result: 'failed' });
      expect(crashed.tree).not.toBe(initial.tree);
    } finally {
      conn.client.close();
    }
    const readme = repo.commit({ 'README.md': '# platform\n' });
    const next = await push(shas.crash, readme);
    expect(next.code, next.stdout).toBe(0);
    expect(next.summary).toMatch(
      new RegExp(
        `\`deploy/app\`: tree of ${shas.crash.slice(0, 7)} failed and was rolled back; not retried until deploy/app changes`,
      ),
    );
    expect(await image()).toBe('example/web:1');
  });
});
