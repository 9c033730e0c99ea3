import { describe, expect, it } from 'vitest';
import { createRestClient } from '../../scripts/control-plane/rest.js';
import {
  configMap,
  controlPlane,
  crd,
  customResource,
  deployment,
  eventually,
  type Obj,
  role,
  roleBinding,
  uniqueName,
  useCluster,
} from '../support/harness/index.js';

/** The foundation's promises: a real API server, a real controller-manager and the kubelet simulator. */
describe('local control plane', () => {
  const cluster = useCluster({ namespace: 'cp' });
  const { api } = cluster;

  it('creates, reads and deletes an object through the real API server', async () => {
    const path = `/api/v1/namespaces/${cluster.ns}/configmaps`;
    const created = await api.request<Obj>('POST', path, configMap('hello', { greeting: 'hi' }));
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
    await api.request('POST', `/api/v1/namespaces/${cluster.ns}/persistentvolumeclaims`, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    const res = await api.request(
      'POST',
      `/apis/apps/v1/namespaces/${cluster.ns}/deployments`,
      withClaim('web', {}, 'data'),
    );
    expect(res.status).toBe(201);

    const pvc = await eventually(
      async () => {
        const r = await api.request<Obj>(
          'GET',
          `/api/v1/namespaces/${cluster.ns}/persistentvolumeclaims/data`,
        );
        return r.body.status?.phase === 'Bound' ? r.body : undefined;
      },
      30_000,
      'PVC Bound',
    );
    expect(pvc.spec.volumeName).toMatch(/^sim-pv-/);

    const dep = await eventually(
      async () => {
        const r = await api.request<Obj>('GET', `/apis/apps/v1/namespaces/${cluster.ns}/deployments/web`);
        const available = (r.body.status?.conditions ?? []).find((c: Obj) => c.type === 'Available');
        return available?.status === 'True' && r.body.status.readyReplicas === 2 ? r.body : undefined;
      },
      60_000,
      'Deployment Available',
    );
    // the real controller-manager wrote this status: a ReplicaSet exists and owns the pods
    expect(dep.status.observedGeneration).toBe(dep.metadata.generation);
    const rs = await api.request<Obj>('GET', `/apis/apps/v1/namespaces/${cluster.ns}/replicasets`);
    expect(rs.body.items.length).toBe(1);
    const pods = await api.request<Obj>('GET', `/api/v1/namespaces/${cluster.ns}/pods`);
    expect(pods.body.items.filter((p: Obj) => p.status.phase === 'Running')).toHaveLength(2);
  });

  it('brings a Deployment whose pods never become ready to ProgressDeadlineExceeded', async () => {
    const dep = withClaim('stuck', { 'sim.kpt-live-action.dev/behavior': 'never-ready' });
    dep.spec.progressDeadlineSeconds = 3;
    expect(
      (await api.request('POST', `/apis/apps/v1/namespaces/${cluster.ns}/deployments`, dep)).status,
    ).toBe(201);
    const cond = await eventually(
      async () => {
        const r = await api.request<Obj>('GET', `/apis/apps/v1/namespaces/${cluster.ns}/deployments/stuck`);
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
    const widgets = crd({
      group,
      kind: 'Widget',
      spec: { type: 'object', properties: { group: { type: 'string' } } },
    });
    expect(
      (await api.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', widgets)).status,
    ).toBe(201);
    const path = `/apis/${group}/v1/namespaces/${cluster.ns}/widgets`;
    const created = await eventually(
      async () => {
        const r = await api.request<Obj>(
          'POST',
          path,
          customResource(`${group}/v1`, 'Widget', 'w', { group: '' }),
        );
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
    const path = `/api/v1/namespaces/${cluster.ns}/configmaps`;
    expect((await restricted.request('GET', path)).status).toBe(403);
    const rules = [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }];
    await api.request(
      'POST',
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${cluster.ns}/roles`,
      role('cm-reader', rules),
    );
    await api.request(
      'POST',
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${cluster.ns}/rolebindings`,
      roleBinding('cm-reader', 'cm-reader', { kind: 'User', name: cp.restrictedUser }),
    );
    await eventually(
      async () => ((await restricted.request('GET', path)).status === 200 ? true : undefined),
      10_000,
      'RBAC',
    );
    expect((await restricted.request('GET', '/api/v1/namespaces/default/configmaps')).status).toBe(403);
  });
});

/** Two replicas of a Deployment, mounting the PersistentVolumeClaim `claim` when given. */
function withClaim(name: string, podAnnotations: Record<string, string>, claim?: string): Obj {
  const d: Obj = deployment(name, { replicas: 2, podAnnotations });
  if (claim) {
    const pod = d.spec.template.spec;
    pod.containers[0].volumeMounts = [{ name: 'd', mountPath: '/d' }];
    pod.volumes = [{ name: 'd', persistentVolumeClaim: { claimName: claim } }];
  }
  return d;
}
