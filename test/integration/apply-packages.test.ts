import { describe, expect, it } from 'vitest';
import { type Obj, packageCopy, useCluster } from '../support/harness/index.js';
import { actions, runPkg } from '../support/run.js';

describe("the seeds' wordpress packages", () => {
  const cluster = useCluster({ namespace: false, connect: true });
  const { api } = cluster;

  it('applies wordpress (2 Services, 2 Deployments, 2 PVCs) and every object reaches Current', async () => {
    const ns = await cluster.namespace('wp');
    const pkg = packageCopy('packages/wordpress', ns);
    const { result, events } = await runPkg(cluster.conn, pkg, 'apply', {}, ns);
    expect(result.error).toBeUndefined();
    expect(result.exitCode).toBe(0);
    expect(actions(events).sort()).toEqual(
      [
        'apply Deployment/wordpress Successful created',
        'apply Deployment/wordpress-mysql Successful created',
        'apply PersistentVolumeClaim/mysql-pv-claim Successful created',
        'apply PersistentVolumeClaim/wp-pv-claim Successful created',
        'apply Service/wordpress Successful created',
        'apply Service/wordpress-mysql Successful created',
      ].sort(),
    );
    const outcomes = result.run!.objects;
    expect(outcomes.every((o) => o.reconcile === 'Successful' && o.status === 'Current')).toBe(true);
    const claim = await api.request<Obj>(
      'GET',
      `/api/v1/namespaces/${ns}/persistentvolumeclaims/mysql-pv-claim`,
    );
    expect(claim.body.status.phase).toBe('Bound');
  });

  it('orders wordpress-with-dependencies in waves (StatefulSet Current before the Deployment is applied) and destroys in reverse', async () => {
    // its manifests name the `default` namespace explicitly (depends-on spells it too)
    const pkg = packageCopy('packages/wordpress-with-dependencies', 'default');
    const { result, events } = await runPkg(cluster.conn, pkg, 'apply');
    expect(result.error).toBeUndefined();
    expect(result.exitCode).toBe(0);
    const idx = (pred: (e: (typeof events)[number]) => boolean) => events.findIndex(pred);
    const stsCurrent = idx(
      (e) => e.type === 'wait' && e.id.kind === 'StatefulSet' && e.status === 'Successful',
    );
    const deployApplied = idx(
      (e) => e.type === 'apply' && e.id.kind === 'Deployment' && e.id.name === 'wordpress',
    );
    const wpServiceApplied = idx(
      (e) => e.type === 'apply' && e.id.kind === 'Service' && e.id.name === 'wordpress',
    );
    expect(stsCurrent).toBeGreaterThan(-1);
    expect(deployApplied).toBeGreaterThan(stsCurrent);
    expect(wpServiceApplied).toBeGreaterThan(stsCurrent);
    const init = events.find((e) => e.type === 'init');
    expect(init?.type === 'init' && init.groups.filter((g) => g.action === 'Apply').length).toBe(2);

    const destroyed = await runPkg(cluster.conn, pkg, 'destroy');
    expect(destroyed.result.exitCode).toBe(0);
    const order = actions(destroyed.events);
    expect(order.indexOf('delete Deployment/wordpress Successful')).toBeLessThan(
      order.indexOf('delete StatefulSet/wordpress-mysql Successful'),
    );
    expect(order.indexOf('delete Service/wordpress Successful')).toBeLessThan(
      order.indexOf('delete StatefulSet/wordpress-mysql Successful'),
    );
    expect(
      (await api.request('GET', '/apis/apps/v1/namespaces/default/statefulsets/wordpress-mysql')).status,
    ).toBe(404);
    const rg = await api.request(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/default/resourcegroups/${pkg.inventory.name}`,
    );
    expect(rg.status).toBe(404);
  });
});
