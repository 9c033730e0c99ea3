import type { RunEventSink } from '../apply/events.js';
import type { RunOptions } from '../apply/run-options.js';
import type { RunResult } from '../apply/run-result.js';
import { readInventoryAtCommit } from '../changes/index.js';
import { exitCodeOf } from '../common/run-outcome.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { destroyInventory, previewRemoval } from '../pipeline/removed-package-run.js';
import type { PackageRunResult } from '../pipeline/run-package.js';

/**
 * A package whose directory the change deleted: its inventory info comes from the base commit (or, when
 * catch-up found it through the watermark, from the watermark). Preview
 * says what would be pruned; apply destroys it only when `destroy-removed-packages` allows, else fails.
 */
export async function runRemovedPackage(
  client: ClusterClient,
  unit: { path: string; baseCommit?: string; inventory?: InventoryRef },
  mode: 'preview' | 'apply',
  o: { repoRoot: string; options: RunOptions; destroyRemovedPackages: boolean; emit: RunEventSink },
): Promise<PackageRunResult> {
  const result: PackageRunResult = { path: unit.path, mode, outcome: 'success', notices: [], exitCode: 0 };
  const fail = (error: string) => ({
    ...result,
    outcome: 'error' as const,
    error,
    exitCode: exitCodeOf('error'),
  });
  let inventory = unit.inventory;
  if (!inventory) {
    if (!unit.baseCommit)
      return fail(
        `package ${unit.path} was deleted, but the base commit to read its inventory from is unknown`,
      );
    const info = await readInventoryAtCommit(o.repoRoot, unit.baseCommit, unit.path);
    if (!info.inventory)
      return fail(
        `package ${unit.path} was deleted; no inventory info at ${unit.baseCommit.slice(0, 7)}: nothing to prune`,
      );
    inventory = info.inventory;
  }
  if (mode === 'preview') {
    const doc = await previewRemoval(client, unit.path, inventory, o.options);
    if ('error' in doc) return fail(doc.error);
    result.preview = doc;
    result.notices.push(
      `package ${unit.path} is removed by this change: merging would prune ${doc.summary.prune} object(s)${o.destroyRemovedPackages ? '' : ' (only with destroy-removed-packages: true)'}`,
    );
    return result;
  }
  if (!o.destroyRemovedPackages) {
    return fail(
      `package ${unit.path} was deleted from the repository, but its objects are still in the cluster (inventory ${inventory.namespace}/${inventory.name}). ` +
        'Set destroy-removed-packages: true to delete them, or run mode: destroy from the previous commit.',
    );
  }
  const run = await destroyInventory(client, inventory, o.options, o.emit).catch(
    (err: Error): RunResult => ({ outcome: 'error', error: err.message, objects: [], durationMs: 0 }),
  );
  return { ...result, mode, run, outcome: run.outcome, error: run.error, exitCode: exitCodeOf(run.outcome) };
}
