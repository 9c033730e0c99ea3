import { Annotations, type InventoryPolicy } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';

/** How a live object's `config.k8s.io/owning-inventory` relates to ours (cli-utils IDMatch). */
export type OwnershipMatch = 'Empty' | 'Match' | 'NoMatch';

export function ownershipOf(live: Pick<KubeObject, 'metadata'>, inventoryId: string): OwnershipMatch {
  const owner = live.metadata.annotations?.[Annotations.OwningInventory];
  if (owner === undefined || owner === '') return 'Empty';
  return owner === inventoryId ? 'Match' : 'NoMatch';
}

/** Why the inventory policy refuses an object: how its owner relates to us, and the owner's id if any. */
export interface PolicyRefusal {
  match: Exclude<OwnershipMatch, 'Match'>;
  /** The other inventory's id (absent when no inventory owns it). */
  owner?: string;
}

function refusal(live: Pick<KubeObject, 'metadata'>, match: OwnershipMatch): PolicyRefusal {
  const owner = live.metadata.annotations?.[Annotations.OwningInventory];
  return owner
    ? { match: match as PolicyRefusal['match'], owner }
    : { match: match as PolicyRefusal['match'] };
}

/**
 * May we apply over this live object? (cli-utils InventoryPolicyApplyFilter.)
 * - strict: absent, or owned by us;  adopt: also unowned;  force-adopt: anything.
 * Returns why not, when not.
 */
export function applyBlockedBy(
  live: Pick<KubeObject, 'metadata'> | undefined,
  inventoryId: string,
  policy: InventoryPolicy,
): PolicyRefusal | undefined {
  if (!live || policy === 'force-adopt') return undefined;
  const match = ownershipOf(live, inventoryId);
  if (match === 'Match') return undefined;
  if (match === 'Empty' && policy === 'adopt') return undefined;
  return refusal(live, match);
}

/** May we delete this live object? strict: only ours; adopt: ours or unowned; force-adopt: anything. */
export function pruneBlockedBy(
  live: Pick<KubeObject, 'metadata'>,
  inventoryId: string,
  policy: InventoryPolicy,
): PolicyRefusal | undefined {
  if (policy === 'force-adopt') return undefined;
  const match = ownershipOf(live, inventoryId);
  if (match === 'Match' || (match === 'Empty' && policy === 'adopt')) return undefined;
  return refusal(live, match);
}

/**
 * The annotation that tells us to forget an object instead of deleting it, if any:
 * `cli-utils.sigs.k8s.io/on-remove: keep`, `client.lifecycle.config.k8s.io/deletion: detach`, or kapp's
 * `kapp.k14s.io/delete-strategy: orphan` (the same effect).
 */
export function preventsDeletion(
  obj: Pick<KubeObject, 'metadata'>,
): { key: string; value: string } | undefined {
  const a = obj.metadata.annotations ?? {};
  if (a[Annotations.OnRemove] === 'keep') return { key: Annotations.OnRemove, value: 'keep' };
  if (a[Annotations.LifecycleDeletion] === 'detach')
    return { key: Annotations.LifecycleDeletion, value: 'detach' };
  if (a[Annotations.KappDeleteStrategy] === 'orphan')
    return { key: Annotations.KappDeleteStrategy, value: 'orphan' };
  return undefined;
}
