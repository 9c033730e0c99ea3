import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { KubeApiError } from '../../../src/kube/api-error.js';
import type { WatchEvent } from '../../../src/kube/http-client.js';
import { FakeCluster, readyWorkloads } from '../../support/fake-cluster/index.js';
import { configMap, crd, customResource, deployment } from '../../support/harness/builders.js';

/** Reads, ordinary writes, deletion, discovery and watches of the fake cluster. */

const ns = 'team';
const cmRef = (name: string) => ({ apiVersion: 'v1', group: '', kind: 'ConfigMap', namespace: ns, name });
const depRef = { apiVersion: 'apps/v1', group: 'apps', kind: 'Deployment', namespace: ns, name: 'web' };
const nsRef = (name: string) => ({ apiVersion: 'v1', group: '', kind: 'Namespace', namespace: '', name });

function setup(options: ConstructorParameters<typeof FakeCluster>[0] = {}) {
  const fake = new FakeCluster({ namespaces: [ns], ...options });
  return { fake, c: fake.client() };
}

async function rejection(p: Promise<unknown>): Promise<KubeApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof KubeApiError)) throw new Error(`expected a KubeApiError, got ${String(err)}`);
  return err;
}

describe('fake cluster: reads and ordinary writes', () => {
  it('creates (409 AlreadyExists the second time) and owns every field it set as an Update', async () => {
    const { c } = setup();
    const created = await c.create(configMap('a', { x: '1' }, { namespace: ns }), {
      fieldManager: 'kubectl-create',
    });
    expect(created.metadata.managedFields).toMatchObject([
      { manager: 'kubectl-create', operation: 'Update', fieldsV1: { 'f:data': { '.': {}, 'f:x': {} } } },
    ]);
    const err = await rejection(c.create(configMap('a', {}, { namespace: ns })));
    expect([err.code, err.reason, err.message]).toEqual([
      409,
      'AlreadyExists',
      'create configmaps a: configmaps "a" already exists',
    ]);
  });

  it('answers get of a missing object with undefined, and a missing kind with UnknownKindError', async () => {
    const { c } = setup();
    expect(await c.get(cmRef('none'))).toBeUndefined();
    await expect(c.get({ ...cmRef('x'), apiVersion: 'example.com/v1', kind: 'Widget' })).rejects.toThrow(
      /unknown kind Widget/,
    );
  });

  it('refuses an update with a stale resourceVersion (409) and takes the changed fields for its manager', async () => {
    const { c } = setup();
    const live = await c.apply(configMap('a', { x: '1', y: '1' }, { namespace: ns }), {
      fieldManager: 'ours',
    });
    const stale = { ...live, metadata: { ...live.metadata, resourceVersion: '1' } };
    expect((await rejection(c.replace(stale))).code).toBe(409);
    const edited = await c.replace({ ...live, data: { x: '2', y: '1' } }, { fieldManager: 'kubectl-edit' });
    expect(edited.metadata.managedFields).toMatchObject([
      { manager: 'ours', fieldsV1: { 'f:data': { 'f:y': {} } } },
      { manager: 'kubectl-edit', fieldsV1: { 'f:data': { 'f:x': {} } } },
    ]);
  });

  it('writes status only through replaceStatus (the main resource keeps it), without a new generation', async () => {
    const { c } = setup();
    const live = await c.apply(deployment('web', { namespace: ns }), { fieldManager: 'ours' });
    const withStatus = await c.replaceStatus({ ...live, status: { replicas: 1 }, spec: { replicas: 5 } });
    expect(withStatus.status).toEqual({ replicas: 1 });
    expect((withStatus.spec as { replicas: number }).replicas).toBe(1);
    expect(withStatus.metadata.generation).toBe(1);
    const main = await c.replace({ ...withStatus, status: { replicas: 9 } });
    expect(main.status).toEqual({ replicas: 1 });
  });

  it('fails a JSON patch whose test does not hold with 422, changing nothing', async () => {
    const { fake, c } = setup();
    const live = await c.apply(configMap('a', { x: '1' }, { namespace: ns }), { fieldManager: 'ours' });
    const ops = [
      { op: 'test', path: '/metadata/resourceVersion', value: '1' },
      { op: 'replace', path: '/data/x', value: '2' },
    ];
    const err = await rejection(c.jsonPatch(cmRef('a'), ops, { fieldManager: 'p' }));
    expect([err.code, err.reason]).toEqual([422, 'Invalid']);
    expect(fake.object(cmRef('a'))).toEqual(live);
    ops[0].value = live.metadata.resourceVersion!;
    expect((await c.jsonPatch(cmRef('a'), ops, { fieldManager: 'p' })).data).toEqual({ x: '2' });
  });

  it('takes managedFields a patch writes as given (the client-side apply takeover does that)', async () => {
    const { c } = setup();
    await c.create(configMap('a', { x: '1' }, { namespace: ns }), {
      fieldManager: 'kubectl-client-side-apply',
    });
    const entries = [
      {
        manager: 'ours',
        operation: 'Apply',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:x': {} } },
      },
    ];
    const moved = await c.jsonPatch(
      cmRef('a'),
      [{ op: 'replace', path: '/metadata/managedFields', value: entries }],
      {
        fieldManager: 'ours',
      },
    );
    expect(moved.metadata.managedFields).toEqual(entries);
  });

  it('lists with label and field selectors, PartialObjectMetadata on request, typed items without apiVersion and kind', async () => {
    const { fake, c } = setup();
    fake.seed(
      configMap('a', {}, { namespace: ns, labels: { tier: 'web' } }),
      configMap('b', {}, { namespace: ns }),
    );
    const info = (await c.resolve('v1', 'ConfigMap'))!;
    const web = await c.list(info, ns, { labelSelector: 'tier=web' });
    expect(web.items.map((o) => o.metadata.name)).toEqual(['a']);
    expect(web.items[0].apiVersion).toBeUndefined();
    expect((await c.list(info, ns, { labelSelector: '!tier' })).items.map((o) => o.metadata.name)).toEqual([
      'b',
    ]);
    const byField = await c.list(info, ns, { fieldSelector: 'metadata.name!=a' });
    expect(byField.items.map((o) => o.metadata.name)).toEqual(['b']);
    const meta = await c.list(info, ns, { metadataOnly: true });
    expect(meta.items[0]).toEqual({
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
      metadata: expect.objectContaining({ name: 'a' }),
    });
    expect(meta.resourceVersion).toBe(fake.resourceVersion);
  });
});

