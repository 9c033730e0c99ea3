import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { jsonEqual } from '../../../src/common/json-equal.js';

const role = (over: Record<string, unknown> = {}) => ({
  metadata: { name: 'r', labels: { a: '1' }, managedFields: [{ manager: 'm', fieldsV1: { 'f:rules': {} } }] },
  rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
  ...over,
});

const cases: [string, unknown, unknown][] = [
  ['same object', role(), role()],
  ['keys in another order', { a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 }],
  ['a changed leaf', role(), role({ rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] })],
  ['a missing key', { a: 1, b: 2 }, { a: 1 }],
  ['an extra key', { a: 1 }, { a: 1, b: 2 }],
  ['undefined value against a missing key', { a: 1, b: undefined }, { a: 1 }],
  ['undefined against undefined', { a: undefined }, { a: undefined }],
  ['array against object', { a: [] }, { a: {} }],
  ['array lengths', [1, 2], [1, 2, 3]],
  ['array order', [1, 2], [2, 1]],
  ['null against object', { a: null }, { a: {} }],
  ['null against null', { a: null }, { a: null }],
  ['number against string', { a: 1 }, { a: '1' }],
  ['booleans', [true, false], [true, false]],
  ['NaN', Number.NaN, Number.NaN],
  ['empty containers', { a: {}, b: [] }, { a: {}, b: [] }],
  ['nested difference deep down', { a: { b: { c: { d: 1 } } } }, { a: { b: { c: { d: 2 } } } }],
  ['same key count, other keys', { a: 1, b: 2 }, { a: 1, c: 2 }],
];

describe('jsonEqual', () => {
  it.each(cases)('%s: the same answer as isDeepStrictEqual', (_name, a, b) => {
    expect(jsonEqual(a, b)).toBe(isDeepStrictEqual(a, b));
    expect(jsonEqual(b, a)).toBe(isDeepStrictEqual(b, a));
  });

  it('agrees with isDeepStrictEqual on random JSON values and their one-change mutants', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const value = (depth: number): unknown => {
      const r = rand();
      if (depth > 3 || r < 0.3) return [null, true, 1, 'x', 2.5, ''][Math.floor(rand() * 6)];
      if (r < 0.6) return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1));
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(rand() * 4); i > 0; i--) o[`k${Math.floor(rand() * 5)}`] = value(depth + 1);
      return o;
    };
    const mutate = (v: unknown): unknown => {
      if (Array.isArray(v))
        return v.length && rand() < 0.7 ? v.map((x, i) => (i === 0 ? mutate(x) : x)) : [...v, 1];
      if (v && typeof v === 'object') {
        const keys = Object.keys(v);
        if (!keys.length || rand() < 0.3) return { ...v, extra: 1 };
        const k = keys[Math.floor(rand() * keys.length)];
        return { ...v, [k]: mutate((v as Record<string, unknown>)[k]) };
      }
      return v === 1 ? 2 : 1;
    };
    let differing = 0;
    for (let i = 0; i < 500; i++) {
      const a = value(0);
      const b = rand() < 0.5 ? structuredClone(a) : mutate(a);
      const expected = isDeepStrictEqual(a, b);
      if (!expected) differing++;
      expect(jsonEqual(a, b)).toBe(expected);
    }
    expect(differing).toBeGreaterThan(100);
  });
});
