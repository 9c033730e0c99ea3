import { beforeAll, describe, expect, it } from 'vitest';
import { createRestClient, type RestClient } from '../../scripts/control-plane/rest.js';
import { adminClient, controlPlane, createNamespace, eventually, uniqueName } from '../support/cluster.js';

// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from the API server
type Obj = Record<string, any>;

/** The foundation's promises: a real API server, a real controller-manager and the kubelet simulator. */
describe('local control plane', () => {
  let api: RestClient;
  let ns: string;

  beforeAll(async () => {
    api = adminClient();
    ns = await createNamespace(api, 'cp');
  });

  it('creates, reads and deletes an object through the real API server', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const created = await api.request<Obj>('POST', path, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'hello' },
      data: { greeting: 'hi' },
    });
    expect(created.status).toBe(201);
    const read = await api.request<Obj>('GET', `${path}/hello`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ greeting: 'hi' });
    expect(read.body.metadata.uid).toBe(created.body.metadata.uid);
    const del = await api.request('DELETE', `${path}/hello`);
    expect(del.status).toBe(200);
    expect((await api.request('GET', `${path}/hello`)).status).toBe(404);
  });

  it('brings a Deployment with a PVC to Available and the PVC to Bound', async () => {
    await api.request('POST', `/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    const res = await api.request(
      'POST',
      `/apis/apps/v1/namespaces/${ns}/deployments`,
      deployment('web', {}, 'data'),
    );
    expect(res.status).toBe(201);

    const pvc = await eventually(
      async () => {
        const r = await api.request<Obj>('GET', `/api/v1/namespaces/${ns}/persistentvolumeclaims/data`);
        return r.body.status?.phase === 'Bound' ? r.body : undefined;
      },
      30_000,
      'PVC Bound',
    );
    expect(pvc.spec.volumeName).toMatch(/^sim-pv-/);

    const dep = await eventually(
      async () => {
        const r = await api.request<Obj>('GET', `/apis/apps/v1/namespaces/${ns}/deployments/web`);
        const available = (r.body.status?.conditions ?? []).find((c: Obj) => c.type === 'Available');
        return available?.status === 'True' && r.body.status.readyReplicas === 2 ? r.body : undefined;
      },
      60_000,
      'Deployment Available',
    );
    // the real controller-manager wrote this status: a ReplicaSet exists and owns the pods
    expect(dep.status.observedGeneration).toBe(dep.metadata.generation);
    const rs = await api.request<Obj>('GET', `/apis/apps/v1/namespaces/${ns}/replicasets`);
    expect(rs.body.items.length).toBe(1);
    const pods = await api.request<Obj>('GET', `/api/v1/namespaces/${ns}/pods`);
    expect(pods.body.items.filter((p: Obj) => p.status.phase === 'Running')).toHaveLength(2);
  });

  it('brings a Deployment whose pods never become ready to ProgressDeadlineExceeded', async () => {
    const dep = deployment('stuck', { 'sim.kpt-live-action.dev/behavior': 'never-ready' });
    dep.spec.progressDeadlineSeconds = 3;
    expect((await api.request('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, dep)).status).toBe(201);
    const cond = await eventually(
      async () => {
        const r = await api.request<Obj>('GET', `/apis/apps/v1/namespaces/${ns}/deployments/stuck`);
        const progressing = (r.body.status?.conditions ?? []).find((c: Obj) => c.type === 'Progressing');
        return progressing?.reason === 'ProgressDeadlineExceeded' ? progressing : undefined;
      },
      60_000,
      'ProgressDeadlineExceeded',
    );
    expect(cond.status).toBe('False');
  });

  it('stores a custom resource whose string field is "" (the Go 1.19 build trap)', async () => {
    const group = `${uniqueName('trap')}.example.com`;
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `widgets.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { spec: { type: 'object', properties: { group: { type: 'string' } } } },
              },
            },
          },
        ],
      },
    };
    expect(
      (await api.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status,
    ).toBe(201);
    const path = `/apis/${group}/v1/namespaces/${ns}/widgets`;
    const created = await eventually(
      async () => {
        const r = await api.request<Obj>('POST', path, {
          apiVersion: `${group}/v1`,
          kind: 'Widget',
          metadata: { name: 'w' },
          spec: { group: '' },
        });
        if (r.status === 404) return undefined; // CRD not established yet
        return r;
      },
      30_000,
      'CRD established',
    );
    expect(created.body).toMatchObject({ spec: { group: '' } });
    expect(created.status).toBe(201);
    await api.request('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${group}`);
  });

  it('has a second user who can do nothing until a Role allows it', async () => {
    const cp = controlPlane();
    const restricted = createRestClient(cp.server, cp.restrictedToken);
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    expect((await restricted.request('GET', path)).status).toBe(403);
    await api.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'cm-reader' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
    });
    await api.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'cm-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: cp.restrictedUser }],
    });
    await eventually(
      async () => ((await restricted.request('GET', path)).status === 200 ? true : undefined),
      10_000,
      'RBAC',
    );
    expect((await restricted.request('GET', '/api/v1/namespaces/default/configmaps')).status).toBe(403);
  });
});

function deployment(name: string, podAnnotations: Record<string, string>, claim?: string): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, annotations: podAnnotations },
        spec: {
          containers: [
            {
              name: 'main',
              image: 'example/app:1',
              volumeMounts: claim ? [{ name: 'd', mountPath: '/d' }] : [],
            },
          ],
          volumes: claim ? [{ name: 'd', persistentVolumeClaim: { claimName: claim } }] : [],
        },
      },
    },
  };
}
