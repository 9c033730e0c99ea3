import { Annotations } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import { preventsDeletion, pruneBlockedBy } from '../inventory/ownership.js';
import { formatInventoryId, idKey, type ObjectId } from '../plan/object-id.js';
import { dependentsOf } from '../plan/plan.js';
import { runOrdered } from './run-ordered.js';
import { outcomeFor, type RunState } from './run-state.js';

type PruneDecision = { skip: string; abandon?: boolean } | undefined;

/**
 * Why an inventory object must not be deleted now (cli-utils' prune filters, in their order): an
 * annotation that keeps it (then it is abandoned: forgotten, not deleted), another owner under the
 * inventory policy, a Namespace still in use, something in the package that depends on it, or a UID that
 * this run just applied under another name.
 */
export function pruneDecision(state: RunState, id: ObjectId, live: KubeObject): PruneDecision {
  const keep = preventsDeletion(live);
  if (keep) return { skip: keep, abandon: true };
  const policy = pruneBlockedBy(live, state.inventory.id, state.options.inventoryPolicy);
  if (policy) return { skip: policy };
  if (id.group === '' && id.kind === 'Namespace') {
    const inUse =
      id.name === state.inventory.namespace ||
      [...state.manifests.values()].some((m) => (m.metadata.namespace ?? '') === id.name);
    if (inUse) return { skip: `namespace still in use: ${id.name}` };
  }
  for (const dependent of dependentsOf(state.plan, id)) {
    const depKey = idKey(dependent);
    if (state.manifests.has(depKey))
      return { skip: `dependent scheduled for apply: ${formatInventoryId(dependent)}` };
    const o = state.outcomes.get(depKey);
    if (o && (o.action === 'failed' || o.action === 'skipped') && !state.abandoned.has(depKey)) {
      return {
        skip: `dependent delete actuation ${o.action === 'failed' ? 'failed' : 'skipped'}: ${formatInventoryId(dependent)}`,
      };
    }
    if (o?.reconcile === 'Timeout')
      return { skip: `dependent delete reconcile timeout: ${formatInventoryId(dependent)}` };
  }
  for (const applied of state.applied.values()) {
    if (applied.uid && applied.uid === live.metadata.uid)
      return { skip: `object just applied (UID: "${applied.uid}")`, abandon: true };
  }
  return undefined;
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
      const decision = pruneDecision(state, id, live);
      try {
        if (decision?.abandon) {
          await abandon(state, id, live);
          return { status: 'Skipped' as const, error: decision.skip, abandoned: true };
        }
        if (decision) return { status: 'Skipped' as const, error: decision.skip };
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
      const key = idKey(id);
      const o = outcomeFor(state, id);
      if (!result) {
        o.action = 'skipped';
        o.message = 'not started: the run was cancelled';
        state.emit({ type, group, id, status: 'Skipped', error: o.message });
        return;
      }
      if (result.status === 'Successful') {
        state.deleted.add(key);
        if ('gone' in result && result.gone) state.gone.add(key);
        o.action = type === 'prune' ? 'pruned' : 'deleted';
      } else if ('abandoned' in result && result.abandoned) {
        state.abandoned.add(key);
        o.action = 'abandoned';
        o.message = result.error;
      } else {
        o.action = result.status === 'Failed' ? 'failed' : 'skipped';
        o.message = result.error;
      }
      state.emit({
        type,
        group,
        id,
        status: result.status,
        error: 'error' in result ? result.error : undefined,
      });
    },
    () => !state.cancelled(),
  );
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
