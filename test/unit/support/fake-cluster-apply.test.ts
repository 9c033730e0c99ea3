import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { KubeApiError } from '../../../src/kube/api-error.js';
import { FakeCluster } from '../../support/fake-cluster/index.js';
import { configMap, deployment } from '../../support/harness/builders.js';

/** Server-side apply in the fake cluster: ownership, conflicts, removal, dry-run (the parity test holds these to a real server). */

const at = () => new Date('2026-05-01T10:00:00Z');
const ns = 'team';
const cm = (data: Record<string, string>, labels?: Record<string, string>) =>
  configMap('cm', data, { namespace: ns, labels });
const ref = { apiVersion: 'v1', group: '', kind: 'ConfigMap', namespace: ns, name: 'cm' };
const ours = { fieldManager: 'kpt-live-action' };
type Entry = { manager: string; operation: string; fieldsV1: Record<string, unknown> };
const managers = (o?: KubeObject) =>
  ((o?.metadata.managedFields ?? []) as Entry[]).map((e) => `${e.manager}/${e.operation}`).sort();
const fieldsOf = (o: KubeObject | undefined, manager: string) =>
  ((o?.metadata.managedFields ?? []) as Entry[]).find((e) => e.manager === manager)?.fieldsV1;

function setup() {
  const fake = new FakeCluster({ now: at, namespaces: [ns] });
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

describe('fake cluster: server-side apply', () => {
  it('creates with uid, resourceVersion, creationTimestamp and one Apply entry owning what was applied', async () => {
    const { c } = setup();
    const created = await c.apply(cm({ x: '1' }, { app: 'a' }), ours);
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(created.metadata.creationTimestamp).toBe('2026-05-01T10:00:00Z');
    expect(created.metadata.generation).toBeUndefined(); // a ConfigMap keeps none
    expect(created.metadata.managedFields).toEqual([
      {
        manager: 'kpt-live-action',
        operation: 'Apply',
        apiVersion: 'v1',
        time: '2026-05-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:x': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } },
      },
    ]);
  });

  it('keeps the resourceVersion on a no-op apply and moves it on a change', async () => {
    const { c } = setup();
    const first = await c.apply(cm({ x: '1' }), ours);
    const again = await c.apply(cm({ x: '1' }), ours);
    expect(again.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    const changed = await c.apply(cm({ x: '2' }), ours);
    expect(Number(changed.metadata.resourceVersion)).toBeGreaterThan(Number(first.metadata.resourceVersion));
  });

  it('answers 409 with FieldManagerConflict causes for a field another manager set to another value', async () => {
    const { c } = setup();
    await c.apply(cm({ x: '1', y: '1' }), ours);
    await c.jsonPatch(ref, [{ op: 'replace', path: '/data/x', value: '2' }], {
      fieldManager: 'kubectl-patch',
    });
    const err = await rejection(c.apply(cm({ x: '1', y: '1' }), ours));
    expect(err.code).toBe(409);
    expect(err.reason).toBe('Conflict');
    expect(err.message).toBe(
      'apply configmaps cm: Apply failed with 1 conflict: conflict with "kubectl-patch" using v1: .data.x',
    );
    expect(err.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "kubectl-patch" using v1', field: '.data.x' },
    ]);
  });

  it('takes the field over when forced (the other manager loses it)', async () => {
    const { c } = setup();
    await c.apply(cm({ x: '1', y: '1' }), ours);
    await c.jsonPatch(ref, [{ op: 'replace', path: '/data/x', value: '2' }], {
      fieldManager: 'kubectl-patch',
    });
    const forced = await c.apply(cm({ x: '1', y: '1' }), { ...ours, force: true });
    expect(forced.data).toEqual({ x: '1', y: '1' });
    expect(managers(forced)).toEqual(['kpt-live-action/Apply']);
  });

  it('shares a field set to the value it already has (no conflict, both own it)', async () => {
    const { c } = setup();
    await c.create(cm({ x: '1' }), { fieldManager: 'kubectl-create' });
    const shared = await c.apply(cm({ x: '1' }), ours);
    expect(managers(shared)).toEqual(['kpt-live-action/Apply', 'kubectl-create/Update']);
    expect(fieldsOf(shared, 'kubectl-create')).toEqual({ 'f:data': { '.': {}, 'f:x': {} } });
  });

  it('removes a field dropped from the apply, and the map it leaves empty, unless another manager owns it', async () => {
    const { c } = setup();
    await c.apply(cm({ x: '1', y: '1' }, { app: 'a' }), ours);
    const dropped = await c.apply(cm({ x: '1' }), ours);
    expect(dropped.data).toEqual({ x: '1' });
    expect(dropped.metadata.labels).toBeUndefined();

    await c.apply(cm({ x: '1', y: '1' }), ours);
    await c.apply(cm({ y: '1' }), { fieldManager: 'helm' });
    const kept = await c.apply(cm({ x: '1' }), ours);
    expect(kept.data).toEqual({ x: '1', y: '1' });
    expect(managers(kept)).toEqual(['helm/Apply', 'kpt-live-action/Apply']);
  });

  it('keys containers by name: a conflict names the list item, and a new container is added after the others', async () => {
    const { c } = setup();
    await c.apply(deployment('web', { namespace: ns, image: 'web:1', containerPort: 80 }), {
      fieldManager: 'helm',
    });
    const err = await rejection(c.apply(deployment('web', { namespace: ns, image: 'web:2' }), ours));
    expect(err.causes).toEqual([
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "helm"',
        field: '.spec.template.spec.containers[name="main"].image',
      },
    ]);
    const sidecar = deployment('web', { namespace: ns, image: 'web:1' });
    (sidecar.spec as { template: { spec: { containers: unknown[] } } }).template.spec.containers.push({
      name: 'sidecar',
      image: 'proxy:1',
    });
    const both = await c.apply(sidecar, ours);
    const containers = (both.spec as { template: { spec: { containers: { name: string }[] } } }).template.spec
      .containers;
    expect(containers.map((x) => x.name)).toEqual(['main', 'sidecar']);
    expect(fieldsOf(both, 'kpt-live-action')).toMatchObject({
      'f:spec': {
        'f:template': {
          'f:spec': {
            'f:containers': {
              'k:{"name":"main"}': { '.': {}, 'f:image': {}, 'f:name': {} },
              'k:{"name":"sidecar"}': { '.': {}, 'f:image': {}, 'f:name': {} },
            },
          },
        },
      },
    });
  });

  it('bumps generation on a spec change only, never for metadata', async () => {
    const { c } = setup();
    const first = await c.apply(deployment('web', { namespace: ns, image: 'web:1' }), ours);
    expect(first.metadata.generation).toBe(1);
    const labelled = await c.apply(
      deployment('web', { namespace: ns, image: 'web:1', labels: { a: 'b' } }),
      ours,
    );
    expect(labelled.metadata.generation).toBe(1);
    const changed = await c.apply(
      deployment('web', { namespace: ns, image: 'web:2', labels: { a: 'b' } }),
      ours,
    );
    expect(changed.metadata.generation).toBe(2);
  });

  it('answers a dry-run as the write would, storing nothing (a dry-run create has no resourceVersion)', async () => {
    const { fake, c } = setup();
    const created = await c.apply(cm({ x: '1' }), { ...ours, dryRun: true });
    expect(created.data).toEqual({ x: '1' });
    expect(created.metadata.resourceVersion).toBeUndefined();
    expect(fake.object(ref)).toBeUndefined();

    const live = await c.apply(cm({ x: '1' }), ours);
    const answer = await c.apply(cm({ x: '2' }), { ...ours, dryRun: true });
    expect(answer.data).toEqual({ x: '2' });
    expect(answer.metadata.resourceVersion).toBe(live.metadata.resourceVersion);
    expect(fake.object(ref)?.data).toEqual({ x: '1' });
  });

  it('refuses an apply into a Namespace that does not exist (404, as a package that brings its Namespace meets)', async () => {
    const { c } = setup();
    const err = await rejection(
      c.apply(configMap('cm', {}, { namespace: 'later' }), { ...ours, dryRun: true }),
    );
    expect([err.code, err.message]).toEqual([404, 'apply configmaps cm: namespaces "later" not found']);
  });

  it('answers 422 for a changed immutable field (a Deployment selector)', async () => {
    const { c } = setup();
    await c.apply(deployment('web', { namespace: ns }), ours);
    const err = await rejection(c.apply(deployment('web', { namespace: ns, app: 'other' }), ours));
    expect(err.code).toBe(422);
    expect(err.causes.map((x) => x.field)).toEqual(['spec.selector']);
    expect(err.message).toContain('field is immutable');
  });
});
