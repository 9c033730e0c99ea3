import { describe, expect, it } from 'vitest';
import { pruneDecision } from '../../../src/apply/prune-wave.js';
import { defaultRunOptions, type RunOptions } from '../../../src/apply/run-options.js';
import type { ObjectOutcome } from '../../../src/apply/run-result.js';
import { newRunState, type RunState } from '../../../src/apply/run-state.js';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { idKey, idOf } from '../../../src/common/object-id.js';
import type { ClusterClient } from '../../../src/kube/cluster-client.js';
import { buildPlan } from '../../../src/plan/plan.js';

const OWNING = 'config.k8s.io/owning-inventory';
const DEPENDS_ON = 'config.kubernetes.io/depends-on';

const obj = (
  kind: string,
  name: string,
  opts: {
    namespace?: string;
    owner?: string | null;
    annotations?: Record<string, string>;
    uid?: string;
  } = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind,
  metadata: {
    name,
    ...(kind === 'Namespace' ? {} : { namespace: opts.namespace ?? 'shop' }),
    uid: opts.uid ?? `uid-${kind}-${name}`,
    annotations: {
      ...(opts.owner === null ? {} : { [OWNING]: opts.owner ?? 'inv-id' }),
      ...opts.annotations,
    },
  },
});

/**
 * The state a prune wave sees: the package (`desired`), the inventory objects no longer in it (`prune`,
 * live), what happened to objects earlier in the run (`outcomes`, `applied` UIDs). The
 * cluster is never asked: a stand-in client that fails any call proves it.
 */
function stateFor(opts: {
  desired?: KubeObject[];
  prune: KubeObject[];
  options?: Partial<RunOptions>;
  outcomes?: ObjectOutcome[];
  appliedUids?: string[];
}): RunState {
  const desired = opts.desired ?? [];
  const live = new Map<string, KubeObject | null>();
  for (const o of desired) live.set(idKey(idOf(o)), null);
  for (const o of opts.prune) live.set(idKey(idOf(o)), o);
  const noCluster = new Proxy({} as ClusterClient, {
    get: (_t, name) => () => {
      throw new Error(`pruneDecision must not call the cluster (${String(name)})`);
    },
  });
  const state = newRunState(
    {
      client: noCluster,
      options: defaultRunOptions({ prune: true, ...opts.options }),
      inventory: { name: 'inv', namespace: 'shop', id: 'inv-id' },
      emit: () => {},
      plan: buildPlan({ apply: desired, prune: opts.prune }),
      manifests: new Map(desired.map((o) => [idKey(idOf(o)), o])),
      sources: new Map(),
      live,
      previous: new Map(opts.prune.map((o) => [idKey(idOf(o)), idOf(o)])),
    },
    Date.now(),
  );
  for (const o of opts.outcomes ?? []) state.outcomes.set(idKey(o.id), o);
  for (const [i, uid] of (opts.appliedUids ?? []).entries())
    state.applied.set(`applied-${i}`, { uid, touched: true, hasStatus: false });
  return state;
}

const cm = (name: string, opts: Parameters<typeof obj>[2] = {}) => obj('ConfigMap', name, opts);
const dependsOnCm = (name: string) => ({ [DEPENDS_ON]: `/namespaces/shop/ConfigMap/${name}` });

