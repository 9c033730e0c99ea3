import { describe, expect, it } from 'vitest';
import { defaultRunOptions } from '../../../src/apply/run-options.js';
import { newRunState, type RunState } from '../../../src/apply/run-state.js';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { idKey, idOf } from '../../../src/common/object-id.js';
import type { ClusterClient } from '../../../src/kube/cluster-client.js';
import { buildPlan } from '../../../src/plan/plan.js';
import { diffObjects } from '../../../src/preview/diff.js';
import { comparePlans, planFromPreview, reviewedPlan } from '../../../src/preview/plan-digest.js';
import { plannedActions } from '../../../src/preview/planned-actions.js';
import { emptySummary, type PreviewDocument, type PreviewObject } from '../../../src/preview/types.js';

const cm = (
  name: string,
  data: Record<string, string>,
  annotations?: Record<string, string>,
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  // owned by this inventory, as a manifest (and what was applied from one) is
  metadata: {
    name,
    namespace: 'shop',
    annotations: { 'config.k8s.io/owning-inventory': 'inv-id', ...annotations },
  },
  data,
});

/**
 * The state a pre-flight leaves: live objects, and the dry-run answers it got (`dryRuns`: the object the
 * server returned for each existing object; equal to the live one for an unchanged object).
 */
function stateAfterPreflight(opts: {
  desired: KubeObject[];
  live: KubeObject[];
  prune?: KubeObject[];
  dryRuns: KubeObject[];
  preflight?: 'auto' | 'all' | 'off';
}): RunState {
  const manifests = new Map(opts.desired.map((o) => [idKey(idOf(o)), o]));
  const live = new Map<string, KubeObject | null>();
  for (const o of opts.desired) live.set(idKey(idOf(o)), null);
  for (const o of [...opts.live, ...(opts.prune ?? [])]) live.set(idKey(idOf(o)), o);
  const state = newRunState(
    {
      client: {} as ClusterClient,
      options: defaultRunOptions({ preflight: opts.preflight ?? 'auto' }),
      inventory: { name: 'inv', namespace: 'shop', id: 'inv-id' },
      emit: () => {},
      plan: buildPlan({ apply: opts.desired, prune: opts.prune ?? [] }),
      manifests,
      sources: new Map(),
      live,
      previous: new Map((opts.prune ?? []).map((o) => [idKey(idOf(o)), idOf(o)])),
    },
    Date.now(),
  );
  for (const d of opts.dryRuns) {
    const key = idKey(idOf(d));
    const l = live.get(key);
    state.preflight.set(key, { object: d, unchanged: !!l && JSON.stringify(l) === JSON.stringify(d) });
  }
  return state;
}

/** The preview a reviewer saw, built the way computePreview builds it (live vs the dry-run answer). */
function preview(objects: PreviewObject[]): PreviewDocument {
  const summary = emptySummary();
  for (const o of objects) summary[o.action]++;
  return {
    package: 'deploy/shop',
    summary,
    objects,
    waves: [],
    edges: [],
    context: { fieldManager: 'kpt-live-action' },
  };
}

describe('plannedActions (the pre-flight as plan entries)', () => {
  const liveA = cm('a', { color: 'blue' });
  const wantA = cm('a', { color: 'green' });
  const newB = cm('b', { k: 'v' });
  const same = cm('same', { k: 'v' });
  const gone = cm('old', {});

  const reviewed = () =>
    reviewedPlan(
      planFromPreview(
        preview([
          {
            id: idOf(wantA),
            apiVersion: 'v1',
            action: 'configure',
            ...diffObjects(liveA, wantA, { reportRemovals: true }),
          },
          { id: idOf(newB), apiVersion: 'v1', action: 'create' },
          { id: idOf(same), apiVersion: 'v1', action: 'unchanged' },
          { id: idOf(gone), apiVersion: 'v1', action: 'prune' },
        ]),
        [wantA, newB, same],
      ),
    );

  it('matches the reviewed plan when the cluster is as it was', async () => {
    const state = stateAfterPreflight({
      desired: [wantA, newB, same],
      live: [liveA, same],
      prune: [gone],
      dryRuns: [wantA, same],
    });
    const plan = plannedActions(state)!;
    expect(plan.map((e) => [e.key, e.action])).toEqual([
      ['shop_a__ConfigMap', 'configure'],
      ['shop_b__ConfigMap', 'create'],
      ['shop_old__ConfigMap', 'prune'],
      ['shop_same__ConfigMap', 'unchanged'],
    ]);
    expect(comparePlans(reviewed(), plan)).toEqual({ same: true, differences: [] });
  });

  it('names what changed: a hand edit of a configured object, an object now existing, one edited back', () => {
    const handEdited = cm('a', { color: 'orange' });
    const state = stateAfterPreflight({
      desired: [wantA, newB, same],
      live: [handEdited, newB, cm('same', { k: 'changed by hand' })],
      prune: [gone],
      dryRuns: [wantA, newB, same],
    });
    const c = comparePlans(reviewed(), plannedActions(state)!);
    expect(c.differences).toEqual([
      { key: 'shop_a__ConfigMap', reviewed: 'configure', now: 'configure', changesDiffer: true },
      { key: 'shop_b__ConfigMap', reviewed: 'create', now: 'unchanged', changesDiffer: false },
      { key: 'shop_same__ConfigMap', reviewed: 'unchanged', now: 'configure', changesDiffer: false },
    ]);
  });

  it('has nothing to say without a pre-flight', () => {
    const state = stateAfterPreflight({ desired: [wantA], live: [liveA], dryRuns: [], preflight: 'off' });
    expect(plannedActions(state)).toBeUndefined();
  });

  it('takes the prune decision of an object the inventory keeps (on-remove: keep) as orphan', () => {
    const kept = cm('kept', {}, { 'cli-utils.sigs.k8s.io/on-remove': 'keep' });
    const state = stateAfterPreflight({ desired: [same], live: [same], prune: [kept], dryRuns: [same] });
    expect(plannedActions(state)!.find((e) => e.key === 'shop_kept__ConfigMap')?.action).toBe('orphan');
  });
});
