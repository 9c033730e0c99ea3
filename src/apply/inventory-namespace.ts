import { Annotations } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import { idKey, type ObjectId } from '../common/object-id.js';
import { HistoryLabel } from '../inventory/deploy-history.js';
import { lockName } from '../inventory/inventory-lock.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import { outcomeFor, type RunState, recordDeleted } from './run-state.js';

/** The id of the Namespace an inventory lives in. */
export function inventoryNamespaceId(inv: InventoryRef): ObjectId {
  return { group: '', kind: 'Namespace', namespace: '', name: inv.namespace };
}

/**
 * The inventory's own Namespace when destroy may take it: the inventory lists it (the package declared it)
 * and it carries this inventory's owning annotation. Undefined otherwise (it is not ours to delete).
 */
export function ownInventoryNamespace(state: Pick<RunState, 'inventory' | 'previous' | 'live'>) {
  const id = inventoryNamespaceId(state.inventory);
  const key = idKey(id);
  const live = state.live.get(key);
  if (!state.previous.has(key) || !live) return undefined;
  return live.metadata.annotations?.[Annotations.OwningInventory] === state.inventory.id ? id : undefined;
}

/**
 * What Kubernetes creates in every Namespace by itself (the `kube-root-ca.crt` ConfigMap, the `default`
 * ServiceAccount and, before 1.24, its token Secret; Events), and what this tool keeps next to an
 * inventory (its lock Lease, its deploy history, the ResourceGroup being deleted). None of these stop
 * destroy from deleting the Namespace.
 */
export function isHousekeeping(group: string, kind: string, obj: KubeObject, inv: InventoryRef): boolean {
  const name = obj.metadata.name;
  if (kind === 'Event') return true;
  if (group === '' && kind === 'ConfigMap') {
    return name === 'kube-root-ca.crt' || obj.metadata.labels?.[HistoryLabel] === inv.name;
  }
  if (group === '' && kind === 'ServiceAccount') return name === 'default';
  if (group === '' && kind === 'Secret') {
    return obj.metadata.annotations?.['kubernetes.io/service-account.name'] === 'default';
  }
  if (group === 'coordination.k8s.io' && kind === 'Lease') return name === lockName(inv);
  if (group === 'kpt.dev' && kind === 'ResourceGroup') return name === inv.name;
  return false;
}

/**
 * Everything in the inventory's Namespace that is not housekeeping (`ConfigMap/foreign`), listing each
 * namespaced kind once (metadata only). Throws when a kind cannot be listed: then nobody can tell.
 */
export async function namespaceLeftovers(state: RunState): Promise<string[]> {
  const ns = state.inventory.namespace;
  const kinds = await state.client.namespacedResources();
  const found = await Promise.all(
    kinds.map(async (info) => {
      const list = await state.client.list(info, ns, { metadataOnly: true });
      return list.items
        .filter((o) => !isHousekeeping(info.group, info.kind, o, state.inventory))
        .map((o) => `${info.kind}/${o.metadata.name}`);
    }),
  );
  // the same object can be served by two groups (events, for one): each name once
  return [...new Set(found.flat())].sort();
}

/**
 * After destroy deleted the inventory: deletes the inventory's own Namespace when nothing but housekeeping
 * is left in it; otherwise leaves it, forgets it (removes the owning annotation of an inventory that no
 * longer exists) and says what is left. The caller waits for a deleted Namespace to be gone.
 */
export async function removeInventoryNamespace(state: RunState, id: ObjectId, group: string): Promise<void> {
  const key = idKey(id);
  const live = state.live.get(key)!;
  const o = outcomeFor(state, id);
  const ref = { ...id, apiVersion: 'v1' };
  try {
    let left: string[];
    try {
      left = await namespaceLeftovers(state);
    } catch (err) {
      left = [`(could not list everything in it: ${(err as Error).message})`];
    }
    if (left.length > 0) {
      const shown = left.length > 10 ? [...left.slice(0, 10), `and ${left.length - 10} more`] : left;
      if (!state.dryRun)
        await state.client.jsonPatch(ref, [
          {
            op: 'remove',
            path: `/metadata/annotations/${Annotations.OwningInventory.replaceAll('/', '~1')}`,
          },
        ]);
      o.action = 'abandoned';
      o.skip = {
        type: 'in-use',
        message: `namespace still in use: it holds objects this package did not create (${shown.join(', ')}); left in place, no longer owned by any inventory`,
      };
      o.message = o.skip.message;
      state.decisions.set(key, { action: 'orphan', validated: true, reason: o.message, skip: o.skip });
      state.emit({ type: 'delete', group, id, status: 'Skipped', error: o.message });
      return;
    }
    state.decisions.set(key, {
      action: 'prune',
      validated: true,
      reason: 'the inventory it held is deleted',
    });
    const res = state.dryRun
      ? 'gone'
      : await state.client.delete(ref, {
          uid: live.metadata.uid,
          propagationPolicy: state.options.prunePropagationPolicy,
        });
    recordDeleted(state, id, res !== 'pending');
    o.action = 'deleted';
    state.emit({ type: 'delete', group, id, status: 'Successful' });
  } catch (err) {
    o.action = 'failed';
    o.message = (err as Error).message;
    state.emit({ type: 'delete', group, id, status: 'Failed', error: o.message });
  }
}

/** The Namespace stays because the inventory in it does (something was not deleted). */
export function keepInventoryNamespace(state: RunState, id: ObjectId, group: string): void {
  const o = outcomeFor(state, id);
  o.action = 'skipped';
  o.skip = { type: 'in-use', message: `namespace still in use: ${id.name} holds the inventory` };
  o.message = o.skip.message;
  state.decisions.set(idKey(id), { action: 'skip', validated: true, reason: o.message, skip: o.skip });
  state.emit({ type: 'delete', group, id, status: 'Skipped', error: o.message });
}
