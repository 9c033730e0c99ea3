import { git } from '../changes/git.js';
import type { DeployRecord } from '../inventory/deploy-history.js';

/** Whether `older` is an ancestor of `newer` in the repository; undefined when git cannot tell. */
export async function isAncestor(
  repoDir: string,
  older: string,
  newer: string,
): Promise<boolean | undefined> {
  const ask = async () => {
    try {
      const r = await git(repoDir, ['merge-base', '--is-ancestor', older, newer], { allowFail: true });
      return r.code === 0 ? true : r.code === 1 ? false : undefined;
    } catch {
      return undefined; // no git
    }
  };
  let answer = await ask();
  if (answer === undefined) {
    // a shallow checkout may lack the other commit: fetch it and ask again
    const fetch = (args: string[]) =>
      git(repoDir, ['fetch', '--no-tags', '--quiet', ...args], { allowFail: true }).catch(() => undefined);
    await fetch(['origin', newer]);
    await fetch(['--unshallow', 'origin']);
    answer = await ask();
  }
  return answer;
}

/**
 * The stale-commit guard: refuses to apply a commit that is an ancestor of the last successfully applied
 * one (a re-run of an old merge would silently roll back and prune newer objects). Returns the reason to
 * refuse, or undefined.
 */
export async function staleCommitReason(
  repoDir: string,
  commit: string,
  history: DeployRecord[],
): Promise<string | undefined> {
  const last = history.find((r) => r.mode === 'apply' && r.result === 'success' && r.commit);
  if (!last?.commit || last.commit === commit) return undefined;
  if ((await isAncestor(repoDir, commit, last.commit)) !== true) return undefined;
  return (
    `commit ${commit.slice(0, 12)} is older than ${last.commit.slice(0, 12)}, which was applied successfully at ${last.finishedAt} ` +
    `(${last.trigger}): applying it would roll the package back and prune newer objects. Set allow-stale (--allow-stale) to apply it anyway`
  );
}
