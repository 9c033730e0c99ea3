import { Annotations } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import { formatInventoryId, idKey, type ObjectId } from '../common/object-id.js';
import { preventsDeletion, pruneBlockedBy } from '../inventory/ownership.js';
import { dependentsOf } from '../plan/plan.js';
import type { WaveTasks } from '../plan/task-list.js';
import type { Decision } from './decision.js';
import { group } from './group.js';
import { withOwner } from './owner-lookup.js';
import { runOrdered } from './run-ordered.js';
import { outcomeFor, type RunState, recordDeleted } from './run-state.js';
import { isBlockingSkip, type SkipReason, skipMessage } from './skip-reason.js';
import { waitWave } from './wait-wave.js';

/** Why an inventory object is not deleted now: the reason as data, kpt's message, and whether to forget it. */
export type PruneDecision = { skip: string; reason: SkipReason; abandon?: boolean } | undefined;

function decision(reason: SkipReason, abandon?: boolean): PruneDecision {
  return abandon ? { skip: skipMessage(reason), reason, abandon } : { skip: skipMessage(reason), reason };
}

/**
 * Why an inventory object must not be deleted now (cli-utils' prune filters, in their order): an
 * annotation that keeps it (then it is abandoned: forgotten, not deleted), another owner under the
 * inventory policy, a Namespace still in use, something in the package that depends on it, or a UID that
 * this run just applied under another name.
 */
export function pruneDecision(state: RunState, id: ObjectId, live: KubeObject): PruneDecision {
  const keep = preventsDeletion(live);
  if (keep) return decision({ type: 'annotation', ...keep }, true);
  const refused = pruneBlockedBy(live, state.inventory.id, state.options.inventoryPolicy);
  if (refused) {
    return decision({
      type: 'inventory-policy',
      strategy: 'Delete',
      match: refused.match,
      policy: state.options.inventoryPolicy,
      ...(refused.owner ? { owner: { id: refused.owner } } : {}),
    });
  }
  if (id.group === '' && id.kind === 'Namespace') {
    const inUse =
      id.name === state.inventory.namespace ||
      [...state.manifests.values()].some((m) => (m.metadata.namespace ?? '') === id.name);
    if (inUse) return decision({ type: 'in-use', message: `namespace still in use: ${id.name}` });
  }
  for (const dependent of dependentsOf(state.plan, id)) {
    const depKey = idKey(dependent);
    if (state.manifests.has(depKey))
      return decision({
        type: 'in-use',
        message: `dependent scheduled for apply: ${formatInventoryId(dependent)}`,
      });
    const o = state.outcomes.get(depKey);
    if (o && (o.action === 'failed' || o.action === 'skipped')) {
      const cause = o.action === 'failed' ? 'delete actuation failed' : 'delete actuation skipped';
      // a dependent kept on purpose (still in use) keeps this one too, as kpt does, and fails nothing
      if (o.action === 'skipped' && o.skip?.type === 'in-use')
        return decision({ type: 'in-use', message: `dependent ${cause}: ${formatInventoryId(dependent)}` });
      return decision({ type: 'dependent', dependent, cause });
    }
    if (o?.reconcile === 'Timeout')
      return decision({ type: 'dependent', dependent, cause: 'delete reconcile timeout' });
  }
  for (const applied of state.applied.values()) {
    if (applied.uid && applied.uid === live.metadata.uid)
      return decision({ type: 'just-applied', uid: applied.uid }, true);
  }
  return undefined;
}

/**
 * The delete waves of a task list, in order: each wave deleted (apply's prune, destroy's delete), then
 * waited on until its objects are gone; a dry run decides and reports each wave and waits on nothing.
 * Stops between waves once the run is cancelled.
 */
export async function deleteWaves(
  state: RunState,
  waves: readonly WaveTasks[],
  type: 'prune' | 'delete',
  onProgress?: (line: string) => void,
): Promise<void> {
  for (const { act, wait } of waves) {
    if (state.cancelled()) break;
    await group(state.emit, act.name, type === 'prune' ? 'Prune' : 'Delete', () =>
      pruneWave(state, act.ids, act.name, type),
    );
    if (state.dryRun) continue;
    await group(state.emit, wait.name, 'Wait', () =>
      waitWave(state, wait.ids, wait.name, 'NotFound', onProgress),
    );
  }
}

/** Deletes one wave of inventory objects (prune or destroy), with a UID precondition on every DELETE. */
export async function pruneWave(
  state: RunState,
  wave: ObjectId[],
  group: string,
  type: 'prune' | 'delete',
): Promise<void> {
  await runOrdered(
    wave,
    state.options.concurrency,
    async (id) => {
      const key = idKey(id);
      const live = state.live.get(key);
      if (!live) return { status: 'Successful' as const, gone: true };
      const decided = pruneDecision(state, id, live);
      state.decisions.set(key, pruneRecord(decided));
      try {
        if (decided?.abandon) {
          if (!state.dryRun) await abandon(state, id, live);
          return { status: 'Skipped' as const, reason: decided.reason, abandoned: true };
        }
        if (decided) return { status: 'Skipped' as const, reason: await withOwner(state, decided.reason) };
        if (state.dryRun) return { status: 'Successful' as const, gone: true };
        const res = await state.client.delete(
          { ...id, apiVersion: live.apiVersion },
          { uid: live.metadata.uid, propagationPolicy: state.options.prunePropagationPolicy },
        );
        return { status: 'Successful' as const, gone: res !== 'pending' };
      } catch (err) {
        return { status: 'Failed' as const, error: (err as Error).message };
      }
    },
    (id, result) => {
      const o = outcomeFor(state, id);
      if (!result) {
        o.action = 'skipped';
        o.skip = { type: 'cancelled' };
        o.message = skipMessage(o.skip);
        state.emit({ type, group, id, status: 'Skipped', error: o.message });
        return;
      }
      if (result.status === 'Successful') {
        recordDeleted(state, id, 'gone' in result && !!result.gone);
        o.action = type === 'prune' ? 'pruned' : 'deleted';
      } else if (result.reason) {
        o.action = result.abandoned ? 'abandoned' : 'skipped';
        o.skip = result.reason;
        o.message = skipMessage(result.reason);
      } else {
        o.action = 'failed';
        o.message = result.error;
      }
      const error = result.status === 'Successful' ? undefined : o.message;
      state.emit({ type, group, id, status: result.status, error });
    },
    () => !state.cancelled(),
  );
}

/** The prune decision as the run records it (a view of `pruneDecision`). */
function pruneRecord(decided: PruneDecision): Decision {
  if (!decided) return { action: 'prune', validated: true, reason: 'no longer in the package' };
  const { reason, abandon } = decided;
  const blocked = isBlockingSkip(reason);
  return {
    action: abandon ? 'orphan' : 'skip',
    validated: true,
    reason: decided.skip,
    skip: reason,
    blocked,
  };
}

/** Forgets an object: removes our owning-inventory annotation (it leaves the inventory, stays in the cluster). */
async function abandon(state: RunState, id: ObjectId, live: KubeObject): Promise<void> {
  if (live.metadata.annotations?.[Annotations.OwningInventory] === undefined) return;
  await state.client.jsonPatch({ ...id, apiVersion: live.apiVersion }, [
    {
      op: 'remove',
      path: `/metadata/annotations/${Annotations.OwningInventory.replaceAll('~', '~0').replaceAll('/', '~1')}`,
    },
  ]);
}
