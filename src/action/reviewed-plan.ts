import type { ReviewLookup } from '../preview/plan-gate.js';
import { parsePlanDigest } from '../report/plan-digest-marker.js';

/** One merged pull request's comment for the package: its body, none, or why it could not be read. */
export type PackageComment = { body?: string | null } | undefined | { skipped: string };

/**
 * Finds the plan reviewed for the tree being applied among the merged pull requests (newest merge
 * first): the newest whose comment's plan was reviewed on exactly `tree`. A plan without a tree (a
 * comment from an older version) stands for the newest pull request that has a plan, as before trees
 * were recorded. `commentOf` reads the package's comment on a pull request (marker and comment-key).
 */
export async function findReviewedPlan(
  pulls: readonly { number: number }[],
  commentOf: (pull: number) => Promise<PackageComment>,
  tree: string | undefined,
): Promise<ReviewLookup> {
  if (pulls.length === 0)
    return { kind: 'none', why: 'no merged pull request brought this change (pushed without one?)' };
  const reviewed: { pull: number; tree: string }[] = [];
  const unreadable: string[] = [];
  for (const pull of pulls) {
    const c = await commentOf(pull.number);
    if (c && 'skipped' in c) {
      unreadable.push(`#${pull.number}: ${c.skipped}`);
      continue;
    }
    const plan = c?.body ? parsePlanDigest(c.body) : undefined;
    if (!plan) continue;
    if (!plan.tree || !tree) {
      if (reviewed.length === 0) return { kind: 'found', pull: pull.number, plan };
      continue;
    }
    if (plan.tree === tree) return { kind: 'found', pull: pull.number, plan };
    reviewed.push({ pull: pull.number, tree: plan.tree });
  }
  if (reviewed.length > 0 && tree) return { kind: 'mismatch', tree, reviewed };
  if (unreadable.length > 0) return { kind: 'unreadable', why: unreadable.join('; ') };
  const where = pulls.map((p) => `#${p.number}`).join(', ');
  return {
    kind: 'none',
    why: `the PR comment was deleted or never written (${where}; a package with nothing to change at review gets none under comment: changes)`,
  };
}
