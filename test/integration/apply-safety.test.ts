import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../src/kube/connect.js';
import { adminClient, createNamespace } from '../support/cluster.js';
import { productClient } from '../support/engine.js';
import { inlinePackage } from '../support/packages.js';
import { actions, runPkg } from '../support/run.js';

// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from the API server
type Obj = Record<string, any>;

const cm = (name: string, annotations: Record<string, string> = {}, extra = '') => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  annotations: ${JSON.stringify(annotations)}
data: {k: v}
${extra}`;

const deployment = (name: string, replicas: string, dependsOn?: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
${dependsOn ? `  annotations: {config.kubernetes.io/depends-on: ${dependsOn}}\n` : ''}spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: x, image: x}]}
`;

describe('apply safety', () => {
  let conn: Connection;
  const api = adminClient();
  let ns: string;
  beforeAll(async () => {
    conn = await productClient();
    ns = await createNamespace(api, 'safety');
  });
  afterAll(() => conn.client.close());
  const getCm = async (name: string) =>
    api.request<Obj>('GET', `/api/v1/namespaces/${ns}/configmaps/${name}`);

  it('changes nothing when the pre-flight dry-run rejects an object in the last wave', async () => {
    const pkg = inlinePackage(ns, {
      'first.yaml': cm('preflight-first'),
      'last.yaml': deployment('preflight-bad', '"three"', `/namespaces/${ns}/ConfigMap/preflight-first`),
    });
    const { result, events } = await runPkg(conn, pkg, 'apply', {}, ns);
    expect(result.exitCode).toBe(1);
    expect(result.error).toMatch(
      /pre-flight server-side dry-run rejected 1 object\(s\); nothing was changed/,
    );
    expect(result.error).toMatch(/pkg\/last.yaml:1: Deployment\/preflight-bad/);
    expect(actions(events)).toEqual([]);
    expect((await getCm('preflight-first')).status).toBe(404);
    const rg = await api.request(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${pkg.inventory.name}`,
    );
    expect(rg.status).toBe(404);
  });

  it('with preflight off, behaves as kpt: earlier waves stay applied and the bad object fails', async () => {
    const pkg = inlinePackage(ns, {
      'first.yaml': cm('nopreflight-first'),
      'last.yaml': deployment('nopreflight-bad', '"three"', `/namespaces/${ns}/ConfigMap/nopreflight-first`),
    });
    const { result, events } = await runPkg(conn, pkg, 'apply', { preflight: 'off' }, ns);
    expect(result.exitCode).toBe(3);
    expect(actions(events)).toEqual([
      'apply ConfigMap/nopreflight-first Successful created',
      'apply Deployment/nopreflight-bad Failed',
    ]);
    expect((await getCm('nopreflight-first')).status).toBe(200);
  });

  const firstWavePackage = (prefix: string) =>
    inlinePackage(ns, {
      'cm.yaml': cm(`${prefix}-cm`),
      // plan order within the wave is by kind, then name: -a is the Deployment the pre-flight samples
      'a.yaml': deployment(`${prefix}-a`, '1'),
      'b.yaml': deployment(`${prefix}-b`, '"three"'),
      'after.yaml': cm(`${prefix}-after`, {
        'config.kubernetes.io/depends-on': `apps/namespaces/${ns}/Deployment/${prefix}-b`,
      }),
    });

  it('preflight auto: a new first-wave object the server rejects fails by its own write, naming file and line', async () => {
    const pkg = firstWavePackage('auto');
    const { result, events } = await runPkg(conn, pkg, 'apply', {}, ns);
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
      `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${pkg.inventory.name}`,
    );
    expect(rg.body.spec.resources.map((r: Obj) => r.name).sort()).toEqual(['auto-a', 'auto-cm']);
  });

  it('preflight all: the same package changes nothing', async () => {
    const pkg = firstWavePackage('all');
    const { result, events } = await runPkg(conn, pkg, 'apply', { preflight: 'all' }, ns);
    expect(result.exitCode).toBe(1);
    expect(result.error).toMatch(
      /pre-flight server-side dry-run rejected 1 object\(s\); nothing was changed/,
    );
    expect(result.error).toMatch(/pkg\/b.yaml:1: Deployment\/all-b/);
    expect(actions(events)).toEqual([]);
    expect((await getCm('all-cm')).status).toBe(404);
  });

  it('never prunes what it must keep: keep/detach annotations, another inventory, a namespace in use', async () => {
    const other = inlinePackage(ns, { 'cm.yaml': cm('owned-by-other') });
    expect((await runPkg(conn, other, 'apply', {}, ns)).result.exitCode).toBe(0);

    const ns2 = `${ns}-inner`;
    const pkg = inlinePackage(ns, {
      'keep.yaml': cm('keep-me', { 'cli-utils.sigs.k8s.io/on-remove': 'keep' }),
      'detach.yaml': cm('detach-me', { 'client.lifecycle.config.k8s.io/deletion': 'detach' }),
      'plain.yaml': cm('prune-me'),
      'ns.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${ns2}}\n`,
      'inner.yaml': `${cm('inner')}`.replace('metadata:\n', `metadata:\n  namespace: ${ns2}\n`),
    });
    expect((await runPkg(conn, pkg, 'apply', {}, ns)).result.exitCode).toBe(0);

    // the other package's object is claimed by this one: skipped, never overwritten
    pkg.rewrite({
      'inner.yaml': `${cm('inner')}`.replace('metadata:\n', `metadata:\n  namespace: ${ns2}\n`),
      'foreign.yaml': cm('owned-by-other'),
    });
    const second = await runPkg(conn, pkg, 'apply', {}, ns);
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
      `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${pkg.inventory.name}`,
    );
    const names = rg.body.spec.resources.map((r: Obj) => r.name).sort();
    expect(names).toEqual(['inner', ns2].sort());
  });

  it('refuses an empty package that would prune everything, unless allowed', async () => {
    const pkg = inlinePackage(ns, { 'a.yaml': cm('empty-a'), 'b.yaml': cm('empty-b') });
    expect((await runPkg(conn, pkg, 'apply', {}, ns)).result.exitCode).toBe(0);
    pkg.rewrite({});
    const refused = await runPkg(conn, pkg, 'apply', {}, ns);
    expect(refused.result.exitCode).toBe(1);
    expect(refused.result.error).toMatch(/would prune all 2 object\(s\).*allow-empty-prune/);
    expect((await getCm('empty-a')).status).toBe(200);
    const allowed = await runPkg(conn, pkg, 'apply', { allowEmptyPrune: true }, ns);
    expect(allowed.result.exitCode).toBe(0);
    expect((await getCm('empty-a')).status).toBe(404);
    expect((await getCm('empty-b')).status).toBe(404);
  });

  it('takes over an object applied client-side and removes a field dropped from the package', async () => {
    const lastApplied = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'csa', namespace: ns },
      data: { keep: '1', drop: '2' },
    };
    const created = await api.request(
      'POST',
      `/api/v1/namespaces/${ns}/configmaps?fieldManager=kubectl-client-side-apply`,
      {
        ...lastApplied,
        metadata: {
          ...lastApplied.metadata,
          annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(lastApplied) },
        },
      },
    );
    expect(created.status).toBe(201);
    const pkg = inlinePackage(ns, {
      'csa.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: csa}\ndata: {keep: "1"}\n',
    });
    const run = await runPkg(conn, pkg, 'apply', { inventoryPolicy: 'adopt' }, ns);
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
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`cm${i}.yaml`] = cm(`race-${i}`);
    const pkg = inlinePackage(ns, files);
    const [a, b] = await Promise.all([
      runPkg(conn, pkg, 'apply', {}, ns),
      runPkg(conn, pkg, 'apply', {}, ns),
    ]);
    expect([a.result.exitCode, b.result.exitCode]).toEqual([0, 0]);
    const creates = [...actions(a.events), ...actions(b.events)].filter((l) => l.endsWith('created'));
    expect(creates).toHaveLength(20);
    const rg = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${pkg.inventory.name}`,
    );
    expect(rg.body.spec.resources).toHaveLength(20);
    const lease = await api.request(
      'GET',
      `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/kpt-live-action.${pkg.inventory.name}`,
    );
    expect(lease.status).toBe(404);
  });
});
