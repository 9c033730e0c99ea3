import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestClient } from '../../scripts/control-plane/rest.js';
import { ensureResourceGroupCrd } from '../../src/inventory/install-crd.js';
import type { Connection } from '../../src/kube/connect.js';
import {
  configMap,
  controlPlane,
  deployment,
  eventually,
  inlinePackage,
  type Obj,
  type PolicyRule,
  productClient,
  role,
  roleBinding,
  useCluster,
} from '../support/harness/index.js';
import { actions, runPkg } from '../support/run.js';

/** A namespace-scoped identity: a Role in one namespace, nothing cluster-wide (no CRD create, no cluster list/watch). */
async function grantRole(api: RestClient, ns: string, extraRules: Obj[] = []) {
  const all = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
  const rules = [
    { apiGroups: ['apps'], resources: ['deployments'], verbs: all },
    { apiGroups: ['kpt.dev'], resources: ['resourcegroups', 'resourcegroups/status'], verbs: all },
    { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: all },
    ...(extraRules as PolicyRule[]),
  ];
  await api.request(
    'POST',
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`,
    role('deployer', rules),
  );
  await api.request(
    'POST',
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
    roleBinding('deployer', 'deployer', { kind: 'User', name: controlPlane().restrictedUser }),
  );
}

const webDeployment = deployment('web', { replicas: 2, image: 'example/web:1' });
const cm = (name: string) => configMap(name, { v: '1' });

describe('a namespace-scoped user (Role only)', () => {
  const cluster = useCluster({ namespace: false });
  const { api } = cluster;
  let admin: Connection;
  let restricted: Connection;
  beforeAll(async () => {
    admin = await productClient();
    restricted = await productClient(controlPlane().restrictedKubeconfigPath);
    await ensureResourceGroupCrd(admin.client, { install: true });
  });
  afterAll(() => {
    admin.client.close();
    restricted.client.close();
  });

  it('can apply, wait for, and prune a namespaced package', async () => {
    const ns = await cluster.namespace('rbac');
    await grantRole(api, ns, [
      {
        apiGroups: [''],
        resources: ['configmaps'],
        verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
      },
    ]);
    const pkg = inlinePackage(ns, { 'web.yaml': webDeployment, 'a.yaml': cm('a'), 'b.yaml': cm('b') });
    await eventually(async () =>
      (await api.request('GET', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles/deployer`))
        .status === 200
        ? true
        : undefined,
    );
    const first = await runPkg(restricted, pkg, 'apply', {}, ns);
    expect(first.result.error).toBeUndefined();
    expect(first.result.exitCode).toBe(0);
    const web = first.result.run!.objects.find((o) => o.id.name === 'web')!;
    expect(web.reconcile).toBe('Successful');
    expect(web.message).toBe('Deployment is available. Replicas: 2');

    pkg.rewrite({ 'web.yaml': webDeployment, 'a.yaml': cm('a') });
    const second = await runPkg(restricted, pkg, 'apply', {}, ns);
    expect(second.result.exitCode).toBe(0);
    expect(actions(second.events)).toContain('prune ConfigMap/b Successful');
  });

  it('keeps the inventory with what remains when a delete fails during destroy', async () => {
    const ns = await cluster.namespace('rbacdestroy');
    // may delete only ConfigMap "deletable": deleting "protected" is forbidden
    await grantRole(api, ns, [
      {
        apiGroups: [''],
        resources: ['configmaps'],
        verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'],
      },
      { apiGroups: [''], resources: ['configmaps'], verbs: ['delete'], resourceNames: ['deletable'] },
    ]);
    const pkg = inlinePackage(ns, { 'a.yaml': cm('deletable'), 'b.yaml': cm('protected') });
    expect((await runPkg(admin, pkg, 'apply', {}, ns)).result.exitCode).toBe(0);

    const destroyed = await runPkg(restricted, pkg, 'destroy', {}, ns);
    expect(destroyed.result.exitCode).toBe(3);
    const failed = destroyed.events.find((e) => e.type === 'delete' && e.status === 'Failed');
    expect(failed?.type === 'delete' && failed.id.name).toBe('protected');
    expect(failed?.type === 'delete' && failed.error).toMatch(/forbidden/);
    const rg = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${pkg.inventory.name}`,
    );
    expect(rg.status).toBe(200);
    expect(rg.body.spec.resources.map((r: Obj) => r.name)).toEqual(['protected']);
    expect((await api.request('GET', `/api/v1/namespaces/${ns}/configmaps/deletable`)).status).toBe(404);
  });
});
