import { findResourceGroupById } from '../inventory/find-owner.js';
import type { RunState } from './run-state.js';
import type { OwnerInventory, SkipReason } from './skip-reason.js';

/**
 * The skip with its owner's ResourceGroup filled in (an inventory-policy skip naming another inventory),
 * looked up once per inventory id and run; other skips come back as they are.
 */
export async function withOwner(state: RunState, skip: SkipReason): Promise<SkipReason> {
  if (skip.type !== 'inventory-policy' || !skip.owner || skip.owner.resourceGroup) return skip;
  const id = skip.owner.id;
  let owner = state.owners.get(id);
  if (!owner) {
    owner = findResourceGroupById(state.client, id).then(
      (rg): OwnerInventory => (rg ? { id, resourceGroup: rg } : { id }),
    );
    state.owners.set(id, owner);
  }
  return { ...skip, owner: await owner };
}
