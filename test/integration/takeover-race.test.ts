import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WriteAttempts as TakeoverAttempts } from '../../src/apply/ownership-write.js';
import { type Connection, connect } from '../../src/kube/connect.js';
import { kubectlApply, managers, objectPath } from '../support/brownfield.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { configMap, controlPlane, inlinePackage, type Obj, useCluster } from '../support/harness/index.js';
import { runPkg } from '../support/run.js';

/**
 * Taking over an object last applied client-side (kubectl's csaupgrade) is a JSON patch of its
 * managedFields on the condition that its resourceVersion is still the one read. On a live cluster a
 * controller writes objects all the time (a Deployment's status right after kubectl created it), so that
 * condition can fail between the read and the patch; it did in CI on 1.20.2 (brownfield.test.ts, "Deployment/kc
 * failed"). A proxy in front of the API server lets another writer change the object just before the
 * takeover patch reaches the server, every time or only the first time: the takeover must read the object
 * again and succeed, keep the other writer's change, and give up (naming the object) only after
 * TakeoverAttempts tries.
 */
const cluster = useCluster({ namespace: 'takeover-race' });
const { api } = cluster;
let proxy: FaultProxy;
let conn: Connection;
/** Names whose takeover patch another writer races: how many more times it does. */
const races = new Map<string, number>();
let raced = 0;

const cm = (name: string, value: string, namespace?: string) => configMap(name, { a: value }, { namespace });

/** The takeover: a JSON patch, the one PATCH apply sends without a fieldManager. */
const isTakeover = (method: string, url: URL) =>
  method === 'PATCH' &&
  !url.searchParams.has('fieldManager') &&
  url.pathname.includes(`/namespaces/${cluster.ns}/`);

beforeAll(async () => {
  proxy = await startFaultProxy({
    target: controlPlane().server,
    seed: 1,
    rate: 0,
    beforeForward: async (method, url) => {
      if (!isTakeover(method, url)) return;
      const name = url.pathname.split('/').pop() ?? '';
      const left = races.get(name) ?? 0;
      if (left <= 0) return;
      races.set(name, left - 1);
      raced++;
      // another writer (a controller) changes the object: its resourceVersion moves
      const res = await api.request(
        'PATCH',
        `/api/v1/namespaces/${cluster.ns}/configmaps/${name}?fieldManager=some-controller`,
        { metadata: { labels: { [`touched-${raced}`]: 'yes' } } },
        'application/merge-patch+json',
      );
      expect(res.status).toBe(200);
    },
  });
  conn = await connect({
    kubeconfigPath: proxy.kubeconfig(controlPlane().adminToken, { namespace: cluster.ns }),
  });
});
afterAll(async () => {
  conn?.client.close();
  await proxy?.close();
});

const takeovers = (from: number, name: string) =>
  proxy.records
    .slice(from)
    .filter((r) => isTakeover(r.method, new URL(r.path, 'https://x')) && r.path.endsWith(`/${name}`));

/**
 * A ConfigMap created by `kubectl apply` (client-side), then adopted by an apply that changes it while another
 * writer races each of the first `times` takeover patches; with the takeover patches that reached the proxy.
 */
async function applyWhileRaced(name: string, times: number) {
  const obj = cm(name, '1', cluster.ns);
  await kubectlApply(api, obj);
  const pkg = inlinePackage(cluster.ns, { 'cm.yaml': cm(name, '2') });
  races.set(name, times);
  const from = proxy.records.length;
  const run = await runPkg(conn, pkg, 'apply', { inventoryPolicy: 'adopt' }, cluster.ns);
  races.set(name, 0);
  return { obj, run, sent: takeovers(from, name) };
}

describe('client-side takeover racing another writer', () => {
  it('reads the object again and takes it over when a controller wrote it after the live read', async () => {
    const { obj, run, sent } = await applyWhileRaced('raced', 1);
    expect(run.result.exitCode, run.result.error ?? JSON.stringify(run.result.run?.objects)).toBe(0);
    // the first patch met the other writer's resourceVersion and was refused; the second went through
    expect(sent.map((r) => r.status)).toEqual([422, 200]);
    const live = (await api.request<Obj>('GET', objectPath(obj))).body;
    expect(live.data).toEqual({ a: '2' });
    expect(live.metadata.labels).toMatchObject({ [`touched-${raced}`]: 'yes' });
    const owners = await managers(api, obj);
    expect(owners).not.toContain('kubectl-client-side-apply/Update');
    expect(owners).toContain('some-controller/Update');
    expect(run.result.run?.objects.map((o) => o.action)).toEqual(['configured']);
  });

  it('gives up after TakeoverAttempts races, failing that object with a message that says why', async () => {
    const { obj, run, sent } = await applyWhileRaced('always-raced', 100);
    expect(run.result.exitCode).not.toBe(0);
    expect(sent.map((r) => r.status)).toEqual(Array(TakeoverAttempts).fill(422));
    const [outcome] = run.result.run?.objects ?? [];
    expect(outcome?.action).toBe('failed');
    expect(outcome?.message).toMatch(
      new RegExp(`ConfigMap always-raced changed under each of ${TakeoverAttempts} attempts`),
    );
    // nothing was taken over or applied: the object is as kubectl left it, plus the other writer's labels
    const live = (await api.request<Obj>('GET', objectPath(obj))).body;
    expect(live.data).toEqual({ a: '1' });
    expect(await managers(api, obj)).toContain('kubectl-client-side-apply/Update');
  });
});