describe('fake cluster: deletion', () => {
  it('deletes only with the UID given as precondition (409 otherwise), then answers notfound', async () => {
    const { c } = setup();
    const live = await c.apply(configMap('a', {}, { namespace: ns }), { fieldManager: 'ours' });
    const err = await rejection(c.delete(cmRef('a'), { uid: 'another' }));
    expect([err.code, err.message]).toEqual([
      409,
      `delete configmaps a: Operation cannot be fulfilled on ConfigMap "a": the UID in the precondition (another) does not match the UID in record (${live.metadata.uid}). The object might have been deleted and then recreated`,
    ]);
    expect(await c.delete(cmRef('a'), { uid: live.metadata.uid })).toBe('gone');
    expect(await c.delete(cmRef('a'))).toBe('notfound');
  });

  it('holds an object with a finalizer (pending, deletionTimestamp) until a write removes the finalizer', async () => {
    const { c } = setup();
    await c.apply(configMap('a', {}, { namespace: ns, finalizers: ['example.com/hold'] }), {
      fieldManager: 'ours',
    });
    expect(await c.delete(cmRef('a'))).toBe('pending');
    expect((await c.get(cmRef('a')))?.metadata.deletionTimestamp).toBeDefined();
    await c.jsonPatch(cmRef('a'), [{ op: 'remove', path: '/metadata/finalizers' }]);
    expect(await c.get(cmRef('a'))).toBeUndefined();
  });

  it('a Foreground delete is pending until the garbage collector removed the dependents', async () => {
    const { fake, c } = setup();
    const owner = await c.apply(deployment('web', { namespace: ns }), { fieldManager: 'ours' });
    fake.seed(configMap('child', {}, { namespace: ns }));
    await c.jsonPatch(cmRef('child'), [
      {
        op: 'add',
        path: '/metadata/ownerReferences',
        value: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: owner.metadata.uid }],
      },
    ]);
    expect(await c.delete(depRef, { propagationPolicy: 'Foreground' })).toBe('pending');
    expect((await c.get(depRef))?.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(await c.get(cmRef('child'))).toBeUndefined();
    expect(await c.get(depRef)).toBeUndefined();
  });

  it('a deleted Namespace is Terminating (no new content) for the next request, then goes with its content', async () => {
    const { fake, c } = setup();
    fake.seed(configMap('a', {}, { namespace: 'doomed' }));
    expect(await c.delete(nsRef('doomed'))).toBe('pending');
    expect(fake.object(nsRef('doomed'))?.status).toEqual({ phase: 'Terminating' });
    const err = await rejection(c.create(configMap('b', {}, { namespace: 'doomed' })));
    expect([err.code, err.message]).toEqual([
      403,
      'create configmaps b: configmaps "b" is forbidden: unable to create new content in namespace doomed because it is being terminated',
    ]);
    expect(await c.get(nsRef('doomed'))).toBeUndefined();
    expect(fake.objects((o) => o.metadata.namespace === 'doomed')).toEqual([]);
  });
});

