import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/common/kube-object.js';
import {
  collectSecretValues,
  HIDDEN,
  HIDDEN_CHANGED,
  hiddenMarker,
  redactAnnotations,
  redactSecretPair,
  scrub,
} from '../../../src/preview/redact.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

function secret(
  data?: Record<string, string>,
  stringData?: Record<string, string>,
  annotations?: Record<string, string>,
) {
  const obj: KubeObject = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's', namespace: 'ns' },
    type: 'Opaque',
  };
  if (annotations) obj.metadata.annotations = annotations;
  if (data) obj.data = data;
  if (stringData) obj.stringData = stringData;
  return obj;
}

describe('redactSecretPair', () => {
  it('reports each key by decoded size and replaces every value by a marker', () => {
    const live = secret({ same: b64('unchanged-value'), changed: b64('old-password'), gone: b64('bye!') });
    const desired = secret({
      same: b64('unchanged-value'),
      changed: b64('new-password-longer'),
      added: b64('hello'),
    });
    const { keys, live: l, desired: d } = redactSecretPair(live, desired);
    expect(keys).toEqual([
      { key: 'same', change: 'unchanged', beforeBytes: 15, afterBytes: 15 },
      { key: 'changed', change: 'changed', beforeBytes: 12, afterBytes: 19 },
      { key: 'added', change: 'added', afterBytes: 5 },
      { key: 'gone', change: 'removed', beforeBytes: 4 },
    ]);
    expect(l?.data).toEqual({
      same: '(hidden, 15 bytes)',
      changed: '(hidden, 12 bytes)',
      gone: '(hidden, 4 bytes)',
    });
    expect(d?.data).toEqual({
      same: '(hidden, 15 bytes)',
      changed: '(hidden, 19 bytes, changed)',
      added: '(hidden, 5 bytes)',
    });
  });

  it('folds stringData into data as the API server does: same bytes in either form are unchanged', () => {
    const live = secret({ password: b64('hunter2-hunter2') });
    const desired = secret(undefined, { password: 'hunter2-hunter2', token: 'abcdef' });
    const { keys, desired: d } = redactSecretPair(live, desired);
    expect(keys.map((k) => [k.key, k.change])).toEqual([
      ['password', 'unchanged'],
      ['token', 'added'],
    ]);
    expect(d?.stringData).toBeUndefined();
    expect(d?.data).toEqual({ password: '(hidden, 15 bytes)', token: '(hidden, 6 bytes)' });
  });

  it('lets stringData win over data for the same key', () => {
    const { keys } = redactSecretPair(
      secret({ k: b64('first') }),
      secret({ k: b64('first') }, { k: 'second' }),
    );
    expect(keys).toEqual([{ key: 'k', change: 'changed', beforeBytes: 5, afterBytes: 6 }]);
  });

  it('hides last-applied-configuration and annotations that embed a value, marking changed ones', () => {
    const live = secret({ pw: b64('old-secret-value') }, undefined, {
      'kubectl.kubernetes.io/last-applied-configuration': `{"data":{"pw":"${b64('old-secret-value')}"}}`,
      note: 'copy: old-secret-value',
      owner: 'team-a',
    });
    const desired = secret({ pw: b64('new-secret-value') }, undefined, {
      'kubectl.kubernetes.io/last-applied-configuration': `{"data":{"pw":"${b64('new-secret-value')}"}}`,
      note: `base64 copy: ${b64('new-secret-value')}`,
      owner: 'team-a',
    });
    const { live: l, desired: d } = redactSecretPair(live, desired);
    expect(l?.metadata.annotations).toEqual({
      'kubectl.kubernetes.io/last-applied-configuration': HIDDEN,
      note: HIDDEN,
      owner: 'team-a',
    });
    expect(d?.metadata.annotations).toEqual({
      'kubectl.kubernetes.io/last-applied-configuration': HIDDEN_CHANGED,
      note: HIDDEN_CHANGED,
      owner: 'team-a',
    });
  });

  it('handles a create and a delete (one side missing)', () => {
    expect(redactSecretPair(undefined, secret({ a: b64('abcd') })).keys).toEqual([
      { key: 'a', change: 'added', afterBytes: 4 },
    ]);
    expect(redactSecretPair(secret({ a: b64('abcd') }), undefined).keys).toEqual([
      { key: 'a', change: 'removed', beforeBytes: 4 },
    ]);
  });

  it('leaves other kinds alone except for annotations carrying a given value', () => {
    const cm: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', annotations: { leak: 'x=topsecret', fine: 'ok' } },
      data: { password: 'not a secret, a ConfigMap' },
    };
    const { desired, keys } = redactSecretPair(undefined, cm, ['topsecret']);
    expect(keys).toEqual([]);
    expect(desired).toEqual({ ...cm, metadata: { name: 'c', annotations: { leak: HIDDEN, fine: 'ok' } } });
  });
});

describe('collectSecretValues and scrub', () => {
  it('collects base64, decoded, plain and re-encoded forms, longest first, skipping tiny values', () => {
    const values = collectSecretValues([
      secret({ a: b64('decoded-value') }, { b: 'plain-value', tiny: 'ab' }),
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { c: 'not-collected' } },
      undefined,
    ]);
    expect(new Set(values)).toEqual(
      new Set([b64('decoded-value'), 'decoded-value', 'plain-value', b64('plain-value')]),
    );
    expect(values.map((v) => v.length)).toEqual([...values.map((v) => v.length)].sort((x, y) => y - x));
  });

  it('collects the JSON-escaped form a value takes inside last-applied-configuration', () => {
    expect(collectSecretValues([secret(undefined, { cert: 'line1\nline2' })])).toContain('line1\\nline2');
  });

  it('replaces every occurrence, longer values first', () => {
    expect(scrub('a=hunter22 b=hunter22x c=HUNTER', ['hunter22', 'hunter22x'])).toBe('a=*** b=*** c=HUNTER');
    expect(scrub('nothing here', [])).toBe('nothing here');
  });

  it('marks sizes in singular and plural', () => {
    expect([hiddenMarker(1), hiddenMarker(0), hiddenMarker(23, true)]).toEqual([
      '(hidden, 1 byte)',
      '(hidden, 0 bytes)',
      '(hidden, 23 bytes, changed)',
    ]);
  });

  it('redactAnnotations marks a hidden annotation changed only when the previous value differs', () => {
    const obj = (v: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', annotations: { a: v } },
    });
    expect(
      redactAnnotations(obj('has-secret-1'), ['secret-1'], obj('has-secret-1')).metadata.annotations,
    ).toEqual({ a: HIDDEN });
    expect(redactAnnotations(obj('has-secret-1'), ['secret-1'], obj('other')).metadata.annotations).toEqual({
      a: HIDDEN_CHANGED,
    });
  });
});
