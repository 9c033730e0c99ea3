import type { RunOutcome } from '../common/run-outcome.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import type { HeldMark, Watermark } from '../inventory/watermark.js';

/** How one package of a catch-up run ended, as the watermark needs it. */
export interface CatchUpOutcome {
  path: string;
  removed: boolean;
  /** Its tree at the applied commit (undefined when git could not tell: then it cannot be held). */
  tree?: string;
  /** `skipped`: the loop never started it (an earlier package failed): neither held nor known. */
  outcome: RunOutcome | 'skipped';
  /** One line saying why it failed. */
  error?: string;
  /** A deleted package whose removal was refused because `destroy-removed-packages` is off. */
  removalRefused?: boolean;
}

export interface CatchUpRun {
  /** The commit applied. */
  head: string;
  /** ISO time the run ended. */
  at: string;
  runUrl?: string;
  /** Every unit at `head` the run covers (its `packages` filter applied), with its inventory. */
  units: Readonly<Record<string, InventoryRef>>;
  /** Every unit's tree at `head` (a hold on another tree is stale). */
  trees: Readonly<Record<string, string | undefined>>;
  results: readonly CatchUpOutcome[];
  /** False when the run stopped early (cancelled, a failed package ended it): packages did not all run. */
  complete: boolean;
  /** Units nothing is left of (deleted and already gone, or moved to another path): dropped. */
  forget?: readonly string[];
}

const firstLine = (text: string | undefined) => (text ?? 'failed').split('\n')[0].slice(0, 300);

/**
 * The watermark after a catch-up run (a pure merge, so a run that finds another's write in between
 * merges again). The first one knows every unit the run covers; later ones add each unit applied
 * successfully and drop each deleted unit whose removal succeeded, so a unit a failed or cancelled run
 * did not reach is still found as new. Runs of different `packages` filters each add their own. Every
 * failed package is held at its tree (a later success, a new tree or, for a refused removal,
 * `destroy-removed-packages` releases it). The commit advances when every package of the run succeeded.
 */
export function nextWatermark(prev: Watermark | undefined, run: CatchUpRun): Watermark {
  const held: Record<string, HeldMark> = {};
  const forget = new Set(run.forget ?? []);
  for (const [path, mark] of Object.entries(prev?.held ?? {})) {
    if (forget.has(path)) continue;
    const present = path in run.units;
    if (mark.tree === '' ? present : present && run.trees[path] !== mark.tree) continue;
    held[path] = mark;
  }
  for (const r of run.results) {
    if (r.outcome === 'success') {
      delete held[r.path];
      continue;
    }
    if (r.outcome === 'skipped' || (!r.removed && !r.tree)) continue;
    held[r.path] = {
      tree: r.removed ? '' : (r.tree as string),
      commit: run.head,
      reason: firstLine(r.error),
      at: run.at,
      ...(r.removalRefused ? { removalRefused: true } : {}),
    };
  }
  const allGood = run.complete && run.results.every((r) => r.outcome === 'success');
  const units: Record<string, InventoryRef> = prev ? { ...prev.units } : { ...run.units };
  for (const r of run.results) {
    if (r.outcome !== 'success') continue;
    if (r.removed) delete units[r.path];
    else if (run.units[r.path]) units[r.path] = run.units[r.path];
  }
  for (const path of forget) delete units[path];
  const commit = allGood ? run.head : prev?.commit;
  return {
    ...(commit ? { commit } : {}),
    units,
    held,
    ...(run.runUrl ? { run: run.runUrl } : {}),
    updatedAt: run.at,
  };
}