describe('pruneDecision (cli-utils prune filters, in their order)', () => {
  const cases: {
    name: string;
    state: () => RunState;
    target: KubeObject;
    want: ReturnType<typeof pruneDecision>;
  }[] = [
    {
      name: 'ours, nothing in the way: deleted',
      target: cm('old'),
      state: () => stateFor({ prune: [cm('old')] }),
      want: undefined,
    },
    {
      name: 'on-remove: keep: abandoned (forgotten, not deleted)',
      target: cm('kept', { annotations: { 'cli-utils.sigs.k8s.io/on-remove': 'keep' } }),
      state: () =>
        stateFor({ prune: [cm('kept', { annotations: { 'cli-utils.sigs.k8s.io/on-remove': 'keep' } })] }),
      want: {
        skip: 'annotation prevents deletion ("cli-utils.sigs.k8s.io/on-remove": "keep")',
        reason: { type: 'annotation', key: 'cli-utils.sigs.k8s.io/on-remove', value: 'keep' },
        abandon: true,
      },
    },
    {
      name: 'the keep annotation wins over another owner (first filter first)',
      target: cm('x', { owner: 'inv-other', annotations: { 'kapp.k14s.io/delete-strategy': 'orphan' } }),
      state: () => stateFor({ prune: [] }),
      want: {
        skip: 'annotation prevents deletion ("kapp.k14s.io/delete-strategy": "orphan")',
        reason: { type: 'annotation', key: 'kapp.k14s.io/delete-strategy', value: 'orphan' },
        abandon: true,
      },
    },
    {
      name: 'another inventory took it over: skipped under strict',
      target: cm('taken', { owner: 'inv-other' }),
      state: () => stateFor({ prune: [cm('taken', { owner: 'inv-other' })] }),
      want: {
        skip: 'inventory policy prevented actuation (strategy: Delete, status: NoMatch, policy: MustMatch): owned by another inventory: inventory inv-other',
        reason: {
          type: 'inventory-policy',
          strategy: 'Delete',
          match: 'NoMatch',
          policy: 'strict',
          owner: { id: 'inv-other' },
        },
      },
    },
    {
      name: 'another inventory took it over: deleted under force-adopt',
      target: cm('taken', { owner: 'inv-other' }),
      state: () =>
        stateFor({
          prune: [cm('taken', { owner: 'inv-other' })],
          options: { inventoryPolicy: 'force-adopt' },
        }),
      want: undefined,
    },
    {
      name: 'no owner any more: skipped under strict',
      target: cm('bare', { owner: null }),
      state: () => stateFor({ prune: [cm('bare', { owner: null })] }),
      want: {
        skip: 'inventory policy prevented actuation (strategy: Delete, status: Empty, policy: MustMatch): not owned by this inventory',
        reason: { type: 'inventory-policy', strategy: 'Delete', match: 'Empty', policy: 'strict' },
      },
    },
    {
      name: 'no owner any more: deleted under adopt',
      target: cm('bare', { owner: null }),
      state: () => stateFor({ prune: [cm('bare', { owner: null })], options: { inventoryPolicy: 'adopt' } }),
      want: undefined,
    },
    {
      name: "the inventory's own Namespace is in use",
      target: obj('Namespace', 'shop'),
      state: () => stateFor({ prune: [obj('Namespace', 'shop')] }),
      want: {
        skip: 'namespace still in use: shop',
        reason: { type: 'in-use', message: 'namespace still in use: shop' },
      },
    },
    {
      name: 'a Namespace a package object lives in is in use',
      target: obj('Namespace', 'web'),
      state: () => stateFor({ desired: [cm('app', { namespace: 'web' })], prune: [obj('Namespace', 'web')] }),
      want: {
        skip: 'namespace still in use: web',
        reason: { type: 'in-use', message: 'namespace still in use: web' },
      },
    },
    {
      name: 'a Namespace nothing uses is deleted',
      target: obj('Namespace', 'old'),
      state: () => stateFor({ desired: [cm('app')], prune: [obj('Namespace', 'old')] }),
      want: undefined,
    },
    {
      name: 'a package object depends on it: kept',
      target: cm('base'),
      state: () =>
        stateFor({ desired: [cm('app', { annotations: dependsOnCm('base') })], prune: [cm('base')] }),
      want: {
        skip: 'dependent scheduled for apply: shop_app__ConfigMap',
        reason: { type: 'in-use', message: 'dependent scheduled for apply: shop_app__ConfigMap' },
      },
    },
    {
      name: 'a pruned dependent failed to delete: skipped (blocking)',
      target: cm('base'),
      state: () =>
        stateFor({
          prune: [cm('base'), cm('user', { annotations: dependsOnCm('base') })],
          outcomes: [{ id: idOf(cm('user')), action: 'failed' }],
        }),
      want: {
        skip: 'dependent delete actuation failed: shop_user__ConfigMap',
        reason: { type: 'dependent', dependent: idOf(cm('user')), cause: 'delete actuation failed' },
      },
    },
    {
      name: 'a pruned dependent was kept on purpose (in use): kept too, not blocking',
      target: cm('base'),
      state: () =>
        stateFor({
          prune: [cm('base'), cm('user', { annotations: dependsOnCm('base') })],
          outcomes: [
            {
              id: idOf(cm('user')),
              action: 'skipped',
              skip: { type: 'in-use', message: 'namespace still in use' },
            },
          ],
        }),
      want: {
        skip: 'dependent delete actuation skipped: shop_user__ConfigMap',
        reason: { type: 'in-use', message: 'dependent delete actuation skipped: shop_user__ConfigMap' },
      },
    },
    {
      name: 'a pruned dependent was abandoned: it does not hold this one back',
      target: cm('base'),
      state: () =>
        stateFor({
          prune: [cm('base'), cm('user', { annotations: dependsOnCm('base') })],
          outcomes: [{ id: idOf(cm('user')), action: 'abandoned' }],
        }),
      want: undefined,
    },
    {
      name: 'a pruned dependent timed out being deleted: skipped (blocking)',
      target: cm('base'),
      state: () =>
        stateFor({
          prune: [cm('base'), cm('user', { annotations: dependsOnCm('base') })],
          outcomes: [{ id: idOf(cm('user')), action: 'pruned', reconcile: 'Timeout' }],
        }),
      want: {
        skip: 'dependent delete reconcile timeout: shop_user__ConfigMap',
        reason: { type: 'dependent', dependent: idOf(cm('user')), cause: 'delete reconcile timeout' },
      },
    },
    {
      name: 'its UID was just applied under another name (kind alias): abandoned',
      target: cm('alias', { uid: 'uid-same' }),
      state: () => stateFor({ prune: [cm('alias', { uid: 'uid-same' })], appliedUids: ['uid-same'] }),
      want: {
        skip: 'object just applied (UID: "uid-same")',
        reason: { type: 'just-applied', uid: 'uid-same' },
        abandon: true,
      },
    },
  ];

  it.each(cases)('$name', ({ state, target, want }) => {
    expect(pruneDecision(state(), idOf(target), target)).toEqual(want);
  });
});
