import { beforeAll, describe, expect, it } from 'vitest';
import { defaultRunOptions } from '../../../src/apply/run-options.js';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { ensureResourceGroupCrd } from '../../../src/inventory/install-crd.js';
import type { Connection } from '../../../src/kube/connect.js';
import { applySteps } from '../../../src/pipeline/cluster-run.js';
import { loadYaml } from '../../../src/startup/yaml-module.js';
import { applyObjects, destroyObjects } from '../../support/engine.js';
import { FakeCluster, readyWorkloads } from '../../support/fake-cluster/index.js';
import { configMap, deployment, service } from '../../support/harness/builders.js';

/**
 * The engine's whole run on the fake cluster (test/support/fake-cluster): a dry run writes nothing, then
 * apply, a no-op re-apply, a prune and a destroy each leave the cluster as they say. An example for
 * table-driven engine tests: seed a state, run, read `fake.log` and `fake.object(...)`.
 */
const ns = 'team';
const inventory = { name: 'inv', namespace: ns, id: 'inv-id' };
const objects = (): KubeObject[] => [
  configMap('settings', { color: 'blue' }, { namespace: ns }),
  deployment('web', { namespace: ns }),
  service('web', { namespace: ns }),
];
const lines = (objs: { id: { kind: string; name: string }; action?: string }[]) =>
  objs.map((o) => `${o.id.kind}/${o.id.name} ${o.action}`).sort();

describe('a run on the fake cluster', () => {
  const fake = new FakeCluster({ namespaces: [ns], reconcilers: [readyWorkloads] });
  const client = fake.client();
  const conn = { client } as Connection;

  beforeAll(async () => {
    await loadYaml();
    await ensureResourceGroupCrd(client, { install: true });
    client.resetDiscovery();
  });

  it('a dry run answers what apply would do and sends no write that is not a dry-run', async () => {
    const mark = fake.log.mark();
    const { run } = await applySteps({
      client,
      objects: objects().map((object) => ({ object })),
      inventory,
      options: defaultRunOptions({}),
      emit: () => {},
      dryRun: true,
    });
    expect(run.outcome, run.error).toBe('success');
    expect(lines(run.objects)).toEqual([
      'ConfigMap/settings created',
      'Deployment/web created',
      'Service/web created',
    ]);
    expect(fake.log.since(mark).filter((r) => r.mutating && !r.dryRun)).toEqual([]);
    expect(fake.object({ kind: 'ConfigMap', namespace: ns, name: 'settings' })).toBeUndefined();
  });

  it('applies, then re-applies with no object write, prunes what left the package, and destroys', async () => {
    const first = await applyObjects(conn, objects(), inventory, { reconcileTimeoutMs: 5000 });
    expect(first.result.outcome, first.result.error).toBe('success');
    expect(first.result.objects.every((o) => o.reconcile === 'Successful')).toBe(true);
    // the waits' watches end with the run (a long-lived process, the demo or an in-process caller, would
    // otherwise keep them open)
    expect(fake.openWatches()).toBe(0);

    const mark = fake.log.mark();
    const again = await applyObjects(conn, objects(), inventory, { reconcileTimeoutMs: 5000 });
    expect(lines(again.result.objects)).toEqual([
      'ConfigMap/settings unchanged',
      'Deployment/web unchanged',
      'Service/web unchanged',
    ]);
    // only the run's lock is written: the objects are proven unchanged
    expect(fake.log.since(mark).filter((r) => r.mutating && !r.dryRun && r.kind !== 'Lease')).toEqual([]);

    const pruned = await applyObjects(conn, [objects()[0]], inventory, { reconcileTimeoutMs: 5000 });
    expect(lines(pruned.result.objects)).toEqual([
      'ConfigMap/settings unchanged',
      'Deployment/web pruned',
      'Service/web pruned',
    ]);
    expect(fake.object({ group: 'apps', kind: 'Deployment', namespace: ns, name: 'web' })).toBeUndefined();

    const destroyed = await destroyObjects(conn, inventory);
    expect(lines(destroyed.result.objects)).toEqual(['ConfigMap/settings deleted']);
    expect(fake.openWatches()).toBe(0);
    expect(fake.objects((o) => o.metadata.namespace === ns && o.kind !== 'Lease')).toEqual([]);
  });
});
