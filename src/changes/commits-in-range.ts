import { ensureCommits, isShallow } from './fetch-commits.js';
import { git, oneLine } from './git.js';

/** The most commits a range lists: each costs GitHub a request to find its pull request. */
export const RANGE_COMMITS_MAX = 100;

/** The commits of a range that changed some directories, or why the range could not be read. */
export type CommitsInRange = { commits: string[]; truncated: boolean } | { unknown: string };

async function isAncestor(repoDir: string, older: string, newer: string): Promise<boolean> {
  const r = await git(repoDir, ['merge-base', '--is-ancestor', older, newer], { allowFail: true });
  return r.code === 0;
}

/**
 * Fetches history of `head` until `base` is one of its ancestors (depth 50, 500, then all): a depth-1
 * checkout has neither the commits in between nor `base`. False when `base` is not an ancestor of `head`
 * (a force push rewrote the branch) or the remote cannot serve it.
 */
export async function reachBase(
  repoDir: string,
  base: string,
  head: string,
  opts: { remote?: string } = {},
): Promise<boolean> {
  const present = await ensureCommits(repoDir, [base, head], opts);
  if (!present.ok) return false;
  if (await isAncestor(repoDir, base, head)) return true;
  const remote = opts.remote ?? 'origin';
  for (const step of [['--depth=50'], ['--depth=500'], ['--unshallow']]) {
    if (!(await isShallow(repoDir))) return false;
    await git(repoDir, ['fetch', '--no-tags', '--quiet', ...step, remote, head], { allowFail: true });
    if (await isAncestor(repoDir, base, head)) return true;
  }
  return false;
}

/**
 * The commits of `base..head` on the branch's first-parent line that changed something under `dirs`,
 * newest first: the merges (or squashed and rebased commits) that brought each change to the branch,
 * which is what GitHub associates a merged pull request with. At most RANGE_COMMITS_MAX.
 */
export async function commitsTouching(
  repoDir: string,
  base: string,
  head: string,
  dirs: readonly string[],
  opts: { remote?: string } = {},
): Promise<CommitsInRange> {
  if (base === head) return { commits: [], truncated: false };
  if (!(await reachBase(repoDir, base, head, opts)))
    return {
      unknown: `commit ${base.slice(0, 7)} is not in the history of ${head.slice(0, 7)} that git could fetch`,
    };
  const paths = dirs.includes('.') ? [] : ['--', ...dirs];
  const r = await git(
    repoDir,
    ['rev-list', '--first-parent', `--max-count=${RANGE_COMMITS_MAX + 1}`, `${base}..${head}`, ...paths],
    { allowFail: true },
  );
  if (r.code !== 0) return { unknown: `git rev-list ${base}..${head}: ${oneLine(r.stderr)}` };
  const commits = r.stdout.split('\n').filter(Boolean);
  return { commits: commits.slice(0, RANGE_COMMITS_MAX), truncated: commits.length > RANGE_COMMITS_MAX };
}
