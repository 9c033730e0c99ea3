import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortName } from '../../src/common/object-id.js';
import type { Connection } from '../../src/kube/connect.js';
import { rollbackLine } from '../../src/report/rollback-words.js';
import { adminClient, createNamespace } from '../support/cluster.js';
import { productClient } from '../support/engine.js';
import { git } from '../support/git-repo.js';
import { applyAt, getObject, gitPackage, historyOf, inventoryNames } from '../support/rollback.js';

// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from the API server
type Obj = Record<string, any>;

/**
 * `on-failure: rollback` on the real server, from failures the kubelet simulator produces: the failed
 * apply is followed, under the same lock, by an apply of the package as its last successful deploy had it
 * (read back from git), and both are recorded.
 */
const deployment = (
  name: string,
  o: { image?: string; behavior?: string; replicas?: number; deadline?: number } = {},
) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: ${o.replicas ?? 2}
${o.deadline ? `  progressDeadlineSeconds: ${o.deadline}\n` : ''}  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata:
      labels: {app: ${name}}
      annotations: {sim.kpt-live-action.dev/behavior: ${o.behavior ?? 'ready'}}
    spec: {containers: [{name: app, image: "${o.image ?? 'example/app:1'}"}]}
`;
const configMap = (name: string, data: Record<string, string>, annotations: Record<string, string> = {}) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  annotations: ${JSON.stringify(annotations)}\ndata: ${JSON.stringify(data)}\n`;
const claim = (name: string) =>
  `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: ${name}}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n`;
const keep = { 'cli-utils.sigs.k8s.io/on-remove': 'keep' };
const rollback = { rollback: true, prune: false };

