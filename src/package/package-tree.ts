import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { PackageError } from './package-error.js';
import { toPosix } from './path-safety.js';

export const KptfileName = 'Kptfile';

/** A YAML file found in the tree: where people see it (`rel`) and where it really is (`abs`). */
export interface TreeFile {
  /** Relative to the real root, posix separators. */
  rel: string;
  abs: string;
}

/** Everything a walk found below a directory. */
export interface PackageTree {
  /** Directories holding a Kptfile, relative to the real root (posix, `.` for the root), sorted. */
  packages: string[];
  /** `*.yaml` / `*.yml` files, sorted by path. */
  yamlFiles: TreeFile[];
  errors: PackageError[];
}

const isYaml = (name: string) => name.endsWith('.yaml') || name.endsWith('.yml');

/**
 * Walks `startAbs` (inside `realRoot`) the way kpt's package reader does: every directory, Kptfiles mark
 * packages, `*.yaml`/`*.yml` files are collected, symlinked directories are not followed (kpt ignores
 * them). Deliberate differences: hidden directories (`.git`, `.github`) and `node_modules` are skipped,
 * and a symlinked file is read only when it resolves inside the root; one pointing outside is an error,
 * not a silent read of some other file on the runner.
 */
export async function walkTree(realRoot: string, startAbs: string): Promise<PackageTree> {
  const tree: PackageTree = { packages: [], yamlFiles: [], errors: [] };
  const inside = (p: string) => {
    const rel = path.relative(realRoot, p);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };

  async function visit(dirAbs: string): Promise<void> {
    const entries = await readdir(dirAbs, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const abs = path.join(dirAbs, entry.name);
      const rel = toPosix(path.relative(realRoot, abs));
      if (entry.isDirectory()) {
        if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
        await visit(abs);
      } else if (entry.isSymbolicLink()) {
        const target = await realpath(abs).catch(() => undefined);
        if (target === undefined) continue; // dangling link: nothing to read
        if (!inside(target)) {
          tree.errors.push({
            message: `symlink points outside the repository (to "${target}")`,
            file: rel,
            fix: 'replace the symlink with a copy of the file, or remove it',
          });
          continue;
        }
        const info = await stat(target);
        if (info.isFile() && isYaml(entry.name)) tree.yamlFiles.push({ rel, abs: target });
        if (info.isFile() && entry.name === KptfileName)
          tree.packages.push(toPosix(path.relative(realRoot, dirAbs)));
      } else if (entry.isFile()) {
        if (entry.name === KptfileName) tree.packages.push(toPosix(path.relative(realRoot, dirAbs)));
        else if (isYaml(entry.name)) tree.yamlFiles.push({ rel, abs });
      }
    }
  }

  await visit(startAbs);
  tree.packages.sort();
  tree.yamlFiles.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return tree;
}

/** True when `dir` is `ancestor` or below it (posix paths relative to the same root, `.` for the root). */
export function isWithin(ancestor: string, dir: string): boolean {
  return ancestor === '.' || dir === ancestor || dir.startsWith(`${ancestor}/`);
}

const depth = (dir: string) => (dir === '.' ? 0 : dir.split('/').length);

/** The deepest package directory containing `fileRel`, i.e. the package that owns the file. */
export function owningPackage(packages: readonly string[], fileRel: string): string | undefined {
  const dir = path.posix.dirname(fileRel);
  let best: string | undefined;
  for (const pkg of packages) {
    if (isWithin(pkg, dir) && (best === undefined || depth(pkg) > depth(best))) best = pkg;
  }
  return best;
}
