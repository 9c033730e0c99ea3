import type { RunOptions } from '../apply/run-options.js';
import type { RunResult } from '../apply/run-result.js';
import { type ObjectId, shortName } from '../common/object-id.js';
import { type DeployRecord, writeHistory } from '../inventory/deploy-history.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { deployRecord, type HistoryOptions, refusedBeforeFirstWrite } from './deploy-record.js';
import { recordedSettings } from './deploy-settings.js';

/**
 * Records a rollback in the deploy history: mode `rollback`, commit `to` and its tree (so the history's
 * last successful deploy is what the cluster now runs, while catch-up still holds the failed tree), the
 * commit it undid (`of`), each object's result and the objects it kept or pruned. Nothing for a rollback refused before its first write. The history is listed
 * again to trim it (the failed apply's record was just added). Returns a notice when it could not be written.
 */
export async function recordRollback(
  client: ClusterClient,
  inventory: InventoryRef,
  o: {
    pkg: string;
    startedAt: string;
    run: RunResult;
    history: HistoryOptions;
    /** The record of the deploy rolled back to: what identifies its tree is copied from it. */
    target: DeployRecord;
    to: string;
    of?: string;
    kept: ObjectId[];
    pruned: ObjectId[];
    options: RunOptions;
    defaultNamespace: string;
  },
): Promise<string | undefined> {
  if (refusedBeforeFirstWrite(o.run)) return undefined;
  // the tree applied is the target's (catch-up reads it as what the cluster runs), not today's
  const history = { ...o.history, commit: o.to, tree: o.target.tree };
  const record = {
    ...deployRecord(o.pkg, 'rollback', history, o.to, o.startedAt, o.run),
    ...recordedSettings(o.options, o.defaultNamespace, inventory),
    rollback: {
      ...(o.of ? { of: o.of } : {}),
      to: o.to,
      kept: o.kept.map(shortName).sort(),
      pruned: o.pruned.map(shortName).sort(),
    },
    objects: o.run.objects.map(
      (x) => `${shortName(x.id)} ${x.action}${x.reconcile ? ` ${x.reconcile}` : ''}`,
    ),
  };
  try {
    await writeHistory(client, inventory, record, o.history.keep);
    return undefined;
  } catch (err) {
    return `deploy history: the rollback was not recorded: ${(err as Error).message}`;
  }
}
