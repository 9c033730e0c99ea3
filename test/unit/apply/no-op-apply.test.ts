import { describe, expect, it } from 'vitest';
import { isNoOpApply } from '../../../src/apply/no-op-apply.js';
import type { KubeObject } from '../../../src/common/kube-object.js';

const ours = 'kpt-live-action';

/** A Role as the API server returns it after our server-side apply. */
function live(): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: {
      name: 'reader',
      namespace: 'team',
      uid: '9c1f',
      resourceVersion: '1818',
      creationTimestamp: '2026-11-22T16:00:00Z',
      labels: { app: 'web' },
      annotations: { 'config.k8s.io/owning-inventory': 'inv-1' },
      managedFields: [
        {
          manager: ours,
          operation: 'Apply',
          apiVersion: 'rbac.authorization.k8s.io/v1',
          time: '2026-11-22T16:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:rules': {} },
        },
      ],
    },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
  };
}

type Edit = (o: KubeObject) => void;

describe('isNoOpApply', () => {
  const cases: { name: string; edit: Edit; liveEdit?: Edit; noOp: boolean }[] = [
    { name: 'the same object', edit: () => {}, noOp: true },
    {
      name: 'only a managedFields timestamp differs',
      edit: (o) => {
        (o.metadata.managedFields as { time: string }[])[0].time = '2026-11-22T17:00:00Z';
      },
      noOp: true,
    },
    {
      name: 'live from a LIST without apiVersion and kind',
      edit: () => {},
      liveEdit: (o) => {
        o.apiVersion = '';
        o.kind = '';
      },
      noOp: true,
    },
    {
      name: 'a rule changes',
      edit: (o) => {
        (o.rules as { verbs: string[] }[])[0].verbs = ['get', 'list'];
      },
      noOp: false,
    },
    {
      name: 'a label is added',
      edit: (o) => {
        o.metadata.labels = { ...o.metadata.labels, tier: 'db' };
      },
      noOp: false,
    },
    {
      name: 'field ownership moves (another manager entry)',
      edit: (o) => {
        (o.metadata.managedFields as unknown[]).push({ manager: 'other', operation: 'Apply', fieldsV1: {} });
      },
      noOp: false,
    },
    {
      name: 'a newer object (resourceVersion moved on since the snapshot)',
      edit: (o) => {
        o.metadata.resourceVersion = '1900';
      },
      noOp: false,
    },
  ];
  it.each(cases)('$name → $noOp', ({ edit, liveEdit, noOp }) => {
    const before = live();
    liveEdit?.(before);
    const after = live();
    edit(after);
    expect(isNoOpApply(before, after)).toBe(noOp);
  });

  it('is never a no-op while a client-side apply still owns fields we would take over', () => {
    const before = live();
    before.metadata.annotations = {
      ...before.metadata.annotations,
      'kubectl.kubernetes.io/last-applied-configuration': '{}',
    };
    (before.metadata.managedFields as unknown[]).push({
      manager: 'kubectl-client-side-apply',
      operation: 'Update',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:rules': {} },
    });
    expect(isNoOpApply(before, structuredClone(before))).toBe(false);
  });
});
