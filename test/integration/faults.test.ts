import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/common/kube-object.js';
import { carries } from '../../src/kube/ambiguous-write.js';
import { type Connection, connect } from '../../src/kube/connect.js';
import { AllFaults, type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import {
  configMap,
  controlPlane,
  deployment,
  namespace,
  type Obj,
  role,
  secret,
  service,
  useCluster,
  yamlOf,
} from '../support/harness/index.js';
import { runPkg } from '../support/run.js';

/**
 * Apply, prune and destroy through a proxy that fails 20% of the requests (seeded: 429 + Retry-After,
 * 500, 503, resets before and after the server acted, slow answers) and cuts every watch after a while.
 * Each must still end in the right state: the cluster equals the package, the inventory lists exactly it,
 * and nothing else was deleted. Replay a failure with KPT_LIVE_FAULT_SEED=<seed from the test name>;
 * run more seeds with KPT_LIVE_FAULT_TRIALS=<n>.
 */
const trials = Number(process.env.KPT_LIVE_FAULT_TRIALS ?? 2);
const seeds = process.env.KPT_LIVE_FAULT_SEED
  ? process.env.KPT_LIVE_FAULT_SEED.split(',').map(Number)
  : Array.from({ length: trials }, (_, i) => 1001 + i);
const rate = Number(process.env.KPT_LIVE_FAULT_RATE ?? 0.2);

const owning = 'config.k8s.io/owning-inventory';
const cm = (name: string, value: string, dependsOn?: string) => configMap(name, { value }, { dependsOn });
const web = (image: string, ns: string) =>
  deployment('web', {
    image,
    replicas: 2,
    dependsOn: `/namespaces/${ns}/ConfigMap/base`,
    // pods turn Ready 3 s late: the wait's watch stays open across the proxy's watch drops (0.5-3 s);
    // the other objects are Current as applied and need no watch
    podAnnotations: { 'sim.kpt-live-action.dev/delay': '3s' },
  });
const webService = service('web', { targetPort: 8080 });
const creds = secret('creds', { password: 'not-a-real-password' });
const reader = role('reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]);

const plural: Record<string, string> = {
  ConfigMap: 'configmaps',
  Secret: 'secrets',
  Service: 'services',
  Deployment: 'deployments',
  Role: 'roles',
};
const collection = (ns: string, kind: string) =>
  kind === 'Deployment'
    ? `/apis/apps/v1/namespaces/${ns}/deployments`
    : kind === 'Role'
      ? `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`
      : `/api/v1/namespaces/${ns}/${plural[kind]}`;

/** A package directory with a fixed inventory name (request paths, hence faults, depend only on the seed). */
function writePackage(dir: string, ns: string, inv: string, files: Record<string, KubeObject>) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'Kptfile'),
    'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n',
  );
  fs.writeFileSync(
    path.join(dir, 'resourcegroup.yaml'),
    `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: ${inv}\n  namespace: ${ns}\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${inv}-id\n`,
  );
  for (const [f, obj] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), yamlOf(obj));
  return Object.values(files).map((o) => structuredClone(o) as Obj);
}

