import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../src/kube/connect.js';
import { rollbackLine } from '../../src/report/rollback-words.js';
import { adminClient, createNamespace, eventually, uniqueName } from '../support/cluster.js';
import { productClient } from '../support/engine.js';
import { applyAt, getObject, gitPackage, historyOf } from '../support/rollback.js';

// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from the API server
type Obj = Record<string, any>;

/**
 * A custom resource whose controller cannot reconcile the new spec goes Stalled (kstatus: Failed); the
 * rollback returns it to the spec that worked. The test plays the controller: each generation it has not
 * observed yet gets `observedGeneration` and Stalled (size above 5, or everything once `stallAll`) or Ready.
 */
describe('on-failure: rollback of a custom resource that goes Stalled', () => {
  let conn: Connection;
  const api = adminClient();
  let stop = false;
  let stallAll = false;
  let controller: Promise<void>;
  /** Each test's namespace and the API group of its own CRD (a CRD belongs to one package's inventory). */
  const watched: { ns: string; group: string }[] = [];

  const crd = (group: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.${group}}
spec:
  group: ${group}
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`;
  const widget = (group: string, size: number) =>
    `apiVersion: ${group}/v1\nkind: Widget\nmetadata: {name: gadget}\nspec: {size: ${size}}\n`;

  beforeAll(async () => {
    conn = await productClient();
    controller = (async () => {
      while (!stop) {
        for (const { ns, group } of watched) {
          const list = await api
            .request<Obj>('GET', `/apis/${group}/v1/namespaces/${ns}/widgets`)
            .catch(() => undefined);
          for (const w of list?.status === 200 ? list.body.items : []) {
            if (w.status?.observedGeneration === w.metadata.generation) continue;
            const stalled = stallAll || w.spec.size > 5;
            const condition = stalled
              ? {
                  type: 'Stalled',
                  status: 'True',
                  reason: 'TooBig',
                  message: `cannot make a widget of size ${w.spec.size}`,
                }
              : { type: 'Ready', status: 'True', reason: 'Made', message: 'made' };
            await api.request('PUT', `/apis/${group}/v1/namespaces/${ns}/widgets/${w.metadata.name}/status`, {
              ...w,
              status: { observedGeneration: w.metadata.generation, conditions: [condition] },
            });
          }
        }
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
  });
  afterAll(async () => {
    stop = true;
    await controller;
    conn.client.close();
  });

  async function deployedPackage(prefix: string) {
    const ns = await createNamespace(api, prefix);
    const group = `${uniqueName('rbcr')}.example.com`;
    watched.push({ ns, group });
    const pkg = gitPackage(ns, { 'crd.yaml': crd(group), 'widget.yaml': widget(group, 1) });
    const first = await applyAt(conn, pkg, pkg.first, {
      namespace: ns,
      options: { reconcileTimeoutMs: 30_000 },
    });
    expect(first.result.exitCode, JSON.stringify(first.result.run?.objects)).toBe(0);
    // the controller has observed the first spec: the next apply's generation is judged by its status
    await eventually(async () => {
      const w = await getObject(`/apis/${group}/v1/namespaces/${ns}/widgets/gadget`);
      return w?.status?.observedGeneration === 1 ? true : undefined;
    });
    return { ns, pkg, group };
  }

  it('rolls a Stalled widget back to the spec its controller could reconcile', async () => {
    const { ns, pkg, group } = await deployedPackage('rb-cr');
    const bad = pkg.commit({ 'crd.yaml': crd(group), 'widget.yaml': widget(group, 10) });
    const { result } = await applyAt(conn, pkg, bad, {
      namespace: ns,
      onFailure: { rollback: true, prune: false },
      options: { reconcileTimeoutMs: 30_000 },
    });
    expect(result.exitCode).toBe(3);
    const failed = result.run!.objects.find((o) => o.id.kind === 'Widget')!;
    expect(failed).toMatchObject({ reconcile: 'Failed', message: 'Failed: cannot make a widget of size 10' });
    const rb = result.rollback!;
    expect(rb.status, JSON.stringify(rb.run?.objects)).toBe('rolled-back');
    expect(rb.run!.objects.find((o) => o.id.kind === 'Widget')).toMatchObject({
      action: 'configured',
      reconcile: 'Successful',
    });
    const live = await getObject(`/apis/${group}/v1/namespaces/${ns}/widgets/gadget`);
    expect(live!.spec.size).toBe(1);
    expect(live!.status.conditions[0].type).toBe('Ready');
  });

  it('reports both failures when the rollback fails too, and never tries again', async () => {
    const { ns, pkg, group } = await deployedPackage('rb-cr2');
    const bad = pkg.commit({ 'crd.yaml': crd(group), 'widget.yaml': widget(group, 10) });
    stallAll = true; // the controller now fails every widget: the old spec too
    try {
      const { result, rollbackEvents } = await applyAt(conn, pkg, bad, {
        namespace: ns,
        onFailure: { rollback: true, prune: false },
        options: { reconcileTimeoutMs: 30_000 },
      });
      expect(result.exitCode).toBe(3);
      expect(result.run!.objects.find((o) => o.id.kind === 'Widget')!.message).toBe(
        'Failed: cannot make a widget of size 10',
      );
      const rb = result.rollback!;
      expect(rb.status).toBe('failed');
      expect(rb.to).toBe(pkg.first);
      expect(rollbackLine(rb, { automatic: true, package: 'pkg' })).toBe(
        `rollback to ${pkg.first.slice(0, 7)} failed: Widget/gadget Failed: cannot make a widget of size 1`,
      );
      // one rollback: the widget was applied once by it
      expect(rollbackEvents.filter((e) => e.type === 'apply' && e.id.kind === 'Widget')).toHaveLength(1);
      const records = await historyOf(conn, pkg.inventory);
      expect(records.map((r) => `${r.mode} ${r.commit === bad ? 'bad' : 'good'} ${r.result}`)).toEqual([
        'rollback good failed',
        'apply bad failed',
        'apply good success',
      ]);
      expect(records[0].failed).toEqual(['Widget/gadget: Failed: cannot make a widget of size 1']);
    } finally {
      stallAll = false;
    }
  });
});
