import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/common/kube-object.js';
import {
  carries,
  jsonEqual,
  mayHaveLanded,
  patchHolds,
  writeLanded,
  writeOnce,
} from '../../../src/kube/ambiguous-write.js';
import { KubeApiError, parseRetryAfter } from '../../../src/kube/api-error.js';

const fast = { attempts: 5, baseDelayMs: 1, maxDelayMs: 2, budgetMs: 5000 };
const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const lease = (holder: string, rv = '1'): KubeObject => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'lock', namespace: 'ns', resourceVersion: rv },
  spec: { holderIdentity: holder, leaseDurationSeconds: 30 },
});

describe('mayHaveLanded', () => {
  it.each([
    ['a reset connection', reset(), true],
    ['a 500', new KubeApiError(500, 'InternalError', 'etcd'), true],
    ['a 503', new KubeApiError(503, 'ServiceUnavailable', 'busy'), true],
    ['a 429 (the server did nothing)', new KubeApiError(429, 'TooManyRequests', 'slow'), false],
    ['a 409', new KubeApiError(409, 'AlreadyExists', 'exists'), false],
    ['a 422', new KubeApiError(422, 'Invalid', 'bad'), false],
    [
      'a deterministic 500',
      new KubeApiError(500, '', 'failed to create typed patch object: .spec: bad'),
      false,
    ],
  ])('%s → %s', (_name, err, expected) => expect(mayHaveLanded(err)).toBe(expected));
});

describe('comparing what was sent with what reads back', () => {
  it.each([
    ['defaults added by the server', { a: 1 }, { a: 1, b: 2 }, true, false],
    ['a changed value', { a: 1 }, { a: 2 }, false, false],
    ['a field we removed is still there', {}, { a: 1 }, true, false],
    ['arrays of another length', { l: [1] }, { l: [1, 2] }, false, false],
    ['array elements with defaults', { l: [{ p: 80 }] }, { l: [{ p: 80, protocol: 'TCP' }] }, true, false],
    ['undefined members are not sent', { a: 1, b: undefined }, { a: 1 }, true, true],
    ['an empty object and nothing', {}, undefined, true, false],
    ['equal', { a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] }, true, true],
  ])('%s', (_name, sent, live, subset, equal) => {
    expect(carries(sent, live)).toBe(subset);
    expect(jsonEqual(sent, live)).toBe(equal);
  });

  it('a create counts as landed when the live object carries the body, labels and annotations', () => {
    const sent = lease('me');
    delete sent.metadata.resourceVersion;
    const live = { ...lease('me', '7'), metadata: { ...lease('me', '7').metadata, uid: 'u1' } };
    expect(writeLanded(sent, live, 'create')).toBe(true);
    expect(writeLanded(sent, lease('someone-else', '7'), 'create')).toBe(false);
    const labelled = { ...sent, metadata: { ...sent.metadata, labels: { a: 'b' } } };
    expect(writeLanded(labelled, live, 'create')).toBe(false);
  });

  it('a replace counts only when the whole body is equal (a removed field still present is not landed)', () => {
    const sent: KubeObject = { apiVersion: 'v1', kind: 'X', metadata: { name: 'a' }, spec: {} };
    const live: KubeObject = { ...sent, spec: { resources: [{ name: 'b' }] } };
    expect(writeLanded(sent, live, 'replace')).toBe(false);
    expect(writeLanded(sent, { ...sent, metadata: { name: 'a', resourceVersion: '9' } }, 'replace')).toBe(
      true,
    );
    expect(writeLanded({ ...sent, spec: undefined }, { ...sent, data: { x: '1' } }, 'replace')).toBe(false);
  });

  it('a status write compares only the status', () => {
    const sent: KubeObject = { apiVersion: 'v1', kind: 'X', metadata: { name: 'a' }, status: { n: 1 } };
    expect(writeLanded(sent, { ...sent, spec: { other: true } }, 'status')).toBe(true);
    expect(writeLanded(sent, { ...sent, status: { n: 2 } }, 'status')).toBe(false);
  });

  it.each([
    ['a removed annotation that is gone', [{ op: 'remove', path: '/metadata/annotations/a~1b' }], {}, true],
    [
      'a removed annotation that is still there',
      [{ op: 'remove', path: '/metadata/annotations/a~1b' }],
      { 'a/b': 'x' },
      false,
    ],
    [
      'a replaced value in place (the test op is a precondition only)',
      [
        { op: 'test', path: '/metadata/resourceVersion', value: 'old' },
        { op: 'replace', path: '/metadata/annotations/k', value: 'v' },
      ],
      { k: 'v' },
      true,
    ],
    [
      'a replaced value not there',
      [{ op: 'replace', path: '/metadata/annotations/k', value: 'v' }],
      {},
      false,
    ],
    ['only tests', [{ op: 'test', path: '/metadata/name', value: 'a' }], {}, false],
  ])('patchHolds: %s', (_name, ops, annotations, expected) => {
    const live: KubeObject = { apiVersion: 'v1', kind: 'X', metadata: { name: 'a', annotations } };
    expect(patchHolds(ops, live)).toBe(expected);
  });
});

