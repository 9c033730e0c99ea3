import { getExecOutput } from '@actions/exec';
import { ensureCommits, type FetchOptions } from './fetch-commits.js';
import { git, gitEnv } from './git.js';

/**
 * The git tree object of a package directory at a commit: one hash that changes whenever anything under
 * the directory changes (subpackages included) and stays the same when only other directories change.
 * Comparing it is how catch-up tells whether the cluster already runs what a commit says for a package,
 * and how the apply tells whether a pull request reviewed exactly the tree being applied.
 */

/** `<commit>:<dir>` as git names it (`<commit>^{tree}` for the repository root). */
const spec = (commit: string, dir: string) => (dir === '.' ? `${commit}^{tree}` : `${commit}:${dir}`);

/**
 * The tree hash of each of `dirs` at `commit` (undefined for a directory that does not exist there, or
 * when git cannot read the commit). One `git cat-file --batch-check` for all of them: a monorepo of
 * hundreds of packages costs one process. Works in a depth-1 checkout (trees of the checked-out commit
 * are there); `fetch` first fetches a commit the checkout lacks.
 */
export async function packageTrees(
  repoDir: string,
  commit: string,
  dirs: readonly string[],
  opts: FetchOptions & { fetch?: boolean } = {},
): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>(dirs.map((d) => [d, undefined]));
  if (dirs.length === 0) return out;
  if (opts.fetch && !(await ensureCommits(repoDir, [commit], opts).catch(() => ({ ok: false }))).ok)
    return out;
  // one line per directory; a path with a newline cannot be asked this way (and is no package path)
  const asked = dirs.filter((d) => !d.includes('\n'));
  // git must be there to read what it is sent (else writing to it fails with EPIPE)
  const known = await git(repoDir, ['rev-parse', '--verify', '--quiet', `${commit}^{commit}`], {
    allowFail: true,
  }).catch(() => undefined);
  if (known?.code !== 0) return out;
  let stdout: string;
  try {
    const r = await getExecOutput('git', ['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
      cwd: repoDir,
      env: gitEnv(),
      silent: true,
      ignoreReturnCode: true,
      input: Buffer.from(asked.map((d) => `${spec(commit, d)}\n`).join('')),
    });
    if (r.exitCode !== 0) return out;
    stdout = r.stdout;
  } catch {
    return out; // no git, or not a repository: nothing is known
  }
  const lines = stdout.split('\n');
  asked.forEach((dir, i) => {
    const m = lines[i]?.match(/^([0-9a-f]{40,64}) tree$/);
    if (m) out.set(dir, m[1]);
  });
  return out;
}

/** The tree hash of one directory at `commit` (see packageTrees). */
export async function packageTree(
  repoDir: string,
  commit: string,
  dir: string,
  opts: FetchOptions & { fetch?: boolean } = {},
): Promise<string | undefined> {
  return (await packageTrees(repoDir, commit, [dir], opts)).get(dir);
}
