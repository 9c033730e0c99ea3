import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  findPackages,
  groupUnits,
  type InventoryInfo,
  type PackageError,
  readInventoryInfo,
  type Unit,
} from '../package/index.js';
import { ensureCommits, type FetchOptions } from './fetch-commits.js';
import { git } from './git.js';

const isYaml = (f: string) => f.endsWith('.yaml') || f.endsWith('.yml');
const isKptfile = (f: string) => f === 'Kptfile' || f.endsWith('/Kptfile');

/** Every path in `commit`'s tree (blobs only, no symlinks or submodules), optionally below `dir`. */
export async function filesAtCommit(repoDir: string, commit: string, dir = '.'): Promise<string[]> {
  const spec = dir === '.' ? [] : ['--', dir];
  const r = await git(repoDir, [
    '--literal-pathspecs',
    'ls-tree',
    '-r',
    '-z',
    '--full-tree',
    commit,
    ...spec,
  ]);
  const files: string[] = [];
  for (const entry of r.stdout.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type] = entry.slice(0, tab).split(' ');
    if (type === 'blob' && mode !== '120000') files.push(entry.slice(tab + 1));
  }
  return files;
}

/**
 * Copies what package discovery reads (Kptfiles, and YAML files that mention ResourceGroup) from
 * `commit` under `dirs` into `dest` at the same relative paths, so the package model's own rules
 * (findUnits, readInventoryInfo) answer for an old commit exactly as they do for the checkout, without
 * touching the working tree. Returns the directories that held a Kptfile at that commit.
 */
async function materialize(repoDir: string, commit: string, dirs: readonly string[], dest: string) {
  const packages = new Set<string>();
  for (const dir of new Set(dirs)) {
    const files = await filesAtCommit(repoDir, commit, dir);
    const spec = dir === '.' ? [] : ['--', dir];
    const grep = await git(
      repoDir,
      ['--literal-pathspecs', 'grep', '-l', '-z', '-F', '-e', 'ResourceGroup', commit, ...spec],
      { allowFail: true },
    );
    const mentions = new Set(
      grep.stdout
        .split('\0')
        .filter(Boolean)
        .map((hit) => hit.slice(commit.length + 1)),
    );
    for (const file of files) {
      if (isKptfile(file)) packages.add(path.posix.dirname(file));
      if (!isKptfile(file) && !(isYaml(file) && mentions.has(file))) continue;
      const text = (await git(repoDir, ['cat-file', 'blob', `${commit}:${file}`])).stdout;
      const abs = path.join(dest, ...file.split('/'));
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFile(abs, text);
    }
  }
  return packages;
}

async function withCommitTree<T>(
  repoDir: string,
  commit: string,
  dirs: readonly string[],
  opts: FetchOptions,
  use: (root: string, packages: Set<string>) => Promise<T>,
): Promise<T> {
  const present = await ensureCommits(repoDir, [commit], opts);
  if (!present.ok) throw new Error(`cannot read commit ${commit}: ${present.error}`);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'kpt-live-base-'));
  try {
    return await use(tmp, await materialize(repoDir, commit, dirs, tmp));
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * The inventory info of the package at `unitDir` as it was at `commit` (resourcegroup.yaml or the
 * Kptfile's `inventory:`, with kpt's rules from src/package). A pull request that deletes a package
 * leaves nothing in the checkout to read, yet its preview must say what the removal prunes, and the
 * apply after merge must find the inventory to destroy. Fetches `commit` when the checkout lacks it.
 */
export async function readInventoryAtCommit(
  repoDir: string,
  commit: string,
  unitDir: string,
  opts: FetchOptions = {},
): Promise<{ inventory?: InventoryInfo; errors: PackageError[]; notices: string[] }> {
  return withCommitTree(repoDir, commit, [unitDir], opts, async (root, packages) => {
    if (!packages.has(unitDir)) {
      return {
        errors: [
          {
            message: `there is no package (no Kptfile) at "${unitDir}" in commit ${commit}`,
            file: path.posix.join(unitDir, 'Kptfile'),
            fix: 'check the package path and the commit the change is compared with',
          },
        ],
        notices: [],
      };
    }
    return readInventoryInfo(unitDir, { repoRoot: root });
  });
}

/**
 * The deployable units (the README's rules, via src/package's groupUnits) found at `commit` below each of
 * `roots` (package directories at that commit). Used to tell which unit a deleted file belonged to.
 */
export async function unitsAtCommit(
  repoDir: string,
  commit: string,
  roots: readonly string[],
  opts: FetchOptions = {},
): Promise<Unit[]> {
  return withCommitTree(repoDir, commit, roots, opts, async (root) => groupUnits(await findPackages(root)));
}

/** The directories holding a Kptfile at `commit`, in the whole tree (one `git ls-tree`). */
export async function packageDirsAtCommit(repoDir: string, commit: string): Promise<Set<string>> {
  return new Set((await filesAtCommit(repoDir, commit)).filter(isKptfile).map((f) => path.posix.dirname(f)));
}
