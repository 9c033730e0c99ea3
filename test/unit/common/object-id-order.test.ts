import { describe, expect, it } from 'vitest';
import { compareIds, compareStrings, type ObjectId } from '../../../src/common/object-id.js';

const id = (group: string, kind: string, name: string, namespace = ''): ObjectId => ({
  group,
  kind,
  namespace,
  name,
});

describe('compareIds', () => {
  it('orders by group, kind, namespace, then name', () => {
    const ids = [
      id('rbac.authorization.k8s.io', 'Role', 'b', 'ns'),
      id('apps', 'Deployment', 'z', 'ns'),
      id('', 'ConfigMap', 'a', 'other'),
      id('', 'ConfigMap', 'a', 'ns'),
      id('rbac.authorization.k8s.io', 'Role', 'a', 'ns'),
    ];
    expect([...ids].sort(compareIds)).toEqual([ids[3], ids[2], ids[1], ids[4], ids[0]]);
  });

  it('compares by code unit as Go does, not by locale', () => {
    // a collator puts `a` before `B` and `:` before `.`; Go's string order does neither
    expect(compareIds(id('', 'Bar', 'x'), id('', 'aaa', 'x'))).toBeLessThan(0);
    expect(compareIds(id('', 'K', 'a.b'), id('', 'K', 'a:b'))).toBeLessThan(0);
    expect('a.b'.localeCompare('a:b')).toBeGreaterThan(0);
    expect(compareIds(id('', 'K', 'a', 'ns'), id('', 'K', 'a', 'ns'))).toBe(0);
  });
});

describe('compareStrings', () => {
  it('sorts ISO timestamps oldest first and is antisymmetric', () => {
    const a = '2026-11-25T07:00:00.000Z';
    const b = '2026-11-25T07:00:01.000Z';
    expect(compareStrings(a, b)).toBe(-1);
    expect(compareStrings(b, a)).toBe(1);
    expect(compareStrings(a, a)).toBe(0);
  });
});