describe('fake cluster: discovery and watches', () => {
  it('serves a CRD’s kind once Established, to a client whose discovery was reset', async () => {
    const { c } = setup();
    expect(await c.resolve('example.com/v1', 'Widget')).toBeUndefined();
    await c.apply(crd({ group: 'example.com', kind: 'Widget' }), { fieldManager: 'ours' });
    const established = await c.get({
      apiVersion: 'apiextensions.k8s.io/v1',
      group: 'apiextensions.k8s.io',
      kind: 'CustomResourceDefinition',
      namespace: '',
      name: 'widgets.example.com',
    });
    const conditions = (established!.status as { conditions: { type: string }[] }).conditions;
    expect(conditions.map((x) => x.type)).toEqual(['NamesAccepted', 'Established']);
    expect(await c.resolve('example.com/v1', 'Widget')).toBeUndefined(); // cached, as the real client caches it
    c.resetDiscovery();
    expect(await c.resolve('example.com/v1', 'Widget')).toMatchObject({
      resource: 'widgets',
      namespaced: true,
    });
    const w = await c.apply(customResource('example.com/v1', 'Widget', 'w', { size: 1 }, { namespace: ns }), {
      fieldManager: 'ours',
    });
    expect(w.metadata.generation).toBe(1);
    expect(
      await c.resolveId({ group: 'example.com', kind: 'Widget', namespace: ns, name: 'w' }),
    ).toBeDefined();
  });

  it('lists the namespaced kinds, and counts one discovery request per group-version', async () => {
    const { fake, c } = setup();
    const kinds = await c.namespacedResources();
    expect(kinds.map((k) => k.kind)).toEqual(expect.arrayContaining(['ConfigMap', 'Deployment', 'Role']));
    expect(kinds.map((k) => k.kind)).not.toContain('Namespace');
    const discoveries = fake.log.count({ op: 'discovery' });
    await c.resolve('apps/v1', 'Deployment');
    expect(fake.log.count({ op: 'discovery' })).toBe(discoveries);
  });

  it('streams changes after a resourceVersion to a watch, and the reconcilers’ status writes', async () => {
    const { c } = setup({ reconcilers: [readyWorkloads] });
    const info = (await c.resolve('apps/v1', 'Deployment'))!;
    const events: WatchEvent[] = [];
    const start = (await c.list(info, ns)).resourceVersion;
    const watch = await c.watch(
      info,
      ns,
      start,
      (e) => events.push(e),
      () => {},
    );
    await c.apply(deployment('web', { namespace: ns }), { fieldManager: 'ours' });
    await until(() => events.length >= 2);
    watch.stop();
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED']);
    const last = events[1].object as KubeObject;
    expect(last.status).toMatchObject({ observedGeneration: 1, availableReplicas: 1 });
  });
});

async function until(probe: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !probe(); i++) await new Promise((r) => setImmediate(r));
  if (!probe()) throw new Error('condition not met');
}
