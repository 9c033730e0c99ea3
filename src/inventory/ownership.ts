import { Annotations, type InventoryPolicy } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';

/** How a live object's `config.k8s.io/owning-inventory` relates to ours (cli-utils IDMatch). */
export type OwnershipMatch = 'Empty' | 'Match' | 'NoMatch';

export function ownershipOf(live: Pick<KubeObject, 'metadata'>, inventoryId: string): OwnershipMatch {
  const owner = live.metadata.annotations?.[Annotations.OwningInventory];
  if (owner === undefined || owner === '') return 'Empty';
  return owner === inventoryId ? 'Match' : 'NoMatch';
}

const policyName: Record<InventoryPolicy, string> = {
  strict: 'MustMatch',
  adopt: 'AdoptIfNoInventory',
  'force-adopt': 'AdoptAll',
};

/**
 * May we apply over this live object? (cli-utils InventoryPolicyApplyFilter.)
 * - strict: absent, or owned by us;  adopt: also unowned;  force-adopt: anything.
 * Returns kpt's skip message when not.
 */
export function applyBlockedBy(
  live: Pick<KubeObject, 'metadata'> | undefined,
  inventoryId: string,
  policy: InventoryPolicy,
): string | undefined {
  if (!live || policy === 'force-adopt') return undefined;
  const match = ownershipOf(live, inventoryId);
  if (match === 'Match') return undefined;
  if (match === 'Empty' && policy === 'adopt') return undefined;
  const owner = live.metadata.annotations?.[Annotations.OwningInventory];
  const who = owner
    ? `owned by another inventory (${owner})`
    : 'not owned by any inventory (use inventory-policy adopt)';
  return `inventory policy prevented actuation (strategy: Apply, status: ${match}, policy: ${policyName[policy]}): ${who}`;
}

/** May we delete this live object? strict: only ours; adopt: ours or unowned; force-adopt: anything. */
export function pruneBlockedBy(
  live: Pick<KubeObject, 'metadata'>,
  inventoryId: string,
  policy: InventoryPolicy,
): string | undefined {
  if (policy === 'force-adopt') return undefined;
  const match = ownershipOf(live, inventoryId);
  if (match === 'Match' || (match === 'Empty' && policy === 'adopt')) return undefined;
  const owner = live.metadata.annotations?.[Annotations.OwningInventory];
  const who = owner ? `owned by another inventory (${owner})` : 'not owned by this inventory';
  return `inventory policy prevented actuation (strategy: Delete, status: ${match}, policy: ${policyName[policy]}): ${who}`;
}

/**
 * The annotation that tells us to forget an object instead of deleting it, if any:
 * `cli-utils.sigs.k8s.io/on-remove: keep`, `client.lifecycle.config.k8s.io/deletion: detach`, or kapp's
 * `kapp.k14s.io/delete-strategy: orphan` (the same effect).
 */
export function preventsDeletion(obj: Pick<KubeObject, 'metadata'>): string | undefined {
  const a = obj.metadata.annotations ?? {};
  if (a[Annotations.OnRemove] === 'keep')
    return `annotation prevents deletion ("${Annotations.OnRemove}": "keep")`;
  if (a[Annotations.LifecycleDeletion] === 'detach') {
    return `annotation prevents deletion ("${Annotations.LifecycleDeletion}": "detach")`;
  }
  if (a[Annotations.KappDeleteStrategy] === 'orphan') {
    return `annotation prevents deletion ("${Annotations.KappDeleteStrategy}": "orphan")`;
  }
  return undefined;
}
