import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/common/kube-object.js';
import {
  configMap,
  deployment,
  inlinePackage,
  namespace,
  type Obj,
  useCluster,
} from '../support/harness/index.js';
import { actions, runPkg } from '../support/run.js';

const cm = (name: string, annotations: Record<string, string> = {}, namespace?: string) =>
  configMap(name, { k: 'v' }, { annotations, namespace });
/** `replicas` may be a string: a Deployment the server rejects. */
const web = (name: string, replicas: number | string, dependsOn?: string) =>
  deployment(name, { replicas, dependsOn });

describe('apply safety', () => {
  const cluster = useCluster({ namespace: 'safety', connect: true });
  const { api } = cluster;
  const getCm = async (name: string) =>
    api.request<Obj>('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/${name}`);

  it('changes nothing when the pre-flight dry-run rejects an object in the last wave', async () => {
    const pkg = inlinePackage(cluster.ns, {
      'first.yaml': cm('preflight-first'),
      'last.yaml': web('preflight-bad', 'three', `/namespaces/${cluster.ns}/ConfigMap/preflight-first`),
    });
    const { result, events } = await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns);
    expect(result.exitCode).toBe(1);
    expect(result.error).toMatch(
      /pre-flight server-side dry-run rejected 1 object\(s\); nothing was changed/,
    );
    expect(result.error).toMatch(/pkg\/last.yaml:1: Deployment\/preflight-bad/);
    expect(actions(events)).toEqual([]);
    expect((await getCm('preflight-first')).status).toBe(404);
    const rg = await api.request(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${cluster.ns}/resourcegroups/${pkg.inventory.name}`,
    );
    expect(rg.status).toBe(404);
  });

  it('with preflight off, behaves as kpt: earlier waves stay applied and the bad object fails', async () => {
    const pkg = inlinePackage(cluster.ns, {
      'first.yaml': cm('nopreflight-first'),
      'last.yaml': web('nopreflight-bad', 'three', `/namespaces/${cluster.ns}/ConfigMap/nopreflight-first`),
    });
    const { result, events } = await runPkg(cluster.conn, pkg, 'apply', { preflight: 'off' }, cluster.ns);
    expect(result.exitCode).toBe(3);
    expect(actions(events)).toEqual([
      'apply ConfigMap/nopreflight-first Successful created',
      'apply Deployment/nopreflight-bad Failed',
    ]);
    expect((await getCm('nopreflight-first')).status).toBe(200);
  });

  const firstWavePackage = (prefix: string) =>
    inlinePackage(cluster.ns, {
      'cm.yaml': cm(`${prefix}-cm`),
      // plan order within the wave is by kind, then name: -a is the Deployment the pre-flight samples
      'a.yaml': web(`${prefix}-a`, 1),
      'b.yaml': web(`${prefix}-b`, 'three'),
      'after.yaml': cm(`${prefix}-after`, {
        'config.kubernetes.io/depends-on': `apps/namespaces/${cluster.ns}/Deployment/${prefix}-b`,
      }),
    });

  it('preflight auto: a new first-wave object the server rejects fails by its own write, naming file and line', async () => {
    const pkg = firstWavePackage('auto');
    const { result, events } = await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns);
    expect(result.exitCode).toBe(3);
    expect(actions(events)).toEqual([
      'apply ConfigMap/auto-cm Successful created',
      'apply Deployment/auto-a Successful created',
      'apply Deployment/auto-b Failed',
      'apply ConfigMap/auto-after Skipped',
    ]);
    const failed = result.run?.objects.find((o) => o.id.name === 'auto-b');
    expect(failed?.message).toMatch(/replicas/);
    expect(failed?.source).toEqual({ file: 'pkg/b.yaml', line: 1 });
    // what depends on it is not applied; its valid siblings are, and are in the inventory
    expect((await getCm('auto-after')).status).toBe(404);
    expect((await getCm('auto-cm')).status).toBe(200);
    const rg = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${cluster.ns}/resourcegroups/${pkg.inventory.name}`,
    );
    expect(rg.body.spec.resources.map((r: Obj) => r.name).sort()).toEqual(['auto-a', 'auto-cm']);
  });

  it('preflight all: the same package changes nothing', async () => {
    const pkg = firstWavePackage('all');
    const { result, events } = await runPkg(cluster.conn, pkg, 'apply', { preflight: 'all' }, cluster.ns);
    expect(result.exitCode).toBe(1);
    expect(result.error).toMatch(
      /pre-flight server-side dry-run rejected 1 object\(s\); nothing was changed/,
    );
    expect(result.error).toMatch(/pkg\/b.yaml:1: Deployment\/all-b/);
    expect(actions(events)).toEqual([]);
    expect((await getCm('all-cm')).status).toBe(404);
  });

  it('never prunes what it must keep: keep/detach annotations, another inventory, a namespace in use', async () => {
    const other = inlinePackage(cluster.ns, { 'cm.yaml': cm('owned-by-other') });
    expect((await runPkg(cluster.conn, other, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);

    const ns2 = `${cluster.ns}-inner`;
    const pkg = inlinePackage(cluster.ns, {
      'keep.yaml': cm('keep-me', { 'cli-utils.sigs.k8s.io/on-remove': 'keep' }),
      'detach.yaml': cm('detach-me', { 'client.lifecycle.config.k8s.io/deletion': 'detach' }),
      'plain.yaml': cm('prune-me'),
      'ns.yaml': namespace(ns2),
      'inner.yaml': cm('inner', {}, ns2),
    });
    expect((await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);

    // the other package's object is claimed by this one: skipped, never overwritten
    pkg.rewrite({
      'inner.yaml': cm('inner', {}, ns2),
      'foreign.yaml': cm('owned-by-other'),
    });
    const second = await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns);
    expect(second.result.error).toBeUndefined();
    // the claimed object was not deployed, for a reason the user did not choose: the run fails
    expect(second.result.exitCode).toBe(3);
    const lines = actions(second.events);
    expect(lines).toContain('apply ConfigMap/owned-by-other Skipped');
    expect(lines).toContain('prune ConfigMap/prune-me Successful');
    expect(lines).toContain('prune ConfigMap/keep-me Skipped');
    expect(lines).toContain('prune ConfigMap/detach-me Skipped');
    expect(lines).toContain(`prune Namespace/${ns2} Skipped`);
    const skipReason = (name: string) =>
      second.events.find(
        (e) => (e.type === 'prune' || e.type === 'apply') && e.id.name === name && e.status === 'Skipped',
      );
    expect(JSON.stringify(skipReason('owned-by-other'))).toMatch(
      /inventory policy prevented actuation \(strategy: Apply, status: NoMatch/,
    );
    expect(JSON.stringify(skipReason(ns2))).toMatch(/namespace still in use/);
    // kept objects survive and are no longer ours; the other inventory still owns its object
    expect((await getCm('prune-me')).status).toBe(404);
    for (const name of ['keep-me', 'detach-me']) {
      const live = await getCm(name);
      expect(live.status).toBe(200);
      expect(live.body.metadata.annotations['config.k8s.io/owning-inventory']).toBeUndefined();
    }
    expect((await getCm('owned-by-other')).body.metadata.annotations['config.k8s.io/owning-inventory']).toBe(
      other.inventory.id,
    );
    expect((await api.request('GET', `/api/v1/namespaces/${ns2}`)).status).toBe(200);
    const rg = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${cluster.ns}/resourcegroups/${pkg.inventory.name}`,
    );
    const names = rg.body.spec.resources.map((r: Obj) => r.name).sort();
    expect(names).toEqual(['inner', ns2].sort());
  });

  it('refuses an empty package that would prune everything, unless allowed', async () => {
    const pkg = inlinePackage(cluster.ns, { 'a.yaml': cm('empty-a'), 'b.yaml': cm('empty-b') });
    expect((await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
    pkg.rewrite({});
    const refused = await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns);
    expect(refused.result.exitCode).toBe(1);
    expect(refused.result.error).toMatch(/would prune all 2 object\(s\).*allow-empty-prune/);
    expect((await getCm('empty-a')).status).toBe(200);
    const allowed = await runPkg(cluster.conn, pkg, 'apply', { allowEmptyPrune: true }, cluster.ns);
    expect(allowed.result.exitCode).toBe(0);
    expect((await getCm('empty-a')).status).toBe(404);
    expect((await getCm('empty-b')).status).toBe(404);
  });

  it('takes over an object applied client-side and removes a field dropped from the package', async () => {
    const lastApplied = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'csa', namespace: cluster.ns },
      data: { keep: '1', drop: '2' },
    };
    const created = await api.request(
      'POST',
      `/api/v1/namespaces/${cluster.ns}/configmaps?fieldManager=kubectl-client-side-apply`,
      {
        ...lastApplied,
        metadata: {
          ...lastApplied.metadata,
          annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(lastApplied) },
        },
      },
    );
    expect(created.status).toBe(201);
    const pkg = inlinePackage(cluster.ns, {
      'csa.yaml': configMap('csa', { keep: '1' }),
    });
    const run = await runPkg(cluster.conn, pkg, 'apply', { inventoryPolicy: 'adopt' }, cluster.ns);
    expect(run.result.error).toBeUndefined();
    const live = await getCm('csa');
    expect(live.body.data).toEqual({ keep: '1' });
    expect(
      live.body.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'],
    ).toBeUndefined();
    expect(live.body.metadata.managedFields.map((m: Obj) => m.manager)).not.toContain(
      'kubectl-client-side-apply',
    );
  });

  it('lets one of two concurrent applies of a package wait for the other; the inventory stays complete', async () => {
    const files: Record<string, KubeObject> = {};
    for (let i = 0; i < 20; i++) files[`cm${i}.yaml`] = cm(`race-${i}`);
    const pkg = inlinePackage(cluster.ns, files);
    const [a, b] = await Promise.all([
      runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns),
      runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns),
    ]);
    expect([a.result.exitCode, b.result.exitCode]).toEqual([0, 0]);
    const creates = [...actions(a.events), ...actions(b.events)].filter((l) => l.endsWith('created'));
    expect(creates).toHaveLength(20);
    const rg = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${cluster.ns}/resourcegroups/${pkg.inventory.name}`,
    );
    expect(rg.body.spec.resources).toHaveLength(20);
    const lease = await api.request(
      'GET',
      `/apis/coordination.k8s.io/v1/namespaces/${cluster.ns}/leases/kpt-live-action.${pkg.inventory.name}`,
    );
    expect(lease.status).toBe(404);
  });
});
