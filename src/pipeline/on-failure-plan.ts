import { readHistory } from '../inventory/deploy-history.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import type { OnFailurePlan } from '../preview/types.js';
import type { OnFailure } from './rollback-report.js';
import { lastGoodDeploy } from './rollback-target.js';

/**
 * What the preview says a failed apply would do, so a reviewer knows the blast radius: with `on-failure:
 * rollback`, the commit of the last successful deploy (the deploy history read without the lock: it may
 * change before the apply, which chooses again); else left as is. The commit being previewed is not yet
 * applied anywhere, so every successful deploy in the history is earlier than it.
 */
export async function onFailurePlan(
  client: ClusterClient,
  inventory: InventoryRef,
  onFailure: OnFailure,
): Promise<OnFailurePlan> {
  if (!onFailure.rollback) return { action: 'none', reason: 'on-failure: none' };
  let records: Awaited<ReturnType<typeof readHistory>>;
  try {
    records = await readHistory(client, inventory);
  } catch {
    return {
      action: 'rollback',
      reason: 'to the last successful deploy (the deploy history could not be read here to name it)',
    };
  }
  return onFailureOf(lastGoodDeploy(records));
}

/** The preview's on-failure plan for a chosen (or missing) rollback target. */
export function onFailureOf(target: ReturnType<typeof lastGoodDeploy>): OnFailurePlan {
  if ('record' in target) return { action: 'rollback', to: target.record.commit };
  return {
    action: 'none',
    reason: target.first ? 'no earlier successful deploy to roll back to' : target.none,
  };
}
