import { describe, expect, it } from 'vitest';
import { patchTowards, takeoverRemovals, withoutPaths } from '../../../src/apply/simulate-takeover.js';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { ownedPaths, setAtPath } from '../../../src/inventory/managed-fields.js';

/**
 * A ConfigMap first applied client-side by `kpt live apply` (manager `kubectl`, Update) with keys a, b and
 * an env-style list, as the dry-run of our apply (which now sets only `a`) answers it: `a` is shared, `b`
 * and the `old` item are still `kubectl`'s alone, `c` belongs to someone else.
 */
function dryRun(): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'settings',
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', keep: 'x' },
      managedFields: [
        {
          manager: 'kubectl',
          operation: 'Update',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:data': { 'f:a': {}, 'f:b': {} },
            'f:metadata': {
              'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} },
            },
            'f:items': { 'k:{"name":"old"}': { '.': {}, 'f:value': {} }, 'k:{"name":"new"}': { '.': {} } },
          },
        },
        {
          manager: 'kpt-live-action',
          operation: 'Apply',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:data': { 'f:a': {} },
            'f:items': { 'k:{"name":"new"}': { '.': {}, 'f:value': {} } },
          },
        },
        {
          manager: 'someone',
          operation: 'Update',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { 'f:c': {} }, 'f:metadata': { 'f:annotations': { 'f:keep': {} } } },
        },
      ],
    },
    data: { a: '1', b: '2', c: '3' },
    items: [
      { name: 'old', value: 'o' },
      { name: 'new', value: 'n' },
    ],
  };
}

describe('client-side takeover simulation', () => {
  it('lists owned paths: leaves and items marked "."', () => {
    expect(ownedPaths({ 'f:a': {}, 'f:l': { 'k:{"name":"x"}': { '.': {}, 'f:v': {} } } })).toEqual([
      ['f:a'],
      ['f:l', 'k:{"name":"x"}'],
      ['f:l', 'k:{"name":"x"}', 'f:v'],
    ]);
  });

  it('removes what only the absorbed managers owned: field b, the old item, the last-applied annotation', () => {
    const removals = takeoverRemovals(dryRun(), new Set(['kubectl']));
    expect(removals).toEqual([
      ['f:data', 'f:b'],
      ['f:metadata', 'f:annotations', 'f:kubectl.kubernetes.io/last-applied-configuration'],
      ['f:items', 'k:{"name":"old"}'],
    ]);
    const after = withoutPaths(dryRun(), removals);
    expect(after.data).toEqual({ a: '1', c: '3' });
    expect(after.items).toEqual([{ name: 'new', value: 'n' }]);
    expect(after.metadata.annotations).toEqual({ keep: 'x' });
  });

  it('removes nothing when no manager is absorbed', () => {
    expect(takeoverRemovals(dryRun(), new Set())).toEqual([]);
  });

  it('leaves a path that is not there alone', () => {
    const o = { a: { b: [{ name: 'x' }] } };
    setAtPath(o, ['f:a', 'f:b', 'k:{"name":"y"}', 'f:z'], undefined);
    setAtPath(o, ['f:q', 'f:r'], undefined);
    expect(o).toEqual({ a: { b: [{ name: 'x' }] } });
    setAtPath(o, ['f:a', 'f:b', 'v:{"name":"x"}'], undefined);
    expect(o).toEqual({ a: { b: [] } });
  });

  it('patches the live object towards the result: user fields, labels and annotations only', () => {
    const live = dryRun();
    const target = withoutPaths(live, [['f:data', 'f:b']]);
    target.metadata.labels = { app: 'x' };
    delete target.items;
    expect(patchTowards(live, target)).toEqual([
      { op: 'add', path: '/data', value: { a: '1', c: '3' } },
      { op: 'remove', path: '/items' },
      { op: 'add', path: '/metadata/labels', value: { app: 'x' } },
      { op: 'add', path: '/metadata/annotations', value: live.metadata.annotations },
    ]);
  });
});
