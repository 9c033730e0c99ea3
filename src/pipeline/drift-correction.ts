import { countOutcomes, failed } from '../apply/run-result.js';
import { shortName } from '../common/object-id.js';
import { type DriftCorrection, needsReapply, StatusOnlyReason } from '../drift/correction.js';
import type { HeldMark } from '../inventory/watermark.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import type { DriftRunResult } from './drift-package.js';
import { readHold } from './held-package.js';
import { type PackageRunResult, type RunPackageOptions, runPackage } from './run-package.js';

/** What decides whether a drifted package is held. */
export interface HoldInput {
  /** The package directory as the drift check read it, relative to `repoRoot`. */
  dir: string;
  repoRoot: string;
  /** The watermark's mark for this package, when the front end keeps one. */
  mark?: HeldMark;
  /** How a hold ends, in the front end's words. */
  retry: string;
}

/** apply's options for the re-apply, and the package directory. */
export interface ReapplyOptions extends Omit<RunPackageOptions, 'dryRun' | 'gate' | 'previewContext'> {
  dir: string;
}

/** A re-applied package's correction, and the apply that made it. */
export interface CorrectionRun {
  correction: DriftCorrection;
  run: PackageRunResult;
}

/**
 * Drift correction, in two steps so that only packages that are re-applied go through apply's package
 * loop (a held package is not "skipped" because an earlier correction failed):
 * 1. `correctionWithoutApply`: a drifted package is left alone when re-applying would change nothing
 *    (status drift only), reported held when its last apply of its current tree failed or was rolled
 *    back (catch-up's hold), left when that cannot be known; read-only, no lock;
 * 2. `reapply`: the others through the normal apply (runPackage: the lock, the deploy history and its
 *    stale-commit guard, the pre-flight, the ownership rule: the same run as `apply`).
 * Each sets `drift.correction`. Neither throws.
 */
export async function correctionWithoutApply(
  client: ClusterClient,
  drift: DriftRunResult,
  o: HoldInput,
): Promise<DriftCorrection | undefined> {
  if (drift.outcome !== 'drifted' || !drift.prepared) return undefined;
  const set = (c: DriftCorrection) => {
    drift.correction = c;
    return c;
  };
  if (!needsReapply(drift.objects)) return set({ result: 'left', reason: StatusOnlyReason });
  try {
    const hold = await readHold(client, drift.prepared.inventory, {
      repoRoot: o.repoRoot,
      dir: o.dir,
      mark: o.mark,
      retry: o.retry,
    });
    if (hold.held === true) return set({ result: 'held', reason: hold.reason });
    if (hold.held === 'unknown') return set({ result: 'left', reason: `${hold.reason}: not re-applied` });
    return undefined;
  } catch (err) {
    return set({ result: 'left', reason: `whether it is held could not be read: ${(err as Error).message}` });
  }
}

/** Step 2: the drifted package re-applied by apply's own run; its correction from the run's outcome. */
export async function reapply(
  client: ClusterClient,
  drift: DriftRunResult,
  o: ReapplyOptions,
): Promise<CorrectionRun> {
  const run = await runPackage(client, o.dir, 'apply', o);
  drift.correction = correctionOf(run);
  return { correction: drift.correction, run };
}

/** A correction's result from its apply (pure). */
export function correctionOf(run: PackageRunResult): DriftCorrection {
  const objects = run.run?.objects ?? [];
  const summary = objects.length > 0 ? countOutcomes(objects) : undefined;
  if (run.outcome === 'success') return { result: 'corrected', ...(summary ? { summary } : {}) };
  const notDone = objects
    .filter((x) => failed(x))
    .map((x) => `${shortName(x.id)}: ${x.message ?? x.reconcile ?? 'failed'}`);
  const reason =
    run.error ?? (notDone.length > 0 ? `${notDone.length} object(s) did not succeed` : 'the apply failed');
  return {
    result: 'failed',
    reason,
    ...(summary ? { summary } : {}),
    ...(notDone.length > 0 ? { failed: notDone } : {}),
  };
}

/** A drifted package the loop never started (an earlier correction failed, or the run was cancelled). */
export function skippedCorrection(drift: DriftRunResult, why: string): DriftCorrection {
  const correction: DriftCorrection = { result: 'skipped', reason: why };
  drift.correction = correction;
  return correction;
}
