import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/apply/events.js';
import { displayName } from '../../src/common/object-id.js';
import {
  applyObjects,
  configMap,
  deployment,
  newInventory,
  type Obj,
  service,
  useCluster,
} from '../support/harness/index.js';

const applyLines = (events: RunEvent[]) =>
  events
    .filter((e) => e.type === 'apply' || e.type === 'prune')
    .map((e) =>
      e.type === 'apply' || e.type === 'prune'
        ? `${e.type} ${displayName(e.id)} ${e.status}${e.type === 'apply' && e.operation ? ` ${e.operation}` : ''}`
        : '',
    );

/** The seeds' pruning example: a Service, a Deployment and one ConfigMap (`cm`), in namespace `ns`. */
const seedsPackage = (cm: string, ns: string) => [
  service('service-1', { namespace: ns, app: 'one' }),
  deployment('deployment-1', { namespace: ns, app: 'one', image: 'example/one:1' }),
  configMap(cm, { key: 'value' }, { namespace: ns }),
];

describe('apply engine', () => {
  const cluster = useCluster({ namespace: 'apply', connect: true });
  const { api } = cluster;

  it("applies the seeds' pruning example, then prunes config-map-1 when config-map-2 replaces it", async () => {
    const inv = newInventory(cluster.ns);
    const first = await applyObjects(cluster.conn, seedsPackage('config-map-1', cluster.ns), inv);
    expect(first.result.error).toBeUndefined();
    expect(first.result.outcome).toBe('success');
    expect(applyLines(first.events)).toEqual([
      'apply configmap/config-map-1 Successful created',
      'apply service/service-1 Successful created',
      'apply deployment.apps/deployment-1 Successful created',
    ]);
    const rg = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${cluster.ns}/resourcegroups/${inv.name}`,
    );
    expect(rg.body.spec.resources).toHaveLength(3);
    expect(rg.body.metadata.labels['cli-utils.sigs.k8s.io/inventory-id']).toBe(inv.id);
    const cm1 = await api.request<Obj>('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/config-map-1`);
    expect(cm1.body.metadata.annotations['config.k8s.io/owning-inventory']).toBe(inv.id);

    const second = await applyObjects(cluster.conn, seedsPackage('config-map-2', cluster.ns), inv);
    expect(second.result.outcome).toBe('success');
    expect(applyLines(second.events)).toEqual([
      'apply configmap/config-map-2 Successful created',
      'apply service/service-1 Successful unchanged',
      'apply deployment.apps/deployment-1 Successful unchanged',
      'prune configmap/config-map-1 Successful',
    ]);
    expect(
      (await api.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/config-map-1`)).status,
    ).toBe(404);
    const rg2 = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${cluster.ns}/resourcegroups/${inv.name}`,
    );
    expect(rg2.body.spec.resources.map((r: Obj) => r.name).sort()).toEqual([
      'config-map-2',
      'deployment-1',
      'service-1',
    ]);
    expect(
      rg2.body.status.resourceStatuses.every(
        (s: Obj) => s.actuation === 'Succeeded' && s.reconcile === 'Succeeded',
      ),
    ).toBe(true);
  });
});
