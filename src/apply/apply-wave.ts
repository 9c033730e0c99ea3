import { Annotations } from '../common/constants.js';
import { applyBlockedBy } from '../inventory/ownership.js';
import { idKey, type ObjectId } from '../plan/object-id.js';
import { dependenciesOf } from '../plan/plan.js';
import { applyObject } from './apply-object.js';
import { withOwner } from './owner-lookup.js';
import { runOrdered } from './run-ordered.js';
import { outcomeFor, type RunState } from './run-state.js';
import { type SkipReason, skipMessage } from './skip-reason.js';
import { updateStrategyOf } from './update-strategy.js';

/**
 * Why an object may not be applied now (kpt's DependencyFilter and InventoryPolicyApplyFilter), if so,
 * as data (the owner's ResourceGroup is not looked up yet: `withOwner`).
 */
export function applySkip(state: RunState, id: ObjectId): SkipReason | undefined {
  for (const dep of dependenciesOf(state.plan, id)) {
    const depKey = idKey(dep);
    if (!state.manifests.has(depKey))
      return { type: 'dependency', dependency: dep, cause: 'scheduled for delete' };
    const why = state.blocked.get(depKey);
    if (why) return { type: 'dependency', dependency: dep, cause: why };
  }
  const live = state.live.get(idKey(id));
  const refused = applyBlockedBy(live ?? undefined, state.inventory.id, state.options.inventoryPolicy);
  if (!refused) return undefined;
  return {
    type: 'inventory-policy',
    strategy: 'Apply',
    match: refused.match,
    policy: state.options.inventoryPolicy,
    ...(refused.owner ? { owner: { id: refused.owner } } : {}),
  };
}

/** applySkip's message (kpt's skip text), if the object may not be applied now. */
export function applySkipReason(state: RunState, id: ObjectId): string | undefined {
  const skip = applySkip(state, id);
  return skip && skipMessage(skip);
}

/** Applies one wave: bounded concurrency, events in wave order. */
export async function applyWave(
  state: RunState,
  wave: ObjectId[],
  group: string,
  waveIndex: number,
): Promise<void> {
  await runOrdered(
    wave,
    state.options.concurrency,
    async (id) => {
      const key = idKey(id);
      const skip = applySkip(state, id);
      if (skip) return { status: 'Skipped' as const, skip: await withOwner(state, skip) };
      try {
        const manifest = state.manifests.get(key)!;
        const info = await resolveNewKind(state, manifest.apiVersion, manifest.kind);
        const live = state.live.get(key);
        const unchanged = state.preflightUnchanged.get(key);
        if (live && unchanged) {
          // the pre-flight dry-run already showed this apply changes nothing: no second request
          state.applied.set(key, {
            uid: live.metadata.uid,
            generation: live.metadata.generation,
            touched: false,
            hasStatus: !!info?.hasStatus,
            object: unchanged,
          });
          return { status: 'Successful' as const, operation: 'unchanged' as const };
        }
        const res = await applyObject(state.client, manifest, live, {
          fieldManager: state.options.fieldManager,
          force: state.options.forceConflicts,
          strategy: updateStrategyOf(manifest, state.options.defaultUpdateStrategy),
          deleteTimeoutMs: state.options.pruneTimeoutMs,
        });
        state.applied.set(key, {
          uid: res.object.metadata.uid,
          generation: res.object.metadata.generation,
          touched: res.operation !== 'unchanged' && res.operation !== 'skipped',
          hasStatus: !!info?.hasStatus,
          // a skipped update returns the metadata-only live object: no status to judge
          object: res.operation === 'skipped' ? undefined : res.object,
        });
        return { status: 'Successful' as const, operation: res.operation };
      } catch (err) {
        return { status: 'Failed' as const, error: (err as Error).message };
      }
    },
    (id, result) => {
      const key = idKey(id);
      const o = outcomeFor(state, id);
      o.wave = waveIndex + 1;
      if (!result) {
        state.blocked.set(key, 'apply actuation skipped');
        o.action = 'skipped';
        o.skip = { type: 'cancelled' };
        o.message = skipMessage(o.skip);
        state.emit({ type: 'apply', group, id, status: 'Skipped', error: o.message });
        return;
      }
      if (result.status === 'Successful') {
        o.action = result.operation!;
        state.emit({ type: 'apply', group, id, status: 'Successful', operation: result.operation });
      } else {
        state.blocked.set(
          key,
          result.status === 'Failed' ? 'apply actuation failed' : 'apply actuation skipped',
        );
        o.action = result.status === 'Failed' ? 'failed' : 'skipped';
        if (result.skip) o.skip = result.skip;
        o.message = result.skip ? skipMessage(result.skip) : result.error;
        state.emit({ type: 'apply', group, id, status: result.status, error: o.message });
      }
    },
    () => !state.cancelled(),
  );
}

/** Whether an object opted out of waiting (`kapp.k14s.io/disable-wait`). */
export function waitDisabled(state: RunState, id: ObjectId): boolean {
  const a = state.manifests.get(idKey(id))?.metadata.annotations ?? {};
  const v = a[Annotations.KappDisableWait];
  return v !== undefined && v !== 'false';
}

/**
 * Discovery for a kind whose CRD this run just established can lag for a moment: look again (refreshing
 * discovery) for up to 15 s before the apply reports the kind as unknown.
 */
async function resolveNewKind(state: RunState, apiVersion: string, kind: string) {
  const deadline = Date.now() + 15_000;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    const info = await state.client.resolve(apiVersion, kind);
    const crdApplied = [...state.applied.keys()].some((k) =>
      k.endsWith('_apiextensions.k8s.io_CustomResourceDefinition'),
    );
    if (info || !crdApplied || Date.now() > deadline) return info;
    await new Promise((r) => setTimeout(r, delay));
    state.client.resetDiscovery();
  }
}
