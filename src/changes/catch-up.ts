import type { RunOutcome } from '../common/run-outcome.js';
import type { DeployRecord } from '../inventory/deploy-history.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import type { HeldMark } from '../inventory/watermark.js';

export type { HeldMark };

/**
 * Catch-up: which packages an apply on a branch runs so that, afterwards, the cluster runs what the
 * pushed commit says for every package, even when an earlier run was cancelled, failed or skipped. A
 * package runs when its tree differs from the tree the cluster last applied successfully (its deploy
 * records), or the push touched it; a package with no record runs when it was added since the last
 * commit a run fully applied (the watermark); a package deleted since then is found through the
 * watermark and its records. A tree whose apply failed (or was rolled back) is held: not retried until
 * the package's tree changes, so a broken package is not re-applied by every later push.
 * Pure: git and the cluster are read by the caller (src/action/select-packages.ts).
 */

/** What catch-up reads of a deploy record (src/inventory/deploy-history.ts), its tree resolved. */
export interface RecordView {
  /**
   * `apply`, `destroy`, or `rollback` (the package re-applied as of an earlier commit after a failed
   * apply: its `tree` is the earlier tree, which is what the cluster then runs).
   */
  mode: string;
  result: RunOutcome;
  commit?: string;
  /** The package's git tree at `commit`; undefined when neither the record nor git can say. */
  tree?: string;
  startedAt: string;
}

/** A deploy record as catch-up reads it (its tree, when the record has none, filled in by the caller). */
export const recordView = (r: DeployRecord): RecordView => ({
  mode: r.mode,
  result: r.result,
  startedAt: r.startedAt,
  ...(r.commit ? { commit: r.commit } : {}),
  ...(r.tree ? { tree: r.tree } : {}),
});

/** A deployable unit in the checkout. */
export interface PresentUnit {
  path: string;
  /** Its tree at the pushed commit; undefined when git cannot tell. */
  tree?: string;
  /** Its inventory's deploy records, newest first; undefined when they could not be read. */
  records?: RecordView[];
  /** Why the records could not be read (default: no permission on ConfigMaps?). */
  unreadable?: string;
}

/** A unit gone from the checkout: deleted by the push, or present at the watermark's commit. */
export interface GoneUnit {
  path: string;
  /** The commit its inventory info is read from (the push's `before`, the watermark's commit). */
  baseCommit?: string;
  inventory?: InventoryRef;
  records?: RecordView[];
}

export interface CatchUpInput {
  /** The commit being applied. */
  head: string;
  units: readonly PresentUnit[];
  gone: readonly GoneUnit[];
  /**
   * The units the push's diff touched (present or gone); `all` when the change could not be narrowed
   * (a new branch, an unreadable `before`, an event that names no change): then the records decide.
   */
  touched: ReadonlySet<string> | 'all';
  push?: { before: string; after: string };
  /**
   * The job's watermark: the units catch-up knows (present when it began, or applied since) and the last
   * commit a run applied completely.
   */
  watermark?: { commit?: string; units: ReadonlySet<string> };
  held?: Readonly<Record<string, HeldMark>>;
  destroyRemovedPackages?: boolean;
}

/** A package the run handles, and why. */
export interface CatchUpEntry {
  path: string;
  removed: boolean;
  reason: string;
  /** The commit the cluster last applied for it (where the merged pull requests are listed from). */
  base?: string;
  tree?: string;
  baseCommit?: string;
  inventory?: InventoryRef;
}

export interface CatchUpResult {
  run: CatchUpEntry[];
  /** Not run: its current tree failed (or was rolled back) and nothing has changed since. */
  held: { path: string; reason: string }[];
  /** Not run: the cluster already runs its tree. */
  upToDate: { path: string; reason: string }[];
  /** Not run for another reason (no record to compare with, history unreadable, already destroyed). */
  skipped: { path: string; reason: string }[];
  /** Deleted units with nothing left in the cluster: the watermark can forget them. */
  forget: string[];
}

export const short = (sha: string | undefined) => (sha ? sha.slice(0, 7) : 'an unknown commit');

const isSuccess = (r: RecordView) => r.result === 'success';
/** What the cluster runs: the newest successful apply or rollback. */
const running = (records: readonly RecordView[]) => records.find((r) => r.mode !== 'destroy' && isSuccess(r));
/** A hold is released by a successful apply of the package's content (a rollback does not release it). */
const lastApply = (records: readonly RecordView[]) => records.find((r) => r.mode === 'apply' && isSuccess(r));

/**
 * Why a unit's tree is held (and the commit whose apply of it failed), or undefined: the one rule catch-up
 * and drift correction share. Held: an apply of this very tree failed (or was rolled back) after the last
 * successful apply, or the watermark marks this tree as failed before any write. `retry` says how the
 * hold ends, in the caller's words.
 */
export function holdOf(
  path: string,
  records: readonly RecordView[],
  tree: string,
  mark: HeldMark | undefined,
  retry = `not retried until ${path} changes or a workflow_dispatch run names it in \`packages\``,
): { reason: string; commit?: string } | undefined {
  const released = lastApply(records)?.startedAt ?? '';
  const failed = records.find(
    (r) => r.mode === 'apply' && !isSuccess(r) && r.tree === tree && r.startedAt > released,
  );
  if (failed) {
    const rolledBack = records.some((r) => r.mode === 'rollback' && r.startedAt > failed.startedAt);
    const reason = `tree of ${short(failed.commit)} failed${rolledBack ? ' and was rolled back' : ''}; ${retry}`;
    return { reason, commit: failed.commit };
  }
  if (mark && mark.tree === tree && mark.at > released)
    return { reason: `tree of ${short(mark.commit)} failed (${mark.reason}); ${retry}`, commit: mark.commit };
  return undefined;
}

