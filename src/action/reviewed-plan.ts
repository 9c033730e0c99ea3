import type { ReviewedPlan } from '../preview/plan-digest.js';
import type { ReviewLookup } from '../preview/plan-gate.js';
import { isMovedToCombined } from '../report/combined-comment.js';
import { packageSection, parseCombinedMarker, sectionPreview } from '../report/combined-sections.js';
import { parsePlanDigest } from '../report/plan-digest-marker.js';
import { previewMarker } from '../report/preview-markdown.js';
import {
  type GitHubClient,
  type ListedComment,
  pickMarkedComment,
  readCommentThread,
} from './github/index.js';

/**
 * The plan a pull request's preview comment reviewed for one package, whichever layout wrote it: the
 * package's own comment (`<!-- kpt-live-action:preview package=P key=K -->`) or its section in the
 * combined comment (`<!-- kpt-live-action:preview combined part=N key=K -->`). Only our own comments
 * count (see readCommentThread), and of several copies the newest, which is the one the preview edits.
 */

export interface FoundReviewedPlan {
  plan: ReviewedPlan;
  /** The comment that holds it. */
  commentId: number;
  url?: string;
  layout: 'per-package' | 'combined';
}

/** Of each combined part of this key, our newest comment (part number → comment). */
export function combinedParts(comments: readonly ListedComment[], key: string): Map<number, ListedComment> {
  const parts = new Map<number, ListedComment>();
  for (const c of comments) {
    const m = c.body ? parseCombinedMarker(c.body) : undefined;
    if (!m || m.key !== key) continue;
    const seen = parts.get(m.part);
    if (!seen || c.id > seen.id) parts.set(m.part, c);
  }
  return parts;
}

/** The combined part (comment) that holds the package's section, if any. */
export function combinedPartOf(
  comments: readonly ListedComment[],
  pkg: string,
  key: string,
): ListedComment | undefined {
  const parts = [...combinedParts(comments, key).entries()].sort((a, b) => a[0] - b[0]);
  return parts.find(([, c]) => packageSection(c.body ?? '', pkg) !== undefined)?.[1];
}

/**
 * The reviewed plan of `pkg` (and `key`, the `comment-key`) among one pull request's comments (ours
 * only), or undefined when none holds one. When both layouts hold a digest (a run that switched layout
 * and stopped half-way), the newer comment wins.
 */
export function reviewedPlanFor(
  comments: readonly ListedComment[],
  pkg: string,
  key: string,
): FoundReviewedPlan | undefined {
  const found: (FoundReviewedPlan & { updated: string })[] = [];
  const own = pickMarkedComment(comments, previewMarker(pkg, key));
  const ownPlan = own?.body && !isMovedToCombined(own.body) ? parsePlanDigest(own.body) : undefined;
  if (own && ownPlan)
    found.push({
      plan: ownPlan,
      commentId: own.id,
      url: own.html_url,
      layout: 'per-package',
      updated: own.updated_at ?? '',
    });
  const part = combinedPartOf(comments, pkg, key);
  const section = part ? packageSection(part.body ?? '', pkg) : undefined;
  const partPlan = section !== undefined ? parsePlanDigest(sectionPreview(section)) : undefined;
  if (part && partPlan)
    found.push({
      plan: partPlan,
      commentId: part.id,
      url: part.html_url,
      layout: 'combined',
      updated: part.updated_at ?? '',
    });
  found.sort((a, b) => b.updated.localeCompare(a.updated));
  if (found.length === 0) return undefined;
  const { updated: _updated, ...best } = found[0];
  return best;
}

/** Reads the pull request's comments (ours) and returns `reviewedPlanFor` them, or why it cannot. */
export async function readReviewedPlan(
  octokit: GitHubClient,
  where: { owner: string; repo: string; pull: number },
  pkg: string,
  key: string,
): Promise<FoundReviewedPlan | { none: string }> {
  const t = await readCommentThread(octokit, {
    owner: where.owner,
    repo: where.repo,
    issueNumber: where.pull,
  });
  if ('skipped' in t) return { none: t.skipped };
  return (
    reviewedPlanFor(t.comments, pkg, key) ?? {
      none: `no comment of ${pkg}${key ? ` (comment-key ${key})` : ''} on #${where.pull} holds a reviewed plan`,
    }
  );
}

/** One merged pull request's reviewed plan for the package: found, none, or why its comments could not be read. */
export type PullPlan = { plan?: ReviewedPlan } | { skipped: string };

/**
 * Finds the plan reviewed for the tree being applied among the merged pull requests (newest merge first):
 * the newest whose comment's plan was reviewed on exactly `tree`. A plan without a tree (a comment from an
 * older version) stands for the newest pull request that has a plan, as before trees were recorded.
 * `planOf` reads the package's reviewed plan on a pull request (either comment layout, comment-key).
 */
export async function findReviewedPlan(
  pulls: readonly { number: number }[],
  planOf: (pull: number) => Promise<PullPlan>,
  tree: string | undefined,
): Promise<ReviewLookup> {
  if (pulls.length === 0)
    return { kind: 'none', why: 'no merged pull request brought this change (pushed without one?)' };
  const reviewed: { pull: number; tree: string }[] = [];
  const unreadable: string[] = [];
  for (const pull of pulls) {
    const found = await planOf(pull.number);
    if ('skipped' in found) {
      unreadable.push(`#${pull.number}: ${found.skipped}`);
      continue;
    }
    const plan = found.plan;
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
