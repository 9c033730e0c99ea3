import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureResourceGroupCrd } from '../../src/inventory/install-crd.js';
import type { Connection } from '../../src/kube/connect.js';
import type { PackageRunResult } from '../../src/pipeline/run-package.js';
import {
  configMap,
  controlPlane,
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

/**
 * A namespace-scoped user (a Role in one namespace, nothing cluster-wide) in the modes
 * that least-privilege.test.ts does not cover (preview, status; apply and prune without list/watch), and
 * what a missing permission looks like: the error must name the verb and the resource, so whoever owns the
 * Role knows which rule to add.
 */
const all = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
const base = [
  { apiGroups: ['kpt.dev'], resources: ['resourcegroups', 'resourcegroups/status'], verbs: all },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: all },
];
const cm = (name: string) => configMap(name, { v: '1' });

describe('least privilege: preview, status, and errors that name the missing permission', () => {
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

  /** A namespace where the restricted user holds exactly `rules`. */
  async function namespaceWithRole(prefix: string, rules: Obj[]): Promise<string> {
    const ns = await cluster.namespace(prefix);
    await api.request(
      'POST',
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`,
      role('deployer', rules as PolicyRule[]),
    );
    await api.request(
      'POST',
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
      roleBinding('deployer', 'deployer', { kind: 'User', name: controlPlane().restrictedUser }),
    );
    // RBAC is cached in the API server: wait until the binding is effective
    await eventually(async () => {
      const review = await api.request<Obj>('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: controlPlane().restrictedUser,
          resourceAttributes: {
            namespace: ns,
            verb: rules[0].verbs[0],
            group: rules[0].apiGroups[0],
            resource: rules[0].resources[0],
          },
        },
      });
      return review.body.status?.allowed ? true : undefined;
    });
    return ns;
  }

  /** Everything a run says about a failure: its error and every failed event's error. */
  const said = (r: { result: PackageRunResult; events: Obj[] }) =>
    [r.result.error ?? '', ...r.events.flatMap((e) => (e.error ? [e.error] : []))].join('\n');

  it('preview, apply, status and prune work with a Role on the package kinds only', async () => {
    const ns = await namespaceWithRole('rbacmodes', [
      ...base,
      { apiGroups: [''], resources: ['configmaps'], verbs: all },
    ]);
    const pkg = inlinePackage(ns, { 'a.yaml': cm('a'), 'b.yaml': cm('b') });
    const preview = await runPkg(restricted, pkg, 'preview', {}, ns);
    expect(preview.result.error).toBeUndefined();
    expect(preview.result.exitCode).toBe(0);
    expect(preview.result.preview?.summary.create).toBe(2);

    expect((await runPkg(restricted, pkg, 'apply', {}, ns)).result.exitCode).toBe(0);
    const status = await runPkg(restricted, pkg, 'status', {}, ns);
    expect(status.result.exitCode).toBe(0);
    expect(status.result.status?.map((s) => `${s.id.name} ${s.status}`).sort()).toEqual([
      'a Current',
      'b Current',
    ]);

    pkg.rewrite({ 'a.yaml': cm('a') });
    const previewPrune = await runPkg(restricted, pkg, 'preview', {}, ns);
    expect(previewPrune.result.preview?.summary.prune).toBe(1);
    const prune = await runPkg(restricted, pkg, 'apply', {}, ns);
    expect(prune.result.exitCode).toBe(0);
    expect(actions(prune.events)).toContain('prune ConfigMap/b Successful');
  });

  it('apply and prune work without watch on the package kinds (polling instead of WATCH)', async () => {
    const ns = await namespaceWithRole('rbacnowatch', [
      ...base,
      {
        apiGroups: [''],
        resources: ['configmaps'],
        verbs: ['get', 'list', 'create', 'update', 'patch', 'delete'],
      },
    ]);
    const pkg = inlinePackage(ns, { 'a.yaml': cm('a'), 'b.yaml': cm('b'), 'c.yaml': cm('c') });
    const first = await runPkg(restricted, pkg, 'apply', {}, ns);
    expect(first.result.error, said(first)).toBeUndefined();
    expect(first.result.exitCode).toBe(0);
    pkg.rewrite({ 'a.yaml': cm('a') });
    const second = await runPkg(restricted, pkg, 'apply', {}, ns);
    expect(second.result.exitCode, said(second)).toBe(0);
    expect(actions(second.events)).toEqual(
      expect.arrayContaining(['prune ConfigMap/b Successful', 'prune ConfigMap/c Successful']),
    );
  });

  it.each([
    {
      what: 'no patch on the package kind: the pre-flight says which verb on which resource',
      rules: [...base, { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
      mode: 'apply' as const,
      expected: /cannot patch resource "configmaps"/,
    },
    {
      what: 'no patch: preview reports the same',
      rules: [...base, { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
      mode: 'preview' as const,
      expected: /cannot patch resource "configmaps"/,
    },
    {
      what: 'no list on ConfigMaps: the legacy ConfigMap inventory lookup says so',
      rules: [
        ...base,
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create', 'patch', 'delete'] },
      ],
      mode: 'apply' as const,
      expected: /cannot list resource "configmaps"/,
    },
    {
      what: 'no access to the inventory kind',
      rules: [
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: all },
        { apiGroups: [''], resources: ['configmaps'], verbs: all },
      ],
      mode: 'apply' as const,
      expected: /cannot (get|list|create) resource "resourcegroups" in API group "kpt\.dev"/,
    },
    {
      what: 'no access to the inventory kind: status',
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: all }],
      mode: 'status' as const,
      expected: /cannot (get|list) resource "resourcegroups" in API group "kpt\.dev"/,
    },
    {
      what: 'no leases: the lock names the verbs and the resource',
      rules: [
        { apiGroups: ['kpt.dev'], resources: ['resourcegroups', 'resourcegroups/status'], verbs: all },
        { apiGroups: [''], resources: ['configmaps'], verbs: all },
      ],
      mode: 'apply' as const,
      expected: /leases\.coordination\.k8s\.io.*cannot (get|create) resource "leases"/s,
    },
  ])('$what', async ({ rules, mode, expected }) => {
    const ns = await namespaceWithRole('rbacerr', rules);
    const pkg = inlinePackage(ns, { 'a.yaml': cm('a') });
    const r = await runPkg(restricted, pkg, mode, {}, ns);
    const reasons = (r.result.preview?.objects ?? []).map((o) => (o as { reason?: string }).reason ?? '');
    const text = [said(r), ...reasons].join('\n');
    expect(r.result.exitCode, text).not.toBe(0);
    expect(text).toMatch(expected);
    expect(text).not.toMatch(/^\s+at /m);
    // nothing of the package reached the cluster
    expect((await api.request('GET', `/api/v1/namespaces/${ns}/configmaps/a`)).status).toBe(404);
  });

  it('a prune the Role may not delete names the verb and resource, and keeps the object inventoried', async () => {
    const ns = await namespaceWithRole('rbacprune', [
      ...base,
      {
        apiGroups: [''],
        resources: ['configmaps'],
        verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'],
      },
    ]);
    const pkg = inlinePackage(ns, { 'a.yaml': cm('a'), 'b.yaml': cm('b') });
    expect((await runPkg(restricted, pkg, 'apply', {}, ns)).result.exitCode).toBe(0);
    pkg.rewrite({ 'a.yaml': cm('a') });
    const r = await runPkg(restricted, pkg, 'apply', {}, ns);
    expect(r.result.exitCode).toBe(3);
    const failed = r.events.find((e) => e.type === 'prune' && e.status === 'Failed');
    expect(failed && 'error' in failed && failed.error).toMatch(/cannot delete resource "configmaps"/);
    const rg = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${pkg.inventory.name}`,
    );
    expect(rg.body.spec.resources.map((x: Obj) => x.name).sort()).toEqual(['a', 'b']);
  });
});
