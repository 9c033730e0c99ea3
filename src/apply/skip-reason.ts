import type { InventoryPolicy } from '../common/constants.js';
import { formatInventoryId, type ObjectId, shortName } from '../common/object-id.js';
import type { OwnershipMatch } from '../inventory/ownership.js';

/** The inventory (a kpt ResourceGroup) that owns an object, as far as the cluster can tell. */
export interface OwnerInventory {
  /** The `config.k8s.io/owning-inventory` value on the object. */
  id: string;
  /** Its ResourceGroup, when one with that inventory-id label was found. */
  resourceGroup?: { namespace: string; name: string };
}

/**
 * Why an object was not applied or not deleted, as data. The message kpt prints is derived from it
 * (`skipMessage`); whether the run fails because of it is decided by `isBlockingSkip`, never by matching
 * message text.
 */
export type SkipReason =
  /** The inventory policy refused it: another inventory owns it, or none does under `strict`. */
  | {
      type: 'inventory-policy';
      strategy: 'Apply' | 'Delete';
      match: OwnershipMatch;
      policy: InventoryPolicy;
      owner?: OwnerInventory;
    }
  /** Apply: something it depends on failed, was skipped, timed out, or is being pruned. */
  | { type: 'dependency'; dependency: ObjectId; cause: DependencyCause }
  /** Prune/delete: something that depends on it failed, was skipped or timed out being deleted. */
  | { type: 'dependent'; dependent: ObjectId; cause: DependentCause }
  /** Prune: still needed (a Namespace objects of the package live in, or a dependency of a package object). */
  | { type: 'in-use'; message: string }
  /** Prune: the user asked to keep it (on-remove: keep, deletion: detach, delete-strategy: orphan). */
  | { type: 'annotation'; key: string; value: string }
  /** Prune: the same object was just applied under another name (kind alias). */
  | { type: 'just-applied'; uid: string }
  /** Never started: the run was cancelled. */
  | { type: 'cancelled' };

export type DependencyCause =
  | 'apply actuation failed'
  | 'apply actuation skipped'
  | 'apply reconcile failed'
  | 'apply reconcile timeout'
  | 'scheduled for delete';

export type DependentCause =
  | 'delete actuation failed'
  | 'delete actuation skipped'
  | 'delete reconcile timeout';

const policyName: Record<InventoryPolicy, string> = {
  strict: 'MustMatch',
  adopt: 'AdoptIfNoInventory',
  'force-adopt': 'AdoptAll',
};

/** `inventory 1a2b (ResourceGroup prod/web)`, or `inventory 1a2b` when its ResourceGroup was not found. */
export function describeOwner(owner: OwnerInventory): string {
  const rg = owner.resourceGroup;
  return `inventory ${owner.id}${rg ? ` (ResourceGroup ${rg.namespace}/${rg.name})` : ''}`;
}

/** The line kpt prints after `skipped:` (cli-utils' filter errors), with who owns the object added. */
export function skipMessage(reason: SkipReason): string {
  switch (reason.type) {
    case 'inventory-policy': {
      const head = `inventory policy prevented actuation (strategy: ${reason.strategy}, status: ${reason.match}, policy: ${policyName[reason.policy]})`;
      if (reason.owner) return `${head}: owned by another inventory: ${describeOwner(reason.owner)}`;
      return `${head}: ${reason.strategy === 'Apply' ? 'not owned by any inventory' : 'not owned by this inventory'}`;
    }
    case 'dependency':
      return reason.cause === 'scheduled for delete'
        ? `dependency scheduled for delete: ${formatInventoryId(reason.dependency)}`
        : `dependency ${reason.cause}: ${formatInventoryId(reason.dependency)}`;
    case 'dependent':
      return `dependent ${reason.cause}: ${formatInventoryId(reason.dependent)}`;
    case 'in-use':
      return reason.message;
    case 'annotation':
      return `annotation prevents deletion ("${reason.key}": "${reason.value}")`;
    case 'just-applied':
      return `object just applied (UID: "${reason.uid}")`;
    case 'cancelled':
      return 'not started: the run was cancelled';
  }
}

/**
 * A skip the user did not ask for: the object was meant to be applied (or deleted) and was not, because
 * the inventory policy or a dependency stood in the way. These fail a run (exit 3) unless allow-skipped.
 * Skips the user chose (update-strategy skip, keep/detach/orphan, a Namespace still in use) do not.
 */
export function isBlockingSkip(reason: SkipReason | undefined): boolean {
  return reason?.type === 'inventory-policy' || reason?.type === 'dependency' || reason?.type === 'dependent';
}

/** What to do about a blocking skip, in one sentence; undefined for other skips. */
export function skipFix(reason: SkipReason): string | undefined {
  switch (reason.type) {
    case 'inventory-policy': {
      if (reason.strategy === 'Delete') {
        return reason.owner
          ? `another package took it over (${describeOwner(reason.owner)}): leave it to that package, or delete it with inventory-policy: force-adopt`
          : 'it no longer carries this inventory: delete it by hand, or run with inventory-policy: adopt';
      }
      if (!reason.owner) {
        return 'set inventory-policy: adopt (--inventory-policy adopt) to take over objects no inventory owns';
      }
      const rg = reason.owner.resourceGroup;
      const destroy = rg
        ? `destroy the package that owns it (ResourceGroup ${rg.namespace}/${rg.name})`
        : `destroy the package that owns it (inventory ${reason.owner.id})`;
      return `${destroy}, or take it over with inventory-policy: force-adopt (--inventory-policy force-adopt)`;
    }
    case 'dependency':
      return reason.cause === 'scheduled for delete'
        ? `keep ${shortName(reason.dependency)} in the package, or drop the depends-on`
        : `fix ${shortName(reason.dependency)} first (it is listed too)`;
    case 'dependent':
      return `fix ${shortName(reason.dependent)} first (it is listed too)`;
    default:
      return undefined;
  }
}

/** The full explanation of a blocking skip: why, and the fix (what reports print). */
export function blockedExplanation(reason: SkipReason): string {
  const fix = skipFix(reason);
  return fix ? `${skipMessage(reason)}. Fix: ${fix}` : skipMessage(reason);
}
