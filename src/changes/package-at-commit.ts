import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureCommits, type FetchOptions } from './fetch-commits.js';
import { git } from './git.js';
import { filesAtCommit } from './inventory-at-commit.js';

/** A package directory as it was at a commit, written out under a temporary root. */
export interface PackageAtCommit {
  /** The temporary root: the package is at `path.join(root, dir)`, the same relative path as in the checkout. */
  root: string;
  /** Removes the temporary root. */
  dispose(): Promise<void>;
}

/** A package that cannot be read at the commit, with git's reason. */
export class PackageAtCommitError extends Error {
  override name = 'PackageAtCommitError';
}

/** Files written at once (each is one `git cat-file`). */
const AtOnce = 8;

/**
 * Writes the files of the package at `dir` (relative to `repoRoot`, which may be below the top of the git
 * checkout) as they were at `commit` into a temporary directory, at the same relative path, so the package
 * model reads the old package exactly as it reads the checkout, without touching the working tree or the
 * index. A checkout that lacks the commit (a shallow clone) fetches it by SHA from `origin`. Throws a
 * PackageAtCommitError saying why when git cannot provide it.
 */
export async function packageAtCommit(
  repoRoot: string,
  commit: string,
  dir: string,
  opts: FetchOptions = {},
): Promise<PackageAtCommit> {
  const short = commit.slice(0, 7);
  const top = await git(repoRoot, ['rev-parse', '--show-toplevel'], { allowFail: true }).catch(
    (err: Error) => ({ code: -1, stdout: '', stderr: err.message }),
  );
  if (top.code !== 0)
    throw new PackageAtCommitError(
      `cannot read commit ${short}: ${repoRoot} is not a git checkout (${top.stderr.trim() || `exit ${top.code}`})`,
    );
  const gitRoot = await realpath(top.stdout.trim());
  const absDir = path.join(await realpath(repoRoot), ...dir.split('/'));
  const treeDir = path.relative(gitRoot, absDir).split(path.sep).join('/') || '.';
  const present = await ensureCommits(gitRoot, [commit], opts);
  if (!present.ok)
    throw new PackageAtCommitError(
      `commit ${short} is not in this checkout and could not be fetched: ${present.error}`,
    );
  const files = await filesAtCommit(gitRoot, commit, treeDir);
  if (!files.some((f) => f === `${treeDir}/Kptfile` || (treeDir === '.' && f === 'Kptfile')))
    throw new PackageAtCommitError(`there is no package (no Kptfile) at "${dir}" in commit ${short}`);
  const root = await mkdtemp(path.join(os.tmpdir(), 'kpt-live-rollback-'));
  const dispose = () => rm(root, { recursive: true, force: true });
  try {
    for (let i = 0; i < files.length; i += AtOnce) {
      await Promise.all(
        files.slice(i, i + AtOnce).map(async (file) => {
          const rel = treeDir === '.' ? file : file.slice(treeDir.length + 1);
          const text = (await git(gitRoot, ['cat-file', 'blob', `${commit}:${file}`])).stdout;
          const abs = path.join(root, ...dir.split('/'), ...rel.split('/'));
          await mkdir(path.dirname(abs), { recursive: true });
          await writeFile(abs, text);
        }),
      );
    }
  } catch (err) {
    await dispose();
    throw new PackageAtCommitError(`cannot read the package at commit ${short}: ${(err as Error).message}`);
  }
  return { root, dispose };
}