describe('faults from the API server (fault-injecting proxy)', () => {
  const cluster = useCluster({ namespace: false });
  const { api } = cluster;
  let proxy: FaultProxy | undefined;
  let conn: Connection | undefined;
  afterAll(async () => {
    conn?.client.close();
    await proxy?.close();
  });
  beforeAll(async () => {
    // the kind the inventory needs exists before the first faulted run (installing it is not under test here)
    const probe = await connect({ kubeconfigPath: controlPlane().kubeconfigPath });
    const { ensureResourceGroupCrd } = await import('../../src/inventory/install-crd.js');
    await ensureResourceGroupCrd(probe.client, { install: true });
    probe.client.close();
  });

  for (const seed of seeds) {
    it(`apply, prune and destroy end in the right state with ${rate * 100}% of requests failing (seed ${seed})`, async () => {
      const ns = `faults-s${seed}`;
      const inv = `faults-s${seed}`;
      expect((await api.request('POST', '/api/v1/namespaces', namespace(ns))).status).toBe(201);
      await api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, configMap('not-ours', { keep: 'me' }));
      proxy = await startFaultProxy({
        target: controlPlane().server,
        seed,
        rate,
        kinds: AllFaults,
        slowMs: [200, 1200],
        watchDropMs: [500, 3000],
      });
      conn = await connect({
        kubeconfigPath: proxy.kubeconfig(controlPlane().adminToken, { namespace: ns }),
      });
      const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-faults-'));
      const dir = path.join(repo, 'pkg');
      const base = `/namespaces/${ns}/ConfigMap/base`;
      const files: Record<string, KubeObject> = {
        'base.yaml': cm('base', 'v1'),
        'web.yaml': web('example/web:1', ns),
        'service.yaml': webService,
        'secret.yaml': creds,
        'role.yaml': reader,
      };
      for (let i = 0; i < 8; i++) files[`cm-${i}.yaml`] = cm(`cm-${i}`, `v1-${i}`, i % 2 ? base : undefined);
      // leaves the package with on-remove: keep: abandoned (a JSON patch removes our annotation), never deleted
      files['kept.yaml'] = configMap(
        'kept',
        { v: '1' },
        { annotations: { 'cli-utils.sigs.k8s.io/on-remove': 'keep' } },
      );
      const timings: Record<string, number> = {};
      const deletes = () =>
        proxy!.records.filter((r) => r.method === 'DELETE' && r.forwarded).map((r) => r.path.split('?')[0]);

      const step = async (name: string, mode: 'apply' | 'destroy', objects: Obj[]) => {
        const start = Date.now();
        const before = deletes().length;
        const run = await runPkg(conn!, { repo, rel: 'pkg' }, mode, { lockLeaseSeconds: 30 }, ns);
        timings[name] = Date.now() - start;
        const errors = run.events.flatMap((e) => ('error' in e && e.error ? [`${e.type}: ${e.error}`] : []));
        expect(run.result.error, errors.join('\n')).toBeUndefined();
        expect(run.result.exitCode, errors.join('\n')).toBe(0);
        await expectClusterEquals(ns, inv, objects, mode === 'destroy');
        // the lock is released (a lost answer to its DELETE or renewal must not leave it behind)
        const lease = await api.request(
          'GET',
          `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/kpt-live-action.${inv}`,
        );
        expect(lease.status).toBe(404);
        return deletes().slice(before);
      };

      const applied = writePackage(dir, ns, inv, files);
      const firstDeletes = await step('apply', 'apply', applied);
      expect(firstDeletes.filter((p) => !p.includes('/leases/'))).toEqual([]);

      // prune: drop half the ConfigMaps and the Secret, change a value and the image
      for (let i = 4; i < 8; i++) delete files[`cm-${i}.yaml`];
      delete files['secret.yaml'];
      delete files['kept.yaml'];
      files['cm-0.yaml'] = cm('cm-0', 'v2-0');
      files['web.yaml'] = web('example/web:2', ns);
      const kept = writePackage(dir, ns, inv, files);
      const pruneDeletes = await step('prune', 'apply', kept);
      const pruned = [
        ...[4, 5, 6, 7].map((i) => `/api/v1/namespaces/${ns}/configmaps/cm-${i}`),
        `/api/v1/namespaces/${ns}/secrets/creds`,
      ];
      expect(new Set(pruneDeletes.filter((p) => !p.includes('/leases/')))).toEqual(new Set(pruned));

      const destroyDeletes = await step('destroy', 'destroy', kept);
      const allowed = new Set(kept.map((o) => `${collection(ns, o.kind)}/${o.metadata.name}`));
      allowed.add(`/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${inv}`);
      for (const p of destroyDeletes.filter((x) => !x.includes('/leases/'))) expect(allowed).toContain(p);

      const counts = proxy.counts();
      console.info(`seed ${seed}: ${JSON.stringify(counts)}; ms ${JSON.stringify(timings)}`);
      // the proxy really did its job: a fifth of the requests, every kind of fault
      const faulted = proxy.records.filter((r) => r.fault && r.fault !== 'watch-drop').length;
      expect(faulted).toBeGreaterThan(counts.requests * rate * 0.5);
      for (const kind of AllFaults) expect(counts[kind] ?? 0, kind).toBeGreaterThan(0);
      expect(counts['watch-drop'] ?? 0).toBeGreaterThan(0);
      conn.client.close();
      conn = undefined;
      await proxy.close();
      proxy = undefined;
    });
  }

  /** The cluster holds exactly `objects` (or, destroyed, none of them), owned and inventoried, and not-ours. */
  async function expectClusterEquals(ns: string, inv: string, objects: Obj[], destroyed: boolean) {
    const kinds = Object.keys(plural);
    const owned: string[] = [];
    for (const kind of kinds) {
      const list = await api.request<Obj>('GET', collection(ns, kind));
      for (const item of list.body.items)
        if (item.metadata.annotations?.[owning] === `${inv}-id`) owned.push(`${kind}/${item.metadata.name}`);
    }
    const want = objects.map((o) => `${o.kind}/${o.metadata.name}`).sort();
    expect(owned.sort()).toEqual(destroyed ? [] : want);
    const rg = await api.request<Obj>('GET', `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${inv}`);
    if (destroyed) expect(rg.status).toBe(404);
    else {
      expect(rg.status).toBe(200);
      const listed = (rg.body.spec?.resources ?? []).map((r: Obj) => `${r.kind}/${r.name}`).sort();
      expect(listed).toEqual(want);
      for (const o of objects) {
        const live = await api.request<Obj>('GET', `${collection(ns, o.kind)}/${o.metadata.name}`);
        expect(live.status).toBe(200);
        const { metadata: _m, stringData, ...fields } = o;
        expect(carries(fields, live.body), `${o.kind}/${o.metadata.name}`).toBe(true);
        if (stringData)
          for (const [k, v] of Object.entries(stringData))
            expect(Buffer.from(live.body.data[k], 'base64').toString()).toBe(v);
      }
    }
    const notOurs = await api.request<Obj>('GET', `/api/v1/namespaces/${ns}/configmaps/not-ours`);
    expect(notOurs.status).toBe(200);
    if (!objects.some((o) => o.metadata.name === 'kept')) {
      const kept = await api.request<Obj>('GET', `/api/v1/namespaces/${ns}/configmaps/kept`);
      expect(kept.status).toBe(200);
      expect(kept.body.metadata.annotations?.[owning]).toBeUndefined();
    }
  }
});