describe('on-failure: rollback', () => {
  let conn: Connection;
  const api = adminClient();
  beforeAll(async () => {
    conn = await productClient();
  });
  afterAll(() => conn.client.close());

  /** The Deployment's ReplicaSet of its current revision. */
  async function currentReplicaSet(ns: string, name: string): Promise<Obj> {
    const dep = await getObject(`/apis/apps/v1/namespaces/${ns}/deployments/${name}`);
    const revision = dep!.metadata.annotations['deployment.kubernetes.io/revision'];
    const list = await api.request<Obj>(
      'GET',
      `/apis/apps/v1/namespaces/${ns}/replicasets?labelSelector=app%3D${name}`,
    );
    return list.body.items.find(
      (rs: Obj) => rs.metadata.annotations['deployment.kubernetes.io/revision'] === revision,
    );
  }

  it('rolls a crash-looping rollout back to the last successful commit: the old ReplicaSet serves again, what the failed deploy added is kept, listed and still in the inventory', async () => {
    const ns = await createNamespace(api, 'rb-crash');
    const pkg = gitPackage(ns, { 'web.yaml': deployment('web'), 'base.yaml': configMap('base', { v: '1' }) });
    const good = pkg.first;
    expect((await applyAt(conn, pkg, good, { namespace: ns })).result.exitCode).toBe(0);
    const servingRs = (await currentReplicaSet(ns, 'web')).metadata.name;

    const bad = pkg.commit({
      'web.yaml': deployment('web', { image: 'example/app:2', behavior: 'crashloop' }),
      'base.yaml': configMap('base', { v: '2' }),
      'extra.yaml': configMap('extra', { new: 'yes' }),
      'data.yaml': claim('data'),
      'keeper.yaml': configMap('keeper', { new: 'yes' }, keep),
    });
    const { result, rollbackEvents, rollbackTo } = await applyAt(conn, pkg, bad, {
      namespace: ns,
      onFailure: rollback,
    });
    // the deploy failed, fast and with the pod's reason, and says so
    expect(result.outcome).toBe('failed');
    expect(result.exitCode).toBe(3);
    const web = result.run!.objects.find((o) => o.id.name === 'web')!;
    expect(web.reconcile).toBe('Failed');
    expect(web.message).toMatch(/new pods fail: \S+ container app CrashLoopBackOff/);
    // then the package as of the good commit was applied, under the same lock, and is Current
    const rb = result.rollback!;
    expect(rb.status, rb.reason).toBe('rolled-back');
    expect(rb.to).toBe(good);
    expect(rb.of).toBe(bad);
    expect(rollbackTo).toBe(good);
    expect(rb.run!.outcome).toBe('success');
    expect(
      rollbackEvents.some((e) => e.type === 'apply' && e.id.name === 'web' && e.operation === 'configured'),
    ).toBe(true);
    expect(rb.kept.map(shortName).sort()).toEqual([
      'ConfigMap/extra',
      'ConfigMap/keeper',
      'PersistentVolumeClaim/data',
    ]);
    expect(rb.pruned).toEqual([]);
    expect(rollbackLine(rb, { automatic: true, package: 'pkg' })).toMatch(
      new RegExp(
        `^rolled back to ${good.slice(0, 7)}, Current in [\\d.]+m?s; added by the failed deploy, kept: ConfigMap/extra, ConfigMap/keeper, PersistentVolumeClaim/data$`,
      ),
    );
    // the cluster: the old template, served by the old ReplicaSet, and the kept objects still there and tracked
    const dep = await getObject(`/apis/apps/v1/namespaces/${ns}/deployments/web`);
    expect(dep!.spec.template.spec.containers[0].image).toBe('example/app:1');
    expect(dep!.status.readyReplicas).toBe(2);
    expect((await currentReplicaSet(ns, 'web')).metadata.name).toBe(servingRs);
    expect((await getObject(`/api/v1/namespaces/${ns}/configmaps/base`))!.data).toEqual({ v: '1' });
    expect(await getObject(`/api/v1/namespaces/${ns}/configmaps/extra`)).toBeDefined();
    expect(await getObject(`/api/v1/namespaces/${ns}/persistentvolumeclaims/data`)).toBeDefined();
    expect(await inventoryNames(pkg.inventory)).toEqual([
      'ConfigMap/base',
      'ConfigMap/extra',
      'ConfigMap/keeper',
      'Deployment/web',
      'PersistentVolumeClaim/data',
    ]);
    // both recorded: the failed apply of the bad commit, then the rollback to the good one
    const [rolled, failed, first] = await historyOf(conn, pkg.inventory);
    expect(failed).toMatchObject({ mode: 'apply', commit: bad, result: 'failed' });
    expect(failed.failed.some((f) => f.startsWith('Deployment/web: '))).toBe(true);
    expect(failed.inventory).toEqual(pkg.inventory);
    expect(failed.options).toMatchObject({ fieldManager: 'kpt-live-action', reconcileTimeoutMs: 60_000 });
    expect(rolled).toMatchObject({
      mode: 'rollback',
      commit: good,
      result: 'success',
      rollback: {
        of: bad,
        to: good,
        kept: ['ConfigMap/extra', 'ConfigMap/keeper', 'PersistentVolumeClaim/data'],
      },
    });
    expect(rolled.objects).toContain('Deployment/web configured Successful');
    expect(first).toMatchObject({ commit: good, result: 'success' });

    // a later apply of the good commit prunes what the failed deploy added (on-remove: keep aside)
    const again = await applyAt(
      conn,
      pkg,
      pkg.commit({ 'web.yaml': deployment('web'), 'base.yaml': configMap('base', { v: '1' }) }),
      {
        namespace: ns,
      },
    );
    expect(again.result.exitCode).toBe(0);
    expect(await getObject(`/api/v1/namespaces/${ns}/configmaps/extra`)).toBeUndefined();
    expect(await getObject(`/api/v1/namespaces/${ns}/configmaps/keeper`)).toBeDefined();
  });

  it('with rollback-prune, prunes what the failed deploy added after a rollout past its progress deadline, but never an object marked on-remove: keep', async () => {
    const ns = await createNamespace(api, 'rb-deadline');
    const pkg = gitPackage(ns, { 'api.yaml': deployment('api', { replicas: 1 }) });
    expect((await applyAt(conn, pkg, pkg.first, { namespace: ns })).result.exitCode).toBe(0);
    const bad = pkg.commit({
      'api.yaml': deployment('api', {
        replicas: 1,
        image: 'example/app:2',
        behavior: 'never-ready',
        deadline: 3,
      }),
      'extra.yaml': configMap('extra', { new: 'yes' }),
      'data.yaml': claim('data'),
      'keeper.yaml': configMap('keeper', { new: 'yes' }, keep),
    });
    const { result } = await applyAt(conn, pkg, bad, {
      namespace: ns,
      onFailure: { rollback: true, prune: true },
    });
    expect(result.exitCode).toBe(3);
    expect(result.run!.objects.find((o) => o.id.name === 'api')!.message).toBe(
      'Failed: Progress deadline exceeded',
    );
    const rb = result.rollback!;
    expect(rb.status, JSON.stringify(rb.run?.objects)).toBe('rolled-back');
    expect(rb.pruned.map(shortName).sort()).toEqual(['ConfigMap/extra', 'PersistentVolumeClaim/data']);
    expect(rb.kept.map(shortName)).toEqual(['ConfigMap/keeper']);
    expect(rb.run!.objects.find((o) => o.id.name === 'keeper')!.action).toBe('abandoned');
    expect(await getObject(`/api/v1/namespaces/${ns}/configmaps/extra`)).toBeUndefined();
    expect(await getObject(`/api/v1/namespaces/${ns}/configmaps/keeper`)).toBeDefined();
    const dep = await getObject(`/apis/apps/v1/namespaces/${ns}/deployments/api`);
    expect(dep!.spec.template.spec.containers[0].image).toBe('example/app:1');
    expect(dep!.spec.progressDeadlineSeconds).toBe(600);
    expect(await inventoryNames(pkg.inventory)).toEqual(['Deployment/api']);
  });

  it('does not roll back an apply refused before its first write; with preflight off the rejected later wave is a real mid-deploy failure, rolled back', async () => {
    const ns = await createNamespace(api, 'rb-reject');
    const settings = (color: string) => configMap('settings', { color });
    const badService = `apiVersion: v1
kind: Service
metadata:
  name: broken
  annotations: {config.kubernetes.io/depends-on: /namespaces/${ns}/ConfigMap/settings}
spec: {selector: {app: x}, ports: [{port: 99999}]}
`;
    const pkg = gitPackage(ns, { 'settings.yaml': settings('blue') });
    expect((await applyAt(conn, pkg, pkg.first, { namespace: ns })).result.exitCode).toBe(0);
    const bad = pkg.commit({ 'settings.yaml': settings('red'), 'broken.yaml': badService });

    const refused = await applyAt(conn, pkg, bad, { namespace: ns, onFailure: rollback });
    expect(refused.result.outcome).toBe('error');
    expect(refused.result.exitCode).toBe(1);
    expect(refused.result.error).toMatch(/Service\/broken/);
    expect(refused.result.rollback).toMatchObject({ status: 'skipped' });
    expect(refused.result.rollback!.reason).toMatch(/refused before its first write: nothing was changed/);
    expect(refused.rollbackEvents).toEqual([]);
    expect((await getObject(`/api/v1/namespaces/${ns}/configmaps/settings`))!.data).toEqual({
      color: 'blue',
    });
    expect(await historyOf(conn, pkg.inventory)).toHaveLength(1);

    const midway = await applyAt(conn, pkg, bad, {
      namespace: ns,
      onFailure: rollback,
      options: { preflight: 'off' },
    });
    expect(midway.result.exitCode).toBe(3);
    const broken = midway.result.run!.objects.find((o) => o.id.name === 'broken')!;
    expect(broken.action).toBe('failed');
    expect(
      midway.events.some(
        (e) => e.type === 'apply' && e.id.name === 'settings' && e.operation === 'configured',
      ),
    ).toBe(true);
    expect(midway.result.rollback).toMatchObject({ status: 'rolled-back', to: pkg.first, kept: [] });
    expect((await getObject(`/api/v1/namespaces/${ns}/configmaps/settings`))!.data).toEqual({
      color: 'blue',
    });
    expect(await getObject(`/api/v1/namespaces/${ns}/services/broken`)).toBeUndefined();
    expect(
      (await historyOf(conn, pkg.inventory)).map(
        (r) =>
          `${r.mode} ${r.commit === bad ? 'bad' : 'good'} ${r.result}${r.rollback ? ` of ${r.rollback.of === bad ? 'bad' : '?'}` : ''}`,
      ),
    ).toEqual(['rollback good success of bad', 'apply bad failed', 'apply good success']);
  });

  it('does not roll back a first deploy, and says what it left and how to remove it', async () => {
    const ns = await createNamespace(api, 'rb-first');
    const pkg = gitPackage(ns, {
      'web.yaml': deployment('web', { replicas: 1, behavior: 'invalid-image', image: 'Example/App:1' }),
      'cm.yaml': configMap('cm', { v: '1' }),
    });
    const { result, rollbackEvents } = await applyAt(conn, pkg, pkg.first, {
      namespace: ns,
      onFailure: rollback,
    });
    expect(result.exitCode).toBe(3);
    const rb = result.rollback!;
    expect(rb.status).toBe('skipped');
    expect(rb.left!.map(shortName).sort()).toEqual(['ConfigMap/cm', 'Deployment/web']);
    expect(rollbackEvents).toEqual([]);
    expect(rollbackLine(rb, { automatic: true, package: 'pkg' })).toBe(
      "not rolled back: this was the package's first deploy: its deploy history has no earlier successful one to return to; left in the cluster: ConfigMap/cm, Deployment/web (remove them with kpt-live destroy pkg, or the action's mode: destroy)",
    );
    expect(await getObject(`/apis/apps/v1/namespaces/${ns}/deployments/web`)).toBeDefined();
  });

  it('reports a rollback whose commit git cannot provide (rewritten history), and changes nothing more', async () => {
    const ns = await createNamespace(api, 'rb-gone');
    const pkg = gitPackage(ns, { 'cm.yaml': configMap('cm', { v: '1' }) });
    const good = pkg.first;
    expect((await applyAt(conn, pkg, good, { namespace: ns })).result.exitCode).toBe(0);
    // the good commit is amended away and collected: no branch, reflog or remote has it any more
    pkg.rewrite({
      'cm.yaml': configMap('cm', { v: '2' }),
      'web.yaml': deployment('web', { replicas: 1, behavior: 'invalid-image', image: 'Example/App:1' }),
    });
    git(pkg.repo, 'add', '-A');
    git(pkg.repo, 'commit', '-q', '--amend', '-m', 'rewritten');
    git(pkg.repo, 'reflog', 'expire', '--expire=now', '--all');
    git(pkg.repo, 'gc', '-q', '--prune=now');
    const bad = git(pkg.repo, 'rev-parse', 'HEAD');
    expect(() => git(pkg.repo, 'cat-file', '-e', `${good}^{commit}`)).toThrow();

    const { result, rollbackEvents } = await applyAt(conn, pkg, bad, { namespace: ns, onFailure: rollback });
    expect(result.exitCode).toBe(3);
    const rb = result.rollback!;
    expect(rb.status).toBe('failed');
    expect(rb.to).toBe(good);
    expect(rb.run).toBeUndefined();
    expect(rb.reason).toContain(
      `commit ${good.slice(0, 7)} is not in this checkout and could not be fetched`,
    );
    expect(rollbackLine(rb, { automatic: true, package: 'pkg' })).toMatch(
      new RegExp(
        `^rollback to ${good.slice(0, 7)} failed: commit ${good.slice(0, 7)} is not in this checkout .*; nothing was changed by the rollback$`,
      ),
    );
    expect(rollbackEvents).toEqual([]);
    // what the failed deploy did stays; only its record is added
    expect((await getObject(`/api/v1/namespaces/${ns}/configmaps/cm`))!.data).toEqual({ v: '2' });
    expect((await historyOf(conn, pkg.inventory)).map((r) => `${r.commit?.slice(0, 7)} ${r.result}`)).toEqual(
      [`${bad.slice(0, 7)} failed`, `${good.slice(0, 7)} success`],
    );
  });
});
