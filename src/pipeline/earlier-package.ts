import type { RunOptions } from '../apply/run-options.js';
import type { FetchOptions } from '../changes/fetch-commits.js';
import { packageAtCommit } from '../changes/package-at-commit.js';
import type { DeployRecord } from '../inventory/deploy-history.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { formatPackageError, PackageFailure } from '../package/package-error.js';
import { inventoryDifference, settingsOf } from './deploy-settings.js';
import { type PreparedPackage, preparePackage } from './prepare-package.js';

/** The package as an earlier deploy applied it, ready to apply again; or why it cannot be. */
export type EarlierPackage =
  | { prepared: PreparedPackage; options: RunOptions; notices: string[] }
  | { error: string };

/**
 * The package at `dir` as the deploy `record` applied it: its files at the record's commit (from git,
 * fetched by SHA when the checkout lacks them), read and validated as any package is, with the settings
 * recorded with that deploy (over today's, which also stand in when the record has none) and the
 * namespace it gave objects that name none. Refused when its inventory (in its tree, or as recorded) is
 * not today's. Nothing in the cluster is changed; the temporary copy is gone when this returns.
 */
export async function readEarlierPackage(
  client: ClusterClient,
  req: {
    repoRoot: string;
    dir: string;
    record: DeployRecord & { commit: string };
    today: { inventory: InventoryRef; options: RunOptions; defaultNamespace: string };
    fetch?: FetchOptions;
  },
): Promise<EarlierPackage> {
  const short = req.record.commit.slice(0, 7);
  let prepared: PreparedPackage;
  try {
    const tree = await packageAtCommit(req.repoRoot, req.record.commit, req.dir, req.fetch);
    try {
      prepared = await preparePackage(client, req.dir, {
        repoRoot: tree.root,
        defaultNamespace: req.record.namespace ?? req.today.defaultNamespace,
      });
    } finally {
      await tree.dispose();
    }
  } catch (err) {
    if (err instanceof PackageFailure)
      return {
        error: `the package at ${short} cannot be applied any more: ${err.errors.map(formatPackageError).join('; ')}`,
      };
    return { error: (err as Error).message };
  }
  const differs = inventoryDifference(req.today.inventory, [
    { inventory: prepared.inventory, where: `in the package at ${short}` },
    { inventory: req.record.inventory, where: `recorded with the deploy of ${short}` },
  ]);
  if (differs) return { error: `refusing to apply the package as of ${short}: ${differs}` };
  const settings = settingsOf(req.record, req.today.options);
  const notices = [...prepared.notices];
  if (!settings.recorded)
    notices.push(
      `the deploy of ${short} recorded no settings (it predates them): applying it with today's (field manager ${settings.options.fieldManager}, inventory policy ${settings.options.inventoryPolicy})`,
    );
  return { prepared, options: settings.options, notices };
}
