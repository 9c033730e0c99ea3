import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/apply/events.js';
import { type AuditEvent, auditOffset, flushAudit } from '../support/audit-log.js';
import {
  applyObjects,
  configMap,
  controlPlane,
  deployment,
  destroyObjects,
  newInventory,
  useCluster,
} from '../support/harness/index.js';

/**
 * The engine's request budget, read from the API server's audit log: one request per object plus one per
 * kind and namespace; none for an object our last apply left unchanged. Objects that are Current as
 * applied (ConfigMaps) need no GET and no watch, and a DELETE the server answers with Success needs no wait.
 */
describe('requests per object', () => {
  const cluster = useCluster({ namespace: 'budget', connect: true });
  const { api } = cluster;
  const audit = controlPlane().auditLogPath;

  /** Our requests on ConfigMaps in the test namespace during `body`, counted by verb (dry-runs apart). */
  async function configMapRequests(body: () => Promise<void>): Promise<Record<string, number>> {
    const offset = auditOffset(audit);
    await body();
    const events = await flushAudit(api, audit, offset);
    const ours = events.filter(
      (e: AuditEvent) =>
        e.userAgent?.startsWith('kpt-live-action') &&
        e.objectRef?.namespace === cluster.ns &&
        e.objectRef?.resource === 'configmaps',
    );
    const counts: Record<string, number> = {};
    for (const e of ours) {
      const verb = /[?&]dryRun=/.test(e.requestURI) ? `${e.verb} (dry-run)` : e.verb;
      counts[verb] = (counts[verb] ?? 0) + 1;
    }
    return counts;
  }

  it('applies, re-applies and destroys 20 ConfigMaps with one request each', async () => {
    const inv = newInventory(cluster.ns);
    const many = () =>
      Array.from({ length: 20 }, (_, i) => configMap(`many-${i}`, { k: `${i}` }, { namespace: cluster.ns }));
    const events: RunEvent[] = [];

    const first = await configMapRequests(async () => {
      const r = await applyObjects(cluster.conn, many(), inv);
      expect(r.result.outcome, r.result.error).toBe('success');
      events.push(...r.events);
    });
    // an apply per object, one pre-flight dry-run for the kind and namespace (preflight: auto); one LIST
    // of the kind (and one for a legacy ConfigMap inventory when the ResourceGroup kind is served but this
    // inventory does not exist yet)
    const { list, ...rest } = first;
    expect(rest).toEqual({ 'patch (dry-run)': 1, patch: 20 });
    expect(list).toBeGreaterThanOrEqual(1);
    expect(list).toBeLessThanOrEqual(2);
    const waits = events.filter((e) => e.type === 'wait' && e.status === 'Successful');
    expect(waits).toHaveLength(20);

    const noop = await configMapRequests(async () => {
      const r = await applyObjects(cluster.conn, many(), inv);
      expect(r.result.outcome, r.result.error).toBe('success');
      expect(r.result.objects.every((o) => o.action === 'unchanged')).toBe(true);
    });
    // our field set and the live values prove nothing would change (provenNoOp): only the LISTs (the
    // package's kind, and the legacy inventory look-up that goes with the ResourceGroup read)
    expect(noop).toEqual({ list: 2 });

    // another writer changes one of them: that one alone is dry-run (and, forced, applied back)
    const edited = await api.request(
      'PATCH',
      `/api/v1/namespaces/${cluster.ns}/configmaps/many-7?fieldManager=kubectl-edit`,
      { data: { k: 'edited' } },
      'application/merge-patch+json',
    );
    expect(edited.status).toBe(200);
    const drift = await configMapRequests(async () => {
      const r = await applyObjects(cluster.conn, many(), inv, { forceConflicts: true });
      expect(r.result.outcome, r.result.error).toBe('success');
      const changed = r.result.objects.filter((o) => o.action !== 'unchanged').map((o) => o.id.name);
      expect(changed).toEqual(['many-7']);
    });
    expect(drift).toEqual({ 'patch (dry-run)': 1, patch: 1, list: 2 });
    const back = await api.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/many-7`);
    expect((back.body as { data: { k: string } }).data.k).toBe('7');

    const gone = await configMapRequests(async () => {
      const { result: r } = await destroyObjects(cluster.conn, inv);
      expect(r.outcome, r.error).toBe('success');
      expect(r.objects.filter((o) => o.action === 'deleted' && o.reconcile === 'Successful')).toHaveLength(
        20,
      );
    });
    expect(gone).toEqual({ delete: 20, list: 1 });
    const left = await api.request<{ items: unknown[] }>(
      'GET',
      `/api/v1/namespaces/${cluster.ns}/configmaps?labelSelector=`,
    );
    expect(left.body.items.filter((i) => JSON.stringify(i).includes('many-'))).toEqual([]);
  });

  it('still observes what is not Current as applied (a new Deployment): a list, and a watch unless the list finds it Current', async () => {
    const inv = newInventory(cluster.ns);
    const web = deployment('web', { namespace: cluster.ns, image: 'example/web:1' });
    const offset = auditOffset(audit);
    const r = await applyObjects(cluster.conn, [web], inv);
    expect(r.result.outcome, r.result.error).toBe('success');
    const events = await flushAudit(api, audit, offset);
    // observed after the apply: listed, and watched unless the list already found it Current (a fast
    // kubelet simulator can make it so before the watch starts)
    const watches = events.filter(
      (e) =>
        e.userAgent?.startsWith('kpt-live-action') &&
        (e.verb === 'watch' || e.verb === 'list') &&
        e.objectRef?.resource === 'deployments' &&
        e.objectRef?.namespace === cluster.ns,
    );
    expect(watches.length).toBeGreaterThan(0);
    expect(r.result.objects[0]?.reconcile).toBe('Successful');
  });
});
