import { git, oneLine } from './git.js';

/** 40 (SHA-1) or 64 (SHA-256) zeros: the `before` of a push that created the branch. */
export function isZeroSha(sha: string | undefined): boolean {
  return sha !== undefined && /^0+$/.test(sha) && (sha.length === 40 || sha.length === 64);
}

/** True when the commit object is in the local repository (a depth-1 checkout lacks older ones). */
export async function hasCommit(repoDir: string, sha: string): Promise<boolean> {
  return (await git(repoDir, ['cat-file', '-e', `${sha}^{commit}`], { allowFail: true })).code === 0;
}

/** True for a clone made with `--depth` (what actions/checkout does by default). */
export async function isShallow(repoDir: string): Promise<boolean> {
  const r = await git(repoDir, ['rev-parse', '--is-shallow-repository'], { allowFail: true });
  return r.stdout.trim() === 'true';
}

/** Where fetches come from and how much history they bring. */
export interface FetchOptions {
  /** Default `origin`, the remote actions/checkout configures (with its credentials). */
  remote?: string;
  /** Commits of history per fetched SHA; default 1 (a tree diff needs only the commits themselves). */
  depth?: number;
}

/**
 * Makes sure every commit in `shas` is present, fetching the missing ones by SHA from the remote
 * (`git fetch --no-tags --depth=N origin <sha>...`; GitHub serves any reachable commit, including a pull
 * request's head). Returns the error text instead of throwing, because callers have another way to find
 * the change (the compare API) and must say why they used it.
 */
export async function ensureCommits(
  repoDir: string,
  shas: readonly string[],
  opts: FetchOptions = {},
): Promise<{ ok: boolean; fetched: string[]; error?: string }> {
  const missing: string[] = [];
  for (const sha of new Set(shas)) if (!(await hasCommit(repoDir, sha))) missing.push(sha);
  if (missing.length === 0) return { ok: true, fetched: [] };
  const args = [
    'fetch',
    '--no-tags',
    '--quiet',
    `--depth=${opts.depth ?? 1}`,
    opts.remote ?? 'origin',
    ...missing,
  ];
  const r = await git(repoDir, args, { allowFail: true });
  for (const sha of missing) {
    if (!(await hasCommit(repoDir, sha))) {
      return {
        ok: false,
        fetched: [],
        error: `could not fetch commit ${sha} from ${opts.remote ?? 'origin'} (git ${args.join(' ')}: ${oneLine(r.stderr) || `exit ${r.code}`})`,
      };
    }
  }
  return { ok: true, fetched: missing };
}

/** The merge base of two commits, or undefined when the local history does not reach one. */
export async function mergeBase(repoDir: string, a: string, b: string): Promise<string | undefined> {
  const r = await git(repoDir, ['merge-base', a, b], { allowFail: true });
  return r.code === 0 ? r.stdout.trim() || undefined : undefined;
}

/**
 * Fetches more history of `a` and `b` until their merge base is local: depth 50, then 500, then the whole
 * history. A three-dot diff (what a pull request shows) needs it; a depth-1 checkout never has it.
 */
export async function deepenUntilMergeBase(
  repoDir: string,
  a: string,
  b: string,
  opts: { remote?: string } = {},
): Promise<string | undefined> {
  const found = await mergeBase(repoDir, a, b);
  if (found || !(await isShallow(repoDir))) return found;
  const remote = opts.remote ?? 'origin';
  for (const step of [['--depth=50'], ['--depth=500'], ['--unshallow']]) {
    await git(repoDir, ['fetch', '--no-tags', '--quiet', ...step, remote, a, b], { allowFail: true });
    const base = await mergeBase(repoDir, a, b);
    if (base || !(await isShallow(repoDir))) return base;
  }
  return undefined;
}