/** A one-object server: `landFirst` decides whether the first request lands before its answer is lost. */
function flakyServer(initial: KubeObject | undefined, failures: ('reset-after' | 'reset-before' | '503')[]) {
  let stored = initial;
  let rv = Number(initial?.metadata.resourceVersion ?? 0);
  const plan = [...failures];
  const calls = { send: 0, read: 0 };
  return {
    calls,
    get stored() {
      return stored;
    },
    create(obj: KubeObject) {
      return async () => {
        calls.send++;
        const fault = plan.shift();
        if (fault === 'reset-before' || fault === '503') {
          throw fault === '503' ? new KubeApiError(503, 'ServiceUnavailable', 'busy') : reset();
        }
        if (stored) throw new KubeApiError(409, 'AlreadyExists', 'already exists');
        stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++rv), uid: 'u' } };
        if (fault === 'reset-after') throw reset();
        return stored;
      };
    },
    replace(obj: KubeObject) {
      return async () => {
        calls.send++;
        const fault = plan.shift();
        if (fault === 'reset-before' || fault === '503') throw reset();
        if (stored?.metadata.resourceVersion !== obj.metadata.resourceVersion)
          throw new KubeApiError(409, 'Conflict', 'the object has been modified');
        stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++rv) } };
        if (fault === 'reset-after') throw reset();
        return stored;
      };
    },
    readBack: async () => {
      calls.read++;
      return stored;
    },
  };
}

describe('writeOnce', () => {
  it('a create whose answer was lost is found by reading back, not failed as AlreadyExists', async () => {
    const server = flakyServer(undefined, ['reset-after']);
    const sent = lease('me');
    delete sent.metadata.resourceVersion;
    const out = await writeOnce(
      server.create(sent),
      server.readBack,
      (l) => writeLanded(sent, l, 'create'),
      fast,
    );
    expect(out.spec).toEqual(sent.spec);
    expect(server.calls.send).toBe(1);
  });

  it('a create that never reached the server is sent again', async () => {
    const server = flakyServer(undefined, ['reset-before', '503']);
    const sent = lease('me');
    delete sent.metadata.resourceVersion;
    await writeOnce(server.create(sent), server.readBack, (l) => writeLanded(sent, l, 'create'), fast);
    expect(server.calls.send).toBe(3);
    expect(server.stored?.spec).toEqual(sent.spec);
  });

  it('someone else holding the name is still a conflict after an uncertain attempt', async () => {
    const server = flakyServer(lease('other', '3'), ['reset-before']);
    const sent = lease('me');
    delete sent.metadata.resourceVersion;
    await expect(
      writeOnce(server.create(sent), server.readBack, (l) => writeLanded(sent, l, 'create'), fast),
    ).rejects.toMatchObject({ code: 409 });
    expect(server.stored?.spec).toEqual(lease('other').spec);
  });

  it('a PUT with resourceVersion whose answer was lost is not turned into a 409', async () => {
    const server = flakyServer(lease('me', '5'), ['reset-after']);
    const renewed = {
      ...lease('me', '5'),
      spec: { holderIdentity: 'me', leaseDurationSeconds: 30, renewTime: 't2' },
    };
    const out = await writeOnce(
      server.replace(renewed),
      server.readBack,
      (l) => writeLanded(renewed, l, 'replace'),
      fast,
    );
    expect(out.metadata.resourceVersion).toBe('6');
    expect(server.calls.send).toBe(1);
  });

  it('a PUT that lost a real race still fails with 409', async () => {
    const server = flakyServer(lease('other', '9'), []);
    const mine = lease('me', '5');
    await expect(
      writeOnce(server.replace(mine), server.readBack, (l) => writeLanded(mine, l, 'replace'), fast),
    ).rejects.toMatchObject({ code: 409 });
    expect(server.calls.read).toBe(0); // nothing uncertain happened: no read-back needed
  });
});

describe('parseRetryAfter', () => {
  it.each([
    ['3', 3],
    [' 0 ', 0],
    ['Wed, 21 Oct 2015 07:28:05 GMT', 5],
    ['soon', undefined],
    [undefined, undefined],
  ])('%s → %s', (value, expected) => {
    expect(parseRetryAfter(value, Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(expected);
  });
});
