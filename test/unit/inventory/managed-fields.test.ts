import { describe, expect, it } from 'vitest';
import {
  fieldName,
  fieldSetOf,
  mergeFieldSets,
  ownedPaths,
  valueAtPath,
  withoutFieldPaths,
} from '../../../src/inventory/managed-fields.js';
import { movedManagedFields, ownershipPatch } from '../../../src/inventory/ownership-rewrite.js';

describe('fieldName: a FieldsV1 path as the server names it in a conflict', () => {
  it.each([
    [['f:spec', 'f:replicas'], '.spec.replicas'],
    [
      ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"web"}', 'f:image'],
      '.spec.template.spec.containers[name="web"].image',
    ],
    [['f:spec', 'f:ports', 'k:{"port":80,"protocol":"TCP"}'], '.spec.ports[port=80,protocol="TCP"]'],
    [['f:metadata', 'f:finalizers', 'v:"example.com/hold"'], '.metadata.finalizers[="example.com/hold"]'],
    [['f:spec', 'f:args', 'i:2'], '.spec.args[2]'],
    [
      ['f:metadata', 'f:annotations', 'f:meta.helm.sh/release-name'],
      '.metadata.annotations.meta.helm.sh/release-name',
    ],
  ])('%j is %s', (path, name) => {
    expect(fieldName(path)).toBe(name);
  });
});

const tree = {
  'f:data': { '.': {}, 'f:a': {}, 'f:b': {} },
  'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
};

describe('FieldsV1 trees', () => {
  it('ownedPaths and fieldSetOf are inverses (a node owned with fields under it is marked ".")', () => {
    expect(fieldSetOf(ownedPaths(tree))).toEqual(tree);
  });

  it('withoutFieldPaths drops leaves and item nodes, and nodes left empty', () => {
    expect(withoutFieldPaths(tree, [['f:data', 'f:a'], ['f:data', 'f:b'], ['f:data']])).toEqual({
      'f:spec': tree['f:spec'],
    });
    const item = ['f:spec', 'f:containers', 'k:{"name":"web"}'];
    expect(withoutFieldPaths(tree, [item])).toEqual({
      'f:data': tree['f:data'],
      'f:spec': { 'f:containers': { 'k:{"name":"web"}': { 'f:image': {}, 'f:name': {} } } },
    });
  });

  it('withoutFieldPaths drops a node owned with fields under it once they all go (alone it would read as the whole node)', () => {
    expect(
      withoutFieldPaths(tree, [
        ['f:data', 'f:a'],
        ['f:data', 'f:b'],
      ]),
    ).toEqual({ 'f:spec': tree['f:spec'] });
    const labels = { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {}, 'f:team': {} } } };
    expect(withoutFieldPaths(labels, [['f:metadata', 'f:labels', 'f:app']])).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:team': {} } },
    });
    // a leaf the server wrote as owned on its own (an empty struct) is kept
    expect(withoutFieldPaths({ 'f:spec': { 'f:resources': {}, 'f:x': {} } }, [['f:spec', 'f:x']])).toEqual({
      'f:spec': { 'f:resources': {} },
    });
  });

  it('mergeFieldSets keeps a node one side owns as a leaf and the other has fields under', () => {
    expect(
      mergeFieldSets(
        { 'f:spec': { 'f:resources': {} } },
        { 'f:spec': { 'f:resources': { 'f:limits': {} } } },
      ),
    ).toEqual({
      'f:spec': { 'f:resources': { '.': {}, 'f:limits': {} } },
    });
  });

  it('valueAtPath follows keyed and valued list items', () => {
    const obj = {
      spec: { containers: [{ name: 'db' }, { name: 'web', image: 'nginx' }] },
      metadata: { finalizers: ['a', 'b'] },
    };
    expect(valueAtPath(obj, ['f:spec', 'f:containers', 'k:{"name":"web"}', 'f:image'])).toBe('nginx');
    expect(valueAtPath(obj, ['f:metadata', 'f:finalizers', 'v:"b"'])).toBe('b');
    expect(valueAtPath(obj, ['f:spec', 'f:containers', 'i:0', 'f:name'])).toBe('db');
    expect(valueAtPath(obj, ['f:spec', 'f:containers', 'k:{"name":"api"}', 'f:image'])).toBeUndefined();
  });
});

describe('movedManagedFields', () => {
  const now = new Date('2026-11-26T15:00:00Z');
  const live = {
    metadata: {
      name: 'cm',
      resourceVersion: '42',
      managedFields: [
        { manager: 'helm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: tree },
        {
          manager: 'kubectl-patch',
          operation: 'Update',
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { 'f:c': {} } },
        },
      ],
    },
  };

  it('moves some paths to our Apply entry (made when missing), keeps the rest of the entry, drops an emptied one', () => {
    const out = movedManagedFields(
      live,
      [
        { from: { manager: 'helm', operation: 'Update' }, paths: [['f:data', 'f:a']] },
        { from: { manager: 'kubectl-patch', operation: 'Update' }, paths: [['f:data', 'f:c']] },
      ],
      'me',
      'v1',
      now,
    );
    expect(out).toEqual([
      { ...live.metadata.managedFields[0], fieldsV1: withoutFieldPaths(tree, [['f:data', 'f:a']]) },
      {
        manager: 'me',
        operation: 'Apply',
        apiVersion: 'v1',
        time: '2026-11-26T15:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {}, 'f:c': {} } },
      },
    ]);
  });

  it('is undefined when nothing moves (no such entry, or it holds none of the paths)', () => {
    expect(movedManagedFields(live, [], 'me', 'v1')).toBeUndefined();
    expect(
      movedManagedFields(live, [{ from: { manager: 'helm', operation: 'Apply' }, paths: 'all' }], 'me', 'v1'),
    ).toBeUndefined();
    expect(
      movedManagedFields(
        live,
        [{ from: { manager: 'helm', operation: 'Update' }, paths: [['f:x']] }],
        'me',
        'v1',
      ),
    ).toBeUndefined();
  });

  it('ownershipPatch writes it only onto the resourceVersion it was computed from', () => {
    expect(ownershipPatch(live, [])).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '42' },
      { op: 'replace', path: '/metadata/managedFields', value: [] },
    ]);
  });
});
