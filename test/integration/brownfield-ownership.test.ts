import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../src/kube/connect.js';
import { expectGolden, previewThenApply } from '../support/brownfield-matrix.js';
import { adminClient, createNamespace, eventually, uniqueName } from '../support/cluster.js';
import { productClient } from '../support/engine.js';
import { inlinePackage } from '../support/packages.js';
import { runPkg } from '../support/run.js';

// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from the API server
type Json = Record<string, any>;

/**
 * Brownfield, second half: objects whose ownership or life cycle another party changed (being deleted,
 * owned by another inventory, served under another apiVersion, an inventory deleted by hand). As in
 * brownfield.test.ts, every step asserts that apply does what the preview said.
 */

const configMap = (name: string, data: string, extra = '') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${extra}data:\n  key: "${data}"\n`;

describe('brownfield: ownership and life cycle', () => {
  let conn: Connection;
  const api = adminClient();
  let ns: string;
  beforeAll(async () => {
    conn = await productClient();
    ns = await createNamespace(api, 'bfown');
  });
  afterAll(() => conn.client.close());
  const cmPath = (name: string) => `/api/v1/namespaces/${ns}/configmaps/${name}`;

  it('an object being deleted (deletionTimestamp, a finalizer) is an error naming the finalizer, in preview and apply', async () => {
    const hold = '  finalizers: [example.com/hold]\n';
    const pkg = inlinePackage(ns, { 'cm.yaml': configMap('dying', '1', hold) });
    expect((await previewThenApply(conn, pkg, ns)).apply.exitCode).toBe(0);
    expect((await api.request('DELETE', cmPath('dying'))).status).toBe(200);
    pkg.rewrite({ 'cm.yaml': configMap('dying', '2', hold) });
    try {
      const step = await previewThenApply(conn, pkg, ns);
      expect(step.promised).toEqual(['ConfigMap/dying failed']);
      expect(step.message).toMatch(
        /ConfigMap\/dying: being deleted since .* \(waiting on finalizer example\.com\/hold\): an apply would not stop the deletion/,
      );
      expectGolden('being-deleted', step.preview, { [ns]: 'NAMESPACE', [pkg.inventory.name]: 'INVENTORY' });
    } finally {
      await api.request(
        'PATCH',
        cmPath('dying'),
        [{ op: 'remove', path: '/metadata/finalizers' }],
        'application/json-patch+json',
      );
    }
  });

  it('an object owned by another inventory: skipped under strict and adopt, taken under force-adopt', async () => {
    const first = inlinePackage(ns, { 'cm.yaml': configMap('shared', '1') });
    expect((await runPkg(conn, first, 'apply', {}, ns)).result.exitCode).toBe(0);
    const second = inlinePackage(ns, { 'cm.yaml': configMap('shared', '2') });

    for (const inventoryPolicy of ['strict', 'adopt'] as const) {
      const step = await previewThenApply(conn, second, ns, { inventoryPolicy });
      expect(step.promised).toEqual(['ConfigMap/shared skipped']);
      // (the exit code of a run with such a skip is issue 22's: kpt exits 0, the contract 3)
      expect(step.message).toContain(`owned by another inventory: inventory ${first.inventory.id}`);
      if (inventoryPolicy === 'strict')
        expectGolden('other-inventory-strict', step.preview, {
          [ns]: 'NAMESPACE',
          [first.inventory.name]: 'OTHER',
          [second.inventory.name]: 'INVENTORY',
        });
    }
    const taken = await previewThenApply(conn, second, ns, { inventoryPolicy: 'force-adopt' });
    expect(taken.promised).toEqual(['ConfigMap/shared configured']);
    const live = (await api.request<Json>('GET', cmPath('shared'))).body;
    expect(live.metadata.annotations['config.k8s.io/owning-inventory']).toBe(second.inventory.id);
    expect(live.data).toEqual({ key: '2' });
  });

  it('the package moves an object to another apiVersion of its kind: the same object, never pruned', async () => {
    const group = `${uniqueName('bf')}.example.com`;
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `widgets.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: ['v1alpha1', 'v1'].map((name) => ({
          name,
          served: true,
          storage: name === 'v1',
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
            },
          },
        })),
      },
    };
    expect(
      (await api.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status,
    ).toBe(201);
    await eventually(
      async () => ((await api.request('GET', `/apis/${group}/v1alpha1`)).status === 200 ? true : undefined),
      30_000,
      'the Widget kind to be served',
    );
    try {
      const widget = (version: string) =>
        `apiVersion: ${group}/${version}\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 1\n`;
      const pkg = inlinePackage(ns, { 'w.yaml': widget('v1alpha1') });
      expect((await previewThenApply(conn, pkg, ns)).promised).toEqual(['Widget/w created']);
      const uid = (await api.request<Json>('GET', `/apis/${group}/v1/namespaces/${ns}/widgets/w`)).body
        .metadata.uid;
      pkg.rewrite({ 'w.yaml': widget('v1') });
      const step = await previewThenApply(conn, pkg, ns);
      expect(step.promised).toHaveLength(1);
      expect(step.promised[0]).toMatch(/^Widget\/w (unchanged|configured)$/);
      expect(step.apply.exitCode).toBe(0);
      const after = (await api.request<Json>('GET', `/apis/${group}/v1/namespaces/${ns}/widgets/w`)).body;
      expect(after.metadata.uid).toBe(uid);
      expectGolden('api-version-move', step.preview, {
        [ns]: 'NAMESPACE',
        [pkg.inventory.name]: 'INVENTORY',
        [group]: 'GROUP',
      });
    } finally {
      await api.request('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${group}`);
    }
  });

  it('the ResourceGroup deleted by hand: the objects still carry our owning-inventory, re-apply takes them back and prunes nothing', async () => {
    const pkg = inlinePackage(ns, { 'a.yaml': configMap('rg-a', '1'), 'b.yaml': configMap('rg-b', '1') });
    expect((await runPkg(conn, pkg, 'apply', {}, ns)).result.exitCode).toBe(0);
    const rgPath = `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${pkg.inventory.name}`;
    expect((await api.request('DELETE', rgPath)).status).toBe(200);

    const step = await previewThenApply(conn, pkg, ns);
    expect(step.promised).toEqual(['ConfigMap/rg-a unchanged', 'ConfigMap/rg-b unchanged']);
    expect(step.apply.exitCode).toBe(0);
    const rg = (await api.request<Json>('GET', rgPath)).body;
    expect(rg.spec.resources.map((r: Json) => r.name).sort()).toEqual(['rg-a', 'rg-b']);
    expectGolden('inventory-deleted', step.preview, { [ns]: 'NAMESPACE', [pkg.inventory.name]: 'INVENTORY' });
  });
});
