import { describe, expect, it } from 'vitest';
import { expectGolden, previewThenApply } from '../support/brownfield-matrix.js';
import {
  configMap,
  crd,
  customResource,
  eventually,
  inlinePackage,
  type Obj,
  uniqueName,
  useCluster,
} from '../support/harness/index.js';
import { runPkg } from '../support/run.js';

/**
 * Brownfield, second half: objects whose ownership or life cycle another party changed (being deleted,
 * owned by another inventory, served under another apiVersion, an inventory deleted by hand). As in
 * brownfield.test.ts, every step asserts that apply does what the preview said.
 */

const cm = (name: string, data: string, finalizers?: string[]) =>
  configMap(name, { key: data }, { finalizers });

describe('brownfield: ownership and life cycle', () => {
  const cluster = useCluster({ namespace: 'bfown', connect: true });
  const { api } = cluster;
  const cmPath = (name: string) => `/api/v1/namespaces/${cluster.ns}/configmaps/${name}`;

  it('an object being deleted (deletionTimestamp, a finalizer) is an error naming the finalizer, in preview and apply', async () => {
    const hold = ['example.com/hold'];
    const pkg = inlinePackage(cluster.ns, { 'cm.yaml': cm('dying', '1', hold) });
    expect((await previewThenApply(cluster.conn, pkg, cluster.ns)).apply.exitCode).toBe(0);
    expect((await api.request('DELETE', cmPath('dying'))).status).toBe(200);
    pkg.rewrite({ 'cm.yaml': cm('dying', '2', hold) });
    try {
      const step = await previewThenApply(cluster.conn, pkg, cluster.ns);
      expect(step.promised).toEqual(['ConfigMap/dying failed']);
      expect(step.message).toMatch(
        /ConfigMap\/dying: being deleted since .* \(waiting on finalizer example\.com\/hold\): an apply would not stop the deletion/,
      );
      expectGolden('being-deleted', step.preview, {
        [cluster.ns]: 'NAMESPACE',
        [pkg.inventory.name]: 'INVENTORY',
      });
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
    const first = inlinePackage(cluster.ns, { 'cm.yaml': cm('shared', '1') });
    expect((await runPkg(cluster.conn, first, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
    const second = inlinePackage(cluster.ns, { 'cm.yaml': cm('shared', '2') });

    for (const inventoryPolicy of ['strict', 'adopt'] as const) {
      const step = await previewThenApply(cluster.conn, second, cluster.ns, { inventoryPolicy });
      expect(step.promised).toEqual(['ConfigMap/shared skipped']);
      // (the run's exit code for such a skip is blocked-skips.test.ts's concern: kpt exits 0, this project 3)
      expect(step.message).toContain(`owned by another inventory: inventory ${first.inventory.id}`);
      if (inventoryPolicy === 'strict')
        expectGolden('other-inventory-strict', step.preview, {
          [cluster.ns]: 'NAMESPACE',
          [first.inventory.name]: 'OTHER',
          [second.inventory.name]: 'INVENTORY',
        });
    }
    const taken = await previewThenApply(cluster.conn, second, cluster.ns, {
      inventoryPolicy: 'force-adopt',
    });
    expect(taken.promised).toEqual(['ConfigMap/shared configured']);
    const live = (await api.request<Obj>('GET', cmPath('shared'))).body;
    expect(live.metadata.annotations['config.k8s.io/owning-inventory']).toBe(second.inventory.id);
    expect(live.data).toEqual({ key: '2' });
  });

  it('the package moves an object to another apiVersion of its kind: the same object, never pruned', async () => {
    const group = `${uniqueName('bf')}.example.com`;
    const widgets = crd({
      group,
      kind: 'Widget',
      versions: ['v1alpha1', 'v1'],
      storage: 'v1',
      spec: { type: 'object', properties: { size: { type: 'integer' } } },
    });
    expect(
      (await api.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', widgets)).status,
    ).toBe(201);
    await eventually(
      async () => ((await api.request('GET', `/apis/${group}/v1alpha1`)).status === 200 ? true : undefined),
      30_000,
      'the Widget kind to be served',
    );
    try {
      const widget = (version: string) => customResource(`${group}/${version}`, 'Widget', 'w', { size: 1 });
      const pkg = inlinePackage(cluster.ns, { 'w.yaml': widget('v1alpha1') });
      expect((await previewThenApply(cluster.conn, pkg, cluster.ns)).promised).toEqual(['Widget/w created']);
      const uid = (await api.request<Obj>('GET', `/apis/${group}/v1/namespaces/${cluster.ns}/widgets/w`)).body
        .metadata.uid;
      pkg.rewrite({ 'w.yaml': widget('v1') });
      const step = await previewThenApply(cluster.conn, pkg, cluster.ns);
      expect(step.promised).toHaveLength(1);
      expect(step.promised[0]).toMatch(/^Widget\/w (unchanged|configured)$/);
      expect(step.apply.exitCode).toBe(0);
      const after = (await api.request<Obj>('GET', `/apis/${group}/v1/namespaces/${cluster.ns}/widgets/w`))
        .body;
      expect(after.metadata.uid).toBe(uid);
      expectGolden('api-version-move', step.preview, {
        [cluster.ns]: 'NAMESPACE',
        [pkg.inventory.name]: 'INVENTORY',
        [group]: 'GROUP',
      });
    } finally {
      await api.request('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${group}`);
    }
  });

  it('the ResourceGroup deleted by hand: the objects still carry our owning-inventory, re-apply takes them back and prunes nothing', async () => {
    const pkg = inlinePackage(cluster.ns, { 'a.yaml': cm('rg-a', '1'), 'b.yaml': cm('rg-b', '1') });
    expect((await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
    const rgPath = `/apis/kpt.dev/v1alpha1/namespaces/${cluster.ns}/resourcegroups/${pkg.inventory.name}`;
    expect((await api.request('DELETE', rgPath)).status).toBe(200);

    const step = await previewThenApply(cluster.conn, pkg, cluster.ns);
    expect(step.promised).toEqual(['ConfigMap/rg-a unchanged', 'ConfigMap/rg-b unchanged']);
    expect(step.apply.exitCode).toBe(0);
    const rg = (await api.request<Obj>('GET', rgPath)).body;
    expect(rg.spec.resources.map((r: Obj) => r.name).sort()).toEqual(['rg-a', 'rg-b']);
    expectGolden('inventory-deleted', step.preview, {
      [cluster.ns]: 'NAMESPACE',
      [pkg.inventory.name]: 'INVENTORY',
    });
  });
});
