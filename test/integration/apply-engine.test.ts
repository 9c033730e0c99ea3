import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/apply/events.js';
import { displayName } from '../../src/common/object-id.js';
import type { Connection } from '../../src/kube/connect.js';
import { adminClient, createNamespace } from '../support/cluster.js';
import { applyObjects, newInventory, objectsFromYaml, productClient } from '../support/engine.js';

// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from the API server
type Obj = Record<string, any>;

const applyLines = (events: RunEvent[]) =>
  events
    .filter((e) => e.type === 'apply' || e.type === 'prune')
    .map((e) =>
      e.type === 'apply' || e.type === 'prune'
        ? `${e.type} ${displayName(e.id)} ${e.status}${e.type === 'apply' && e.operation ? ` ${e.operation}` : ''}`
        : '',
    );

const seedsPackage = (cm: string) => `
apiVersion: v1
kind: Service
metadata: {name: service-1}
spec:
  selector: {app: one}
  ports: [{port: 80, protocol: TCP}]  # protocol spelled out: this also runs on Kubernetes 1.20, whose server-side apply rejects a port without it
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: deployment-1}
spec:
  replicas: 1
  selector: {matchLabels: {app: one}}
  template:
    metadata: {labels: {app: one}}
    spec:
      containers: [{name: main, image: example/one:1}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ${cm}}
data: {key: value}
`;

describe('apply engine', () => {
  let conn: Connection;
  let ns: string;
  const api = adminClient();

  beforeAll(async () => {
    conn = await productClient();
    ns = await createNamespace(api, 'apply');
  });
  afterAll(() => conn.client.close());

  it("applies the seeds' pruning example, then prunes config-map-1 when config-map-2 replaces it", async () => {
    const inv = newInventory(ns);
    const first = await applyObjects(conn, objectsFromYaml(seedsPackage('config-map-1'), ns), inv);
    expect(first.result.error).toBeUndefined();
    expect(first.result.outcome).toBe('success');
    expect(applyLines(first.events)).toEqual([
      'apply configmap/config-map-1 Successful created',
      'apply service/service-1 Successful created',
      'apply deployment.apps/deployment-1 Successful created',
    ]);
    const rg = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${inv.name}`,
    );
    expect(rg.body.spec.resources).toHaveLength(3);
    expect(rg.body.metadata.labels['cli-utils.sigs.k8s.io/inventory-id']).toBe(inv.id);
    const cm1 = await api.request<Obj>('GET', `/api/v1/namespaces/${ns}/configmaps/config-map-1`);
    expect(cm1.body.metadata.annotations['config.k8s.io/owning-inventory']).toBe(inv.id);

    const second = await applyObjects(conn, objectsFromYaml(seedsPackage('config-map-2'), ns), inv);
    expect(second.result.outcome).toBe('success');
    expect(applyLines(second.events)).toEqual([
      'apply configmap/config-map-2 Successful created',
      'apply service/service-1 Successful unchanged',
      'apply deployment.apps/deployment-1 Successful unchanged',
      'prune configmap/config-map-1 Successful',
    ]);
    expect((await api.request('GET', `/api/v1/namespaces/${ns}/configmaps/config-map-1`)).status).toBe(404);
    const rg2 = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${inv.name}`,
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
