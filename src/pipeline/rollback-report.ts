import type { RunResult } from '../apply/run-result.js';
import { idKey, type ObjectId } from '../common/object-id.js';
import type { PreviewDocument } from '../preview/types.js';
import type { PreparedPackage } from './prepare-package.js';

/** What a failed apply does: `on-failure` (`rollback`: return to the last successful deploy) and `rollback-prune`. */
export interface OnFailure {
  rollback: boolean;
  /** Prune, with every prune rule of an apply, the objects that are not in the package rolled back to. */
  prune: boolean;
}

/**
 * A rollback, after a failed apply (`on-failure: rollback`) or asked for (`kpt-live rollback`):
 * - `rolled-back`: the package as of `to` was applied and every object is Current;
 * - `failed`: it was tried and did not succeed (`reason` when it stopped before its first write: a commit
 *   git cannot provide, another inventory, a pre-flight refusal; `run` says what it did otherwise);
 * - `skipped`: not tried (`reason`: a first deploy, a run refused before its first write, cancelled, ...).
 */
export interface RollbackReport {
  status: 'rolled-back' | 'failed' | 'skipped';
  /** The commit rolled back to. */
  to?: string;
  /** The commit whose deploy failed (or, asked for, the last one deployed). */
  of?: string;
  reason?: string;
  /** The apply of the package as of `to`. */
  run?: RunResult;
  /** Objects not in the package at `to`, kept (and still in the inventory, so a later apply prunes them). */
  kept: ObjectId[];
  /** Objects not in the package at `to`, pruned (`rollback-prune`). */
  pruned: ObjectId[];
  /** Not rolled back after a first deploy: what the failed deploy left in the cluster. */
  left?: ObjectId[];
  /** Asked for: the first thing the rollback did, a dry run of it. */
  preview?: PreviewDocument;
  notices: string[];
  /** The package as of `to` (its Secret values are scrubbed from what is shown). */
  prepared?: PreparedPackage;
}

/**
 * What happens to the objects the inventory lists that the package at the rollback's commit lacks (the
 * plan's prune candidates: they exist): without `prune` all are kept; with it, those the prune deleted are
 * pruned and the rest (`on-remove: keep`, a namespace in use, a failed delete) kept.
 */
export function notInPackage(run: RunResult, prune: boolean): { kept: ObjectId[]; pruned: ObjectId[] } {
  const candidates = run.plan?.pruneWaves.flat() ?? [];
  if (!prune) return { kept: candidates, pruned: [] };
  const gone = new Set(run.objects.filter((o) => o.action === 'pruned').map((o) => idKey(o.id)));
  return {
    kept: candidates.filter((id) => !gone.has(idKey(id))),
    pruned: candidates.filter((id) => gone.has(idKey(id))),
  };
}

/** What a failed apply left in the cluster: the objects it applied (they exist, whatever their status). */
export function leftBy(run: RunResult): ObjectId[] {
  const applied = new Set(['created', 'configured', 'unchanged', 'replaced']);
  return run.objects.filter((o) => applied.has(o.action)).map((o) => o.id);
}
