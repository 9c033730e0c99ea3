import { holdOf, recordView } from '../changes/catch-up.js';
import { fillRecordTrees } from '../changes/record-trees.js';
import { packageTrees } from '../changes/tree-hash.js';
import { type DeployRecord, readHistory } from '../inventory/deploy-history.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import type { HeldMark } from '../inventory/watermark.js';
import type { ClusterClient } from '../kube/cluster-client.js';

/** Whether a package is held (catch-up's rule), or why that cannot be known. */
export type HoldVerdict =
  | { held: false }
  | { held: true; reason: string }
  | { held: 'unknown'; reason: string };

export interface HoldOptions {
  /** The directory git is asked in (the package paths are relative to it). */
  repoRoot: string;
  /** The package directory, relative to `repoRoot`. */
  dir: string;
  /** The watermark's mark for this package (a run that failed before any write leaves no record). */
  mark?: HeldMark;
  /** How the hold ends, in the front end's words (e.g. "not corrected until ... changes"). */
  retry: string;
}

/**
 * `HEAD:./deploy/app`: git reads a `./` path relative to the directory it runs in, so a repoRoot below the
 * repository's top level (the CLI's working directory, the action's working-directory) names the package.
 */
const spec = (dir: string) => (dir === '.' ? './' : `./${dir.replace(/^\.\//, '')}`);

/**
 * Is this package held: did an apply of the tree it has now (at HEAD) fail, or get rolled back, since its
 * last successful apply? The rule is catch-up's own (holdOf in src/changes/catch-up.ts); this reads what it
 * decides from: the inventory's deploy records (one LIST), the package's tree at HEAD, and the tree of each
 * record written without one (the CLI records the commit only) at that record's commit. When git cannot
 * tell the tree, nothing is held, as in catch-up. Records that cannot be read: `unknown`.
 */
export async function readHold(
  client: ClusterClient,
  inventory: InventoryRef,
  o: HoldOptions,
): Promise<HoldVerdict> {
  let records: DeployRecord[];
  try {
    records = await readHistory(client, inventory);
  } catch (err) {
    return {
      held: 'unknown',
      reason: `its deploy history could not be read (${(err as Error).message}), so whether its last apply failed is not known`,
    };
  }
  const path = spec(o.dir);
  const tree = (await packageTrees(o.repoRoot, 'HEAD', [path])).get(path);
  if (!tree) return { held: false };
  await fillTrees(o.repoRoot, path, records);
  const hold = holdOf(o.dir, records.map(recordView), tree, o.mark, o.retry);
  return hold ? { held: true, reason: hold.reason } : { held: false };
}

/**
 * The tree of each record newer than the last successful apply that has a commit but no tree, read at that
 * commit (a commit the checkout lacks leaves it unknown, so it is not matched).
 */
function fillTrees(repoRoot: string, path: string, records: DeployRecord[]): Promise<void> {
  return fillRecordTrees(repoRoot, [records], {
    counted: (list) => {
      const lastApply = list.findIndex((r) => r.mode === 'apply' && r.result === 'success');
      return lastApply < 0 ? list.length : lastApply;
    },
    dirOf: () => path,
  });
}
