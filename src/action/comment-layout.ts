import { combinedMarker } from '../report/combined-sections.js';
import { type ListedComment, pickMarkedComment } from './github/pr-comment.js';
import type { CommentLayout } from './inputs.js';

/**
 * Under `auto`, a run with more packages than this gets one combined comment. Ten comments are about the
 * most a reviewer reads one by one, and at one write a second they take ten seconds; a base-image bump
 * across 200 packages would otherwise post 200 comments, past GitHub's limit of about 80
 * content-creating requests a minute.
 */
export const COMBINED_THRESHOLD = 10;

/**
 * The layout this run writes: as configured, or under `auto` combined when more than
 * COMBINED_THRESHOLD packages are previewed, or when the pull request already has our combined comment
 * for this key (a pull request that shrinks below the threshold keeps its one place to look).
 */
export function chooseLayout(
  configured: CommentLayout,
  packageCount: number,
  ours: readonly ListedComment[],
  key: string,
): 'per-package' | 'combined' {
  if (configured !== 'auto') return configured;
  if (packageCount > COMBINED_THRESHOLD) return 'combined';
  return pickMarkedComment(ours, combinedMarker(1, key)) ? 'combined' : 'per-package';
}
