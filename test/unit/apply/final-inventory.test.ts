import { describe, expect, it } from 'vitest';
import { defaultRunOptions } from '../../../src/apply/run-options.js';
import type { ObjectOutcome } from '../../../src/apply/run-result.js';
import { finalInventory, newRunState, type RunState, recordDeleted } from '../../../src/apply/run-state.js';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { formatInventoryId, idKey, idOf } from '../../../src/common/object-id.js';
import type { ClusterClient } from '../../../src/kube/cluster-client.js';
import { buildPlan } from '../../../src/plan/plan.js';

const cm = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'shop', uid: `uid-${name}` },
});

/**
 * A run's state after its phases: `desired` are the package's objects (not live before the run), `previous`
 * the inventory's (live, and no longer in the package); `outcomes` what the phases recorded, `applied` the
 * successful applies, `deleted` the DELETEs the server accepted. The cluster is never asked.
 */
function stateAfter(opts: {
  desired?: KubeObject[];
  previous?: KubeObject[];
  outcomes?: Partial<ObjectOutcome>[];
  applied?: KubeObject[];
  deleted?: KubeObject[];
}): RunState {
  const desired = opts.desired ?? [];
  const previous = opts.previous ?? [];
  const live = new Map<string, KubeObject | null>();
  for (const o of desired) live.set(idKey(idOf(o)), null);
  for (const o of previous) live.set(idKey(idOf(o)), o);
  const noCluster = new Proxy({} as ClusterClient, {
    get: (_t, name) => () => {
      throw new Error(`finalInventory must not call the cluster (${String(name)})`);
    },
  });
  const state = newRunState(
    {
      client: noCluster,
      options: defaultRunOptions({ prune: true }),
      inventory: { name: 'inv', namespace: 'shop', id: 'inv-id' },
      emit: () => {},
      plan: buildPlan({ apply: desired, prune: previous }),
      manifests: new Map(desired.map((o) => [idKey(idOf(o)), o])),
      sources: new Map(),
      live,
      previous: new Map(previous.map((o) => [idKey(idOf(o)), idOf(o)])),
    },
    Date.now(),
  );
  for (const o of opts.outcomes ?? []) {
    const outcome = { action: 'none', ...o } as ObjectOutcome;
    state.outcomes.set(idKey(outcome.id), outcome);
  }
  for (const o of opts.applied ?? []) state.applied.set(idKey(idOf(o)), { touched: true, hasStatus: false });
  for (const o of opts.deleted ?? []) recordDeleted(state, idOf(o), false);
  return state;
}

const row = (state: RunState) =>
  finalInventory(state)
    .map((e) => `${formatInventoryId(e.id)} ${e.strategy} ${e.actuation} ${e.reconcile}`)
    .sort();

describe('finalInventory (cli-utils inventory-set: previous − deleted − abandoned + applied)', () => {
  const cases: { name: string; state: () => RunState; want: string[] }[] = [
    {
      name: 'a new object applied and reconciled is recorded',
      state: () =>
        stateAfter({
          desired: [cm('new')],
          outcomes: [{ id: idOf(cm('new')), action: 'created', reconcile: 'Successful' }],
          applied: [cm('new')],
        }),
      want: ['shop_new__ConfigMap Apply Succeeded Succeeded'],
    },
    {
      name: 'a new object that failed to apply is not recorded',
      state: () =>
        stateAfter({ desired: [cm('new')], outcomes: [{ id: idOf(cm('new')), action: 'failed' }] }),
      want: [],
    },
    {
      name: 'a pruned object is dropped',
      state: () =>
        stateAfter({
          previous: [cm('old')],
          outcomes: [{ id: idOf(cm('old')), action: 'pruned' }],
          deleted: [cm('old')],
        }),
      want: [],
    },
    {
      name: 'an abandoned object (kept by annotation) is dropped: its outcome says abandoned',
      state: () =>
        stateAfter({ previous: [cm('kept')], outcomes: [{ id: idOf(cm('kept')), action: 'abandoned' }] }),
      want: [],
    },
    {
      name: 'an object whose prune was skipped (another owner) stays tracked, Skipped',
      state: () =>
        stateAfter({ previous: [cm('theirs')], outcomes: [{ id: idOf(cm('theirs')), action: 'skipped' }] }),
      want: ['shop_theirs__ConfigMap Delete Skipped Pending'],
    },
    {
      name: 'an object whose delete failed stays tracked, Failed',
      state: () =>
        stateAfter({ previous: [cm('stuck')], outcomes: [{ id: idOf(cm('stuck')), action: 'failed' }] }),
      want: ['shop_stuck__ConfigMap Delete Failed Pending'],
    },
    {
      name: 'a prune the run never reached (cancelled before) stays tracked, Pending',
      state: () => stateAfter({ previous: [cm('later')] }),
      want: ['shop_later__ConfigMap Delete Pending Pending'],
    },
  ];
  it.each(cases)('$name', ({ state, want }) => {
    expect(row(state())).toEqual(want);
  });
});
