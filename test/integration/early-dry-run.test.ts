import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connection, connect } from '../../src/kube/connect.js';
import { adminClient, controlPlane, createNamespace } from '../support/cluster.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { inlinePackage } from '../support/packages.js';
import { runPkg } from '../support/run.js';

/**
 * Issue 20: the pre-flight's dry-runs of a first apply go out while the live state is read, not one round
 * trip after it. A proxy in front of the API server holds the package's LIST back for 2 s: the dry-run
 * must reach the server meanwhile (before, it was sent only once the LIST had answered). Its answer is the
 * pre-flight's own: one dry-run in all, and a rejection still stops the run with nothing changed.
 */
const api = adminClient();
const holdMs = 2000;
let proxy: FaultProxy;
let conn: Connection;
let ns: string;

const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata: {v: "1"}\n`;
// the server refuses it (a port out of range); nothing the package checks would
const badService = `apiVersion: v1
kind: Service
metadata: {name: bad}
spec:
  ports: [{name: http, port: 99999, protocol: TCP}]
`;

beforeAll(async () => {
  ns = await createNamespace(api, 'early-dry-run');
  proxy = await startFaultProxy({
    target: controlPlane().server,
    seed: 1,
    rate: 1,
    kinds: ['slow'],
    slowMs: [holdMs, holdMs],
    // the live read of the package's objects: a LIST per kind, or a GET each when there are only a few
    // (no label selector: not the history's or a legacy inventory's LIST)
    eligible: (method, url) =>
      method === 'GET' &&
      /^\/api\/v1\/namespaces\/[^/]+\/(configmaps|services)(\/[^/]+)?$/.test(url.pathname) &&
      url.pathname.includes(`/${ns}/`) &&
      !url.searchParams.has('labelSelector') &&
      !url.searchParams.has('watch'),
  });
  conn = await connect({ kubeconfigPath: proxy.kubeconfig(controlPlane().adminToken, { namespace: ns }) });
});
afterAll(async () => {
  await proxy?.close();
});

const dryRuns = (from: number) =>
  proxy.records.slice(from).filter((r) => r.method === 'PATCH' && /[?&]dryRun=All/.test(r.path));
const heldReads = (from: number) => proxy.records.slice(from).filter((r) => r.fault === 'slow');

describe('early pre-flight dry-runs', () => {
  it("reach the server while the package's LIST is still held back, and are not sent twice", async () => {
    const pkg = inlinePackage(ns, { 'a.yaml': cm('a'), 'b.yaml': cm('b'), 'c.yaml': cm('c') });
    const from = proxy.records.length;
    const run = await runPkg(conn, pkg, 'apply', {}, ns);
    expect(run.result.exitCode, run.result.error).toBe(0);
    const [list] = heldReads(from);
    expect(list?.path, 'the LIST was held back').toMatch(/configmaps$/);
    const sent = dryRuns(from);
    // under preflight auto: the first new object of the kind and namespace, once
    expect(sent).toHaveLength(1);
    expect(sent[0].at).toBeLessThan(list.forwardedAt!);
    // the objects are there
    for (const name of ['a', 'b', 'c'])
      expect((await api.request('GET', `/api/v1/namespaces/${ns}/configmaps/${name}`)).status).toBe(200);
  });

  it('a rejection sent early still refuses the run before its first write', async () => {
    const pkg = inlinePackage(ns, { 'bad.yaml': badService, 'd.yaml': cm('d') });
    const from = proxy.records.length;
    const run = await runPkg(conn, pkg, 'apply', {}, ns);
    expect(run.result.exitCode, run.result.error).toBe(1);
    expect(run.result.error ?? '').toMatch(
      /pre-flight server-side dry-run rejected 1 object\(s\); nothing was changed/,
    );
    expect(run.result.error ?? '').toMatch(/99999/);
    // a GET each (one object of each kind): both held back, both dry-runs sent meanwhile, once each
    const held = heldReads(from);
    expect(held).toHaveLength(2);
    const sent = dryRuns(from);
    expect(sent.map((r) => r.path.split('?')[0].split('/').slice(-2).join('/')).sort()).toEqual([
      'configmaps/d',
      'services/bad',
    ]);
    for (const r of sent) expect(r.at).toBeLessThan(Math.min(...held.map((h) => h.forwardedAt!)));
    // nothing written: no inventory, no ConfigMap, no Service
    const writes = proxy.records
      .slice(from)
      .filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !/dryRun=All/.test(r.path))
      .filter((r) => !r.path.includes('/leases'));
    expect(writes).toEqual([]);
    expect((await api.request('GET', `/api/v1/namespaces/${ns}/configmaps/d`)).status).toBe(404);
  });
});
