import { describe, expect, it } from 'vitest';
import { isTransientNetworkError, KubeApiError } from '../../../src/kube/api-error.js';
import { FakeCluster } from '../../support/fake-cluster/index.js';
import { configMap } from '../../support/harness/builders.js';

/** The request log a test reads, the faults it injects, and the state it seeds. */

const ns = 'team';
const ref = (name: string) => ({ apiVersion: 'v1', group: '', kind: 'ConfigMap', namespace: ns, name });
const ours = { fieldManager: 'kpt-live-action' };

describe('fake cluster: request log', () => {
  it('records each request as the real client sends it, and tells dry-runs from writes', async () => {
    const fake = new FakeCluster({ namespaces: [ns] });
    const c = fake.client();
    await c.apply(configMap('a', { x: '1' }, { namespace: ns }), { ...ours, dryRun: true });
    await c.get(ref('a'));
    await c.apply(configMap('a', { x: '1' }, { namespace: ns }), ours);
    await c.delete(ref('a'), { dryRun: true });
    expect(fake.log.lines()).toEqual([
      'GET /api/v1 200',
      'PATCH /api/v1/namespaces/team/configmaps/a?fieldManager=kpt-live-action&dryRun=All 201',
      'GET /api/v1/namespaces/team/configmaps/a 404',
      'PATCH /api/v1/namespaces/team/configmaps/a?fieldManager=kpt-live-action 201',
      'DELETE /api/v1/namespaces/team/configmaps/a 200',
    ]);
    expect(fake.log.writes().map((r) => `${r.op} ${r.name}`)).toEqual(['apply a']);
    expect(fake.object(ref('a'))).toBeDefined(); // the dry-run delete deleted nothing
    expect(fake.log.count({ op: 'apply', dryRun: true })).toBe(1);
    const mark = fake.log.mark();
    await c.get(ref('a'));
    expect(fake.log.since(mark).map((r) => r.op)).toEqual(['get']);
  });
});

describe('fake cluster: faults', () => {
  it('answers a matching request with the injected status, the server having done nothing', async () => {
    const fake = new FakeCluster({ namespaces: [ns] });
    const c = fake.client();
    const fault = fake.faults.fail({ op: 'apply', name: 'a', dryRun: false }, 500, {}, 1);
    const err = await c.apply(configMap('a', {}, { namespace: ns }), ours).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeApiError);
    expect([(err as KubeApiError).code, (err as KubeApiError).reason]).toEqual([500, 'InternalError']);
    expect(fake.object(ref('a'))).toBeUndefined();
    expect(fault.hits).toBe(1);
    await c.apply(configMap('a', {}, { namespace: ns }), ours); // `times` was 1
    expect(fake.log.filter({ op: 'apply' }).map((r) => r.status)).toEqual([500, 201]);
  });

  it('can carry the causes of a real answer (a 409 conflict, a 422)', async () => {
    const fake = new FakeCluster({ namespaces: [ns] });
    const causes = [
      { reason: 'FieldValueInvalid', message: 'Invalid value: 1: field is immutable', field: 'spec.x' },
    ];
    fake.faults.fail({ op: 'apply' }, 422, { message: 'ConfigMap "a" is invalid', causes });
    const err = (await fake
      .client()
      .apply(configMap('a', {}, { namespace: ns }), ours)
      .catch((e) => e)) as KubeApiError;
    expect([err.code, err.reason, err.message, err.causes]).toEqual([
      422,
      'Invalid',
      'apply configmaps a: ConfigMap "a" is invalid',
      causes,
    ]);
  });

  it('holds a request until released (a slow server), then serves it', async () => {
    const fake = new FakeCluster({ namespaces: [ns] });
    const c = fake.client();
    const hang = fake.faults.hang({ op: 'apply' });
    let done = false;
    const pending = c.apply(configMap('a', {}, { namespace: ns }), ours).then(() => {
      done = true;
    });
    expect((await hang.reached).name).toBe('a');
    await new Promise((r) => setTimeout(r, 5));
    expect(done).toBe(false);
    hang.release();
    await pending;
    expect(fake.object(ref('a'))).toBeDefined();
  });

  it('drops the connection before or after the server acted (a lost answer)', async () => {
    const fake = new FakeCluster({ namespaces: [ns] });
    const c = fake.client();
    fake.faults.add({ name: 'before' }, { type: 'reset', when: 'before' });
    fake.faults.add({ name: 'after' }, { type: 'reset', when: 'after' });
    const e1 = await c.apply(configMap('before', {}, { namespace: ns }), ours).catch((e) => e);
    const e2 = await c.apply(configMap('after', {}, { namespace: ns }), ours).catch((e) => e);
    expect([isTransientNetworkError(e1), isTransientNetworkError(e2)]).toEqual([true, true]);
    expect(fake.object(ref('before'))).toBeUndefined();
    expect(fake.object(ref('after'))).toBeDefined();
  });

  it('runs another writer first (a controller racing the request)', async () => {
    const fake = new FakeCluster({ namespaces: [ns] });
    const c = fake.client();
    const live = await c.apply(configMap('a', { x: '1' }, { namespace: ns }), ours);
    const other = fake.client();
    fake.faults.add(
      { op: 'jsonPatch' },
      {
        type: 'before',
        run: () => other.apply(configMap('a', { y: '1' }, { namespace: ns }), { fieldManager: 'controller' }),
      },
      1,
    );
    const ops = [{ op: 'test', path: '/metadata/resourceVersion', value: live.metadata.resourceVersion }];
    const err = (await c.jsonPatch(ref('a'), ops).catch((e) => e)) as KubeApiError;
    expect(err.code).toBe(422);
  });
});

describe('fake cluster: seeds', () => {
  it('stores what a tool left: its manager, the Namespace, and metadata given as is', async () => {
    const fake = new FakeCluster({ namespaces: [] });
    const [seeded] = fake.seed([
      configMap(
        'a',
        { x: '1' },
        { namespace: 'legacy', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } },
      ),
      { manager: 'kubectl-client-side-apply' },
    ]);
    expect(seeded.metadata.managedFields).toMatchObject([
      { manager: 'kubectl-client-side-apply', operation: 'Update' },
    ]);
    expect(fake.object({ kind: 'Namespace', name: 'legacy' })).toBeDefined();
    const dying = configMap('b', {}, { namespace: 'legacy', finalizers: ['example.com/hold'] });
    dying.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    fake.seed(dying);
    expect(fake.object(ref('b'))).toBeUndefined(); // another namespace
    expect(fake.object({ ...ref('b'), namespace: 'legacy' })?.metadata.deletionTimestamp).toBe(
      '2026-01-01T00:00:00Z',
    );
    expect(fake.log.entries).toEqual([]);
  });
});
