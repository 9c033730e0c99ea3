import { describe, expect, it } from 'vitest';
import { type ConflictSettings, DefaultConflictSettings } from '../../../src/common/conflict-settings.js';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { classifyManager, isAdoption, type OwnerClass } from '../../../src/inventory/owner-class.js';

const LastApplied = { 'kubectl.kubernetes.io/last-applied-configuration': '{}' };
/** A live object; `helmManager` owns Helm's release annotation, as `helm install` leaves it. */
function live(opts: { lastApplied?: boolean; helmManager?: [string, string] } = {}): KubeObject {
  const managedFields = opts.helmManager
    ? [
        {
          manager: opts.helmManager[0],
          operation: opts.helmManager[1],
          apiVersion: 'apps/v1',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:annotations': { '.': {}, 'f:meta.helm.sh/release-name': {} } } },
        },
      ]
    : [];
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      annotations: {
        ...(opts.lastApplied ? LastApplied : {}),
        ...(opts.helmManager ? { 'meta.helm.sh/release-name': 'shop' } : {}),
      },
      managedFields,
    },
  };
}

type Row = [
  string,
  string,
  string | undefined,
  ReturnType<typeof live>,
  boolean,
  Partial<ConflictSettings>,
  OwnerClass,
];
const plain = live();
const csa = live({ lastApplied: true });
const helm = live({ helmManager: ['helm', 'Update'] });
const flux = live({ helmManager: ['helm-controller', 'Apply'] });

describe('classifyManager: on manager name AND operation AND subresource', () => {
  it.each<Row>([
    // manager, operation, subresource, live, adopting, settings, class
    ['kpt-live-action', 'Apply', undefined, plain, false, {}, 'ours'],
    ['kubectl-client-side-apply', 'Update', undefined, csa, false, {}, 'ours'],
    ['kubectl', 'Update', undefined, csa, false, {}, 'ours'],
    ['kubectl-client-side-apply', 'Update', undefined, plain, false, {}, 'hand-edit'],
    ['kubectl', 'Update', undefined, plain, false, {}, 'hand-edit'],
    ['kubectl', 'Update', 'scale', plain, false, {}, 'co-owner'],
    ['kubectl', 'Update', 'scale', csa, true, {}, 'co-owner'],
    ...['edit', 'patch', 'label', 'annotate', 'set', 'replace', 'create', 'rollout'].map(
      (verb) => [`kubectl-${verb}`, 'Update', undefined, plain, false, {}, 'hand-edit'] as Row,
    ),
    ['before-first-apply', 'Update', undefined, plain, false, {}, 'hand-edit'],
    ['kube-controller-manager', 'Update', 'status', plain, true, {}, 'co-owner'],
    ['kube-controller-manager', 'Update', undefined, plain, true, {}, 'co-owner'],
    ['horizontal-pod-autoscaler', 'Update', 'scale', plain, false, {}, 'co-owner'],
    ['helm', 'Update', undefined, helm, true, {}, 'previous-owner'],
    ['helm', 'Update', undefined, helm, false, {}, 'co-owner'],
    ['helm-controller', 'Apply', undefined, flux, true, {}, 'previous-owner'],
    ['kubectl', 'Apply', undefined, plain, true, {}, 'previous-owner'],
    ['kubectl', 'Apply', undefined, plain, false, {}, 'co-owner'],
    ['argocd-controller', 'Apply', undefined, plain, false, {}, 'co-owner'],
    ['deploy-script', 'Update', undefined, plain, true, {}, 'co-owner'],
    ['deploy-script', 'Update', undefined, plain, false, { take: ['deploy-script'] }, 'hand-edit'],
    ['kubectl-label', 'Update', undefined, plain, false, { keep: ['kubectl-label'] }, 'co-owner'],
    ['helm', 'Update', undefined, helm, true, { keep: ['helm'] }, 'co-owner'],
    ['kubectl', 'Update', 'scale', plain, false, { take: ['kubectl'] }, 'co-owner'],
    ['kpt-live-action', 'Apply', undefined, plain, false, { keep: ['kpt-live-action'] }, 'ours'],
  ])('%s %s %s (adopting %s...) is %s', (manager, operation, subresource, obj, adopting, settings, cls) => {
    const ctx = {
      fieldManager: 'kpt-live-action',
      adopting,
      settings: { ...DefaultConflictSettings, ...settings },
    };
    expect(
      classifyManager({ manager, operation, ...(subresource ? { subresource } : {}) }, obj, ctx).class,
    ).toBe(cls);
  });

  it('says why, for the preview', () => {
    const ctx = { fieldManager: 'kpt-live-action', adopting: true, settings: DefaultConflictSettings };
    expect(classifyManager({ manager: 'helm', operation: 'Update' }, helm, ctx).why).toBe(
      'the manager of Helm release shop',
    );
    expect(
      classifyManager({ manager: 'kubectl', operation: 'Update', subresource: 'scale' }, plain, ctx).why,
    ).toBe('kubectl writes it through the scale subresource');
  });
});

describe('isAdoption', () => {
  const owned = (id?: string) => ({
    metadata: {
      name: 'x',
      annotations: id ? { 'config.k8s.io/owning-inventory': id } : ({} as Record<string, string>),
    },
  });
  it.each([
    ['strict never adopts', owned(), 'strict', false],
    ['adopt takes an object no inventory owns', owned(), 'adopt', true],
    ['force-adopt too', owned(), 'force-adopt', true],
    ['our own object is no adoption', owned('ours'), 'adopt', false],
    ["another inventory's object (force-adopt) is no adoption", owned('theirs'), 'force-adopt', false],
    ['a new object is no adoption', undefined, 'adopt', false],
  ] as const)('%s', (_, obj, policy, want) => {
    expect(isAdoption(obj, 'ours', policy)).toBe(want);
  });
});
