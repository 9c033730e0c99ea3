import { stat } from 'node:fs/promises';
import path from 'node:path';
import { nestedInventoryError, scanResourceGroups } from './inventory-info.js';
import { readKptfile } from './kptfile.js';
import type { PackageError } from './package-error.js';
import { isWithin, KptfileName, owningPackage, type PackageTree, walkTree } from './package-tree.js';
import { resolveInside } from './path-safety.js';

/** A directory with a Kptfile, and whether it holds inventory info of its own. */
export interface PackageInfo {
  /** Relative to the root (posix, `.` for the root itself). */
  dir: string;
  hasInventory: boolean;
  /** The files holding its inventory info (its Kptfile and/or ResourceGroup files), relative to the root. */
  inventoryFiles: string[];
}

/**
 * A deployable unit: the topmost package, following Kptfiles up the tree, that holds
 * inventory info. Its subpackages are applied with it, as `kpt live apply <dir>` reads them all.
 */
export interface Unit {
  /** Relative to the root (posix, `.` for the root itself). */
  dir: string;
  /** The unit's own directory first, then every subpackage below it. */
  packages: string[];
  /** Inventory info inside a subpackage: two inventories would own the same objects. */
  errors: PackageError[];
}

/** Where a changed file belongs. */
export interface FileLocation {
  /** The file, relative to the root. */
  file: string;
  /** The deepest package containing it. */
  package?: string;
  /** The deployable unit it belongs to. */
  unit?: string;
  /** Set when the file is in a package that nothing deploys (no inventory info up the tree). */
  note?: string;
}

async function inventoryFilesOf(tree: PackageTree, realRoot: string, pkg: string): Promise<string[]> {
  const files: string[] = [];
  const kptfile = await readKptfile(path.join(realRoot, pkg, KptfileName), path.posix.join(pkg, KptfileName));
  if (kptfile.inventory) files.push(kptfile.file);
  const own = tree.yamlFiles.filter((f) => owningPackage(tree.packages, f.rel) === pkg);
  for (const rg of await scanResourceGroups(own))
    if (!files.includes(rg.source.file)) files.push(rg.source.file);
  return files;
}

async function describePackages(tree: PackageTree, realRoot: string): Promise<PackageInfo[]> {
  const infos: PackageInfo[] = [];
  for (const dir of tree.packages) {
    const inventoryFiles = await inventoryFilesOf(tree, realRoot, dir);
    infos.push({ dir, hasInventory: inventoryFiles.length > 0, inventoryFiles });
  }
  return infos;
}

/**
 * Every package (directory with a Kptfile) under `root`, in path order, with its inventory info files.
 * Hidden directories and node_modules are skipped (see walkTree).
 */
export async function findPackages(root: string): Promise<PackageInfo[]> {
  const safe = await resolveInside(root, '.', 'root');
  return describePackages(await walkTree(safe.realRoot, safe.abs), safe.realRoot);
}

/**
 * Groups packages into deployable units: a package with inventory info and no ancestor package with
 * inventory info starts a unit; every package below it belongs to it, and inventory info found in one of
 * those is an error of the unit. Packages with no inventory info anywhere up the tree belong to no unit.
 * Pure, so "which packages did this PR change" can be computed from one walk.
 */
export function groupUnits(packages: readonly PackageInfo[]): Unit[] {
  const roots = packages.filter(
    (p) => p.hasInventory && !packages.some((q) => q !== p && q.hasInventory && isWithin(q.dir, p.dir)),
  );
  return roots.map((unit) => {
    const members = packages.filter((p) => isWithin(unit.dir, p.dir));
    const errors: PackageError[] = members
      .filter((p) => p !== unit && p.hasInventory)
      .map((p) => nestedInventoryError(p.dir, unit.dir, p.inventoryFiles[0]));
    return {
      dir: unit.dir,
      packages: [unit.dir, ...members.filter((p) => p !== unit).map((p) => p.dir)],
      errors,
    };
  });
}

/** The deployable units under `root` (see groupUnits), in path order. */
export async function findUnits(root: string): Promise<Unit[]> {
  return groupUnits(await findPackages(root));
}

/**
 * Which package and deployable unit a file (relative to `root`, e.g. from a pull request's changed files)
 * belongs to. The file may no longer exist (deleted in the PR); its path must still stay inside `root`.
 * A file in a package that has no inventory info anywhere up the tree maps to no unit, with a note saying
 * so, because such a change is deployed by nothing and the user should know.
 */
export async function locateFile(root: string, relPath: string): Promise<FileLocation> {
  const safe = await resolveInside(root, relPath, 'file');
  const isDir = await stat(safe.abs).then(
    (s) => s.isDirectory(),
    () => false,
  );
  const ancestors: string[] = [];
  let dir = isDir ? safe.rel : path.posix.dirname(safe.rel);
  for (;;) {
    const hasKptfile = await stat(path.join(safe.realRoot, dir, KptfileName)).then(
      (s) => s.isFile(),
      () => false,
    );
    if (hasKptfile) ancestors.unshift(dir);
    if (dir === '.') break;
    dir = path.posix.dirname(dir);
  }
  const location: FileLocation = { file: safe.rel };
  if (ancestors.length === 0) return location;
  location.package = ancestors[ancestors.length - 1];
  const tree = await walkTree(safe.realRoot, path.join(safe.realRoot, ancestors[0]));
  for (const pkg of ancestors) {
    if ((await inventoryFilesOf(tree, safe.realRoot, pkg)).length > 0) {
      location.unit = pkg;
      return location;
    }
  }
  location.note = `${safe.rel} is in package "${location.package}", which has no inventory info and no parent package with one, so nothing deploys it; run "kpt-live init ${location.package}" to make it deployable`;
  return location;
}

/** The deployable unit `relPath` belongs to, or undefined (see locateFile for the note to show then). */
export async function unitForFile(root: string, relPath: string): Promise<string | undefined> {
  return (await locateFile(root, relPath)).unit;
}
