import { lstat } from 'node:fs/promises';
import path from 'node:path';
import {
  findUnits,
  formatPackageError,
  locateFile,
  PackageFailure,
  readInventoryInfo,
  sameInventory,
} from '../package/index.js';
import type { ChangeSet } from './changed-file.js';
import { ensureCommits, type FetchOptions } from './fetch-commits.js';
import { packageDirsAtCommit, readInventoryAtCommit, unitsAtCommit } from './inventory-at-commit.js';

export { resolveExplicitPackages } from './explicit-packages.js';
export { readInventoryAtCommit } from './inventory-at-commit.js';

/** A deployable unit the change touched. */
export interface ChangedUnit {
  /** The unit's directory relative to the repository root (posix, `.` for the root). */
  path: string;
  /** The change deleted the unit's directory: preview/destroy it from `baseCommit`'s inventory info. */
  removed: boolean;
  baseCommit?: string;
}

/** The units to process, in path order, plus what the log should say about files that map to none. */
export interface ChangedPackages {
  units: ChangedUnit[];
  /** Informational: files in packages nothing deploys, packages that moved. */
  notes: string[];
  /** Things that may make the list incomplete (the base commit could not be read). */
  warnings: string[];
}

const isWithin = (ancestor: string, p: string) =>
  ancestor === '.' || p === ancestor || p.startsWith(`${ancestor}/`);

function ancestorsOf(file: string): string[] {
  const dirs: string[] = [];
  for (let d = path.posix.dirname(file); ; d = path.posix.dirname(d)) {
    dirs.unshift(d);
    if (d === '.') return dirs;
  }
}

const exists = (abs: string) =>
  lstat(abs).then(
    () => true,
    () => false,
  );

/**
 * Maps a change set onto deployable units (the README's rule: a changed file belongs to its topmost package
 * with inventory info). Both paths of a rename count. A deleted file that no package in the checkout
 * claims is looked up in the base commit: if its unit's directory is gone from the checkout, the unit is
 * reported `removed` with the base commit, so the caller can read its inventory there (readInventoryAtCommit)
 * and preview or destroy it. A unit that only moved (same inventory at a new path) is not removed: the
 * apply of the new path takes its inventory over. `repoRoot` must be the top of the git checkout, since
 * change-set paths are relative to it.
 */
export async function changedPackages(
  repoRoot: string,
  changeSet: ChangeSet,
  opts: FetchOptions = {},
): Promise<ChangedPackages> {
  const notes: string[] = [];
  const warnings: string[] = [];
  if (changeSet.all) {
    const units = (await findUnits(repoRoot)).map((u) => ({ path: u.dir, removed: false }));
    return { units, notes, warnings };
  }

  const present = new Set<string>();
  /** Files gone from the checkout that no unit in it claims, with the note locateFile gave (if any). */
  const gone = new Map<string, string | undefined>();
  const paths = new Set(changeSet.files.flatMap((f) => (f.previous ? [f.path, f.previous] : [f.path])));
  for (const file of paths) {
    try {
      const loc = await locateFile(repoRoot, file);
      if (loc.unit) present.add(loc.unit);
      else if (!(await exists(path.join(repoRoot, file)))) gone.set(file, loc.note);
      else if (loc.note) notes.push(loc.note);
    } catch (err) {
      if (!(err instanceof PackageFailure)) throw err;
      warnings.push(`${file}: ${err.errors.map(formatPackageError).join('; ')}`);
    }
  }

  const { units: removed, explained } = gone.size
    ? await removedUnits(repoRoot, changeSet.base, [...gone.keys()], opts, warnings)
    : { units: [], explained: new Set<string>() };
  for (const [file, note] of gone) if (note && !explained.has(file)) notes.push(note);
  for (const unit of [...removed]) {
    const moved = await movedTo(repoRoot, changeSet.base ?? '', unit, [...present], opts);
    if (moved) {
      removed.splice(removed.indexOf(unit), 1);
      notes.push(
        `package "${unit}" moved to "${moved}" with the same inventory: it is applied at its new path, not destroyed`,
      );
    }
  }

  const units: ChangedUnit[] = [
    ...[...present].map((p) => ({ path: p, removed: false })),
    ...removed.map((p) => ({ path: p, removed: true, baseCommit: changeSet.base })),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { units, notes: [...new Set(notes)], warnings };
}

/**
 * Units at `base` that held some of the `gone` files and whose directory has no Kptfile in the checkout,
 * and the files they explain.
 */
async function removedUnits(
  repoRoot: string,
  base: string | undefined,
  gone: readonly string[],
  opts: FetchOptions,
  warnings: string[],
): Promise<{ units: string[]; explained: Set<string> }> {
  const units = new Set<string>();
  const explained = new Set<string>();
  if (!base) {
    warnings.push(
      `the change set names no base commit, so deleted packages cannot be found (${gone[0]}, ...)`,
    );
    return { units: [], explained };
  }
  const fetched = await ensureCommits(repoRoot, [base], opts);
  if (!fetched.ok) {
    warnings.push(`cannot read the base commit to find deleted packages: ${fetched.error}`);
    return { units: [], explained };
  }
  const basePackages = await packageDirsAtCommit(repoRoot, base);
  const roots = new Set<string>();
  for (const file of gone) {
    const top = ancestorsOf(file).find((d) => basePackages.has(d));
    if (top) roots.add(top);
  }
  if (roots.size === 0) return { units: [], explained };
  const baseUnits = await unitsAtCommit(repoRoot, base, [...roots], opts);
  for (const file of gone) {
    const unit = baseUnits.find((u) => isWithin(u.dir, file));
    if (unit && !(await exists(path.join(repoRoot, unit.dir, 'Kptfile')))) {
      units.add(unit.dir);
      explained.add(file);
    }
  }
  return { units: [...units], explained };
}

/** The changed unit that now holds the inventory `unit` had at `base`: the package moved, it was not deleted. */
async function movedTo(
  repoRoot: string,
  base: string,
  unit: string,
  candidates: readonly string[],
  opts: FetchOptions,
): Promise<string | undefined> {
  if (candidates.length === 0) return undefined;
  const before = (await readInventoryAtCommit(repoRoot, base, unit, opts)).inventory;
  if (!before) return undefined;
  for (const candidate of candidates) {
    const now = await readInventoryInfo(candidate, { repoRoot }).catch(() => undefined);
    if (now?.inventory && sameInventory(before, now.inventory)) return candidate;
  }
  return undefined;
}