/** One unit's decision: run it (and why), or which list it goes to and why. */
type Decision =
  | { to: 'run'; reason: string; base?: RecordView }
  | { to: 'held' | 'upToDate' | 'skipped'; reason: string; forget?: boolean };

function decidePresent(u: PresentUnit, input: CatchUpInput): Decision {
  const touched = input.touched !== 'all' && input.touched.has(u.path);
  const wm = input.watermark;
  const push = input.push ? `${short(input.push.before)}..${short(input.push.after)}` : '';
  if (u.records === undefined) {
    const why = u.unreadable ?? 'its deploy history could not be read (no permission on ConfigMaps?)';
    if (touched) return { to: 'run', reason: `changed by this push (${push}); ${why}` };
    if (input.touched === 'all')
      return { to: 'run', reason: `${why}, so whether the cluster runs this tree is unknown` };
    return { to: 'skipped', reason: `${why}, and the push did not touch it` };
  }
  const now = running(u.records);
  if (touched) return { to: 'run', reason: `changed by this push (${push})`, base: now };
  if (now !== undefined && (u.tree && now.tree ? now.tree === u.tree : now.commit === input.head))
    return { to: 'upToDate', reason: `${short(now.commit)} applied here` };
  const held = u.tree ? holdOf(u.path, u.records, u.tree, input.held?.[u.path]) : undefined;
  // re-running the failed job of a push (the same pushed commit) is how a person retries it
  if (held?.commit && held.commit === input.push?.after)
    return {
      to: 'run',
      reason: `a re-run of the push of ${short(held.commit)}, whose apply of this tree failed`,
    };
  if (held) return { to: 'held', reason: held.reason };
  if (now) {
    const tail = now.tree || !u.tree ? '' : ' (its tree was not recorded and git could not read that commit)';
    return {
      to: 'run',
      reason: `changed since ${short(now.commit)}, the last commit applied here${tail}`,
      base: now,
    };
  }
  if (u.records.length > 0)
    return {
      to: 'run',
      reason: `never applied successfully here (the last attempt, ${short(u.records[0].commit)}, failed)`,
    };
  if (wm && !wm.units.has(u.path))
    return {
      to: 'run',
      reason: wm.commit
        ? `added since ${short(wm.commit)}, the last commit fully applied here`
        : 'new here (no deploy record, not in the watermark)',
    };
  if (wm)
    return {
      to: 'skipped',
      reason:
        'no deploy record, though catch-up knew it (destroyed since, or deployed by other means); a workflow_dispatch apply that names it in `packages` applies it',
    };
  if (input.touched === 'all') return { to: 'run', reason: 'no deploy record here yet' };
  return {
    to: 'skipped',
    reason:
      'no deploy record and no watermark yet, and the push did not touch it; a workflow_dispatch apply applies it',
  };
}

function decideGone(g: GoneUnit, input: CatchUpInput): Decision {
  const touched = input.touched !== 'all' && input.touched.has(g.path);
  if (touched) return { to: 'run', reason: 'deleted by this push' };
  if (g.records === undefined)
    return {
      to: 'skipped',
      reason: `deleted since ${short(g.baseCommit)}, but its deploy history could not be read`,
    };
  const newest = g.records[0];
  if (!newest)
    return { to: 'skipped', reason: 'deleted, and nothing of it is recorded in the cluster', forget: true };
  const mark = input.held?.[g.path];
  const released = mark?.removalRefused && input.destroyRemovedPackages;
  if (mark && mark.tree === '' && mark.at > newest.startedAt && !released)
    return {
      to: 'held',
      reason: `its deletion at ${short(mark.commit)} was not applied (${mark.reason}); not retried until destroy-removed-packages is on or its objects are destroyed`,
    };
  if (newest.mode === 'destroy' && !isSuccess(newest))
    return {
      to: 'held',
      reason: `its destroy at ${short(newest.commit)} failed; not retried by later pushes`,
    };
  return {
    to: 'run',
    reason: g.baseCommit
      ? `deleted since ${short(g.baseCommit)}, the last commit fully applied here`
      : 'deleted from the repository',
  };
}

/** The packages an apply runs, with a reason for each, and those it leaves and why. */
export function catchUp(input: CatchUpInput): CatchUpResult {
  const out: CatchUpResult = { run: [], held: [], upToDate: [], skipped: [], forget: [] };
  const base = (r?: RecordView) => r?.commit ?? input.watermark?.commit ?? input.push?.before;
  for (const u of input.units) {
    const d = decidePresent(u, input);
    if (d.to === 'run')
      out.run.push({ path: u.path, removed: false, reason: d.reason, base: base(d.base), tree: u.tree });
    else out[d.to].push({ path: u.path, reason: d.reason });
  }
  const present = new Set(input.units.map((u) => u.path));
  for (const g of input.gone) {
    if (present.has(g.path)) continue;
    const d = decideGone(g, input);
    if (d.to === 'run')
      out.run.push({
        path: g.path,
        removed: true,
        reason: d.reason,
        base: g.records?.[0]?.commit ?? g.baseCommit,
        baseCommit: g.baseCommit,
        ...(g.inventory ? { inventory: g.inventory } : {}),
      });
    else out[d.to].push({ path: g.path, reason: d.reason });
    if (d.to !== 'run' && d.forget) out.forget.push(g.path);
  }
  const byPath = <T extends { path: string }>(a: T, b: T) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  out.run.sort(byPath);
  out.held.sort(byPath);
  out.upToDate.sort(byPath);
  out.skipped.sort(byPath);
  return out;
}
