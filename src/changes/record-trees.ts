import type { DeployRecord } from '../inventory/deploy-history.js';
import { ensureCommits } from './fetch-commits.js';
import { packageTrees } from './tree-hash.js';

/**
 * Deploy records written before trees were recorded (a commit, no tree) get the tree of their package at
 * their commit, read from git: one `git cat-file` per commit. Each list is one package's records, newest
 * first; `counted(list)` says how many of its newest records the caller compares (the others stay as they
 * are). `dirOf` names the package directory git is asked about; `fetch` first fetches, by SHA and all at
 * once, the commits a shallow checkout lacks. A commit git cannot read leaves its records without a tree.
 */
export async function fillRecordTrees(
  repoRoot: string,
  lists: Iterable<DeployRecord[]>,
  o: { counted: (list: DeployRecord[]) => number; dirOf: (r: DeployRecord) => string; fetch?: boolean },
): Promise<void> {
  const wanted = new Map<string, DeployRecord[]>();
  for (const list of lists)
    for (const r of list.slice(0, o.counted(list))) {
      if (r.tree || !r.commit) continue;
      wanted.set(r.commit, [...(wanted.get(r.commit) ?? []), r]);
    }
  if (wanted.size === 0) return;
  if (o.fetch) await ensureCommits(repoRoot, [...wanted.keys()]).catch(() => undefined);
  for (const [commit, records] of wanted) {
    const trees = await packageTrees(repoRoot, commit, [...new Set(records.map(o.dirOf))]);
    for (const r of records) r.tree = trees.get(o.dirOf(r));
  }
}
