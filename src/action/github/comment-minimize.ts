import { apiMessageOf } from './api-response.js';
import type { GitHubClient } from './octokit.js';

/**
 * Older copies of one of our comments (two runs that raced, a comment GitHub created twice) are hidden as
 * outdated (GraphQL `minimizeComment`, classifier OUTDATED), never deleted: the newest is the one edited,
 * and a reader who unfolds an old copy still finds what it said. Which ones are hidden already is read
 * first (`nodes(ids:)`), so a later run sends no mutation for them again.
 */

const STATE_QUERY = `query($ids: [ID!]!) {
  nodes(ids: $ids) { ... on IssueComment { id isMinimized } }
}`;

const MINIMIZE = `mutation($input: MinimizeCommentInput!) {
  minimizeComment(input: $input) { minimizedComment { isMinimized } }
}`;

export interface HideResult {
  /** Comments hidden by this call. */
  hidden: number;
  /** Why some could not be hidden (for a notice), when any could not. */
  failed?: string;
}

/** Hides the comments (by GraphQL node id) that are not hidden yet. Never throws. */
export async function hideOutdated(octokit: GitHubClient, nodeIds: readonly string[]): Promise<HideResult> {
  const ids = [...new Set(nodeIds.filter(Boolean))];
  if (ids.length === 0) return { hidden: 0 };
  let open = ids;
  try {
    const r = await octokit.graphql<{ nodes?: ({ id?: string; isMinimized?: boolean } | null)[] }>(
      STATE_QUERY,
      { ids },
    );
    const done = new Set((r.nodes ?? []).filter((n) => n?.isMinimized).map((n) => n?.id));
    open = ids.filter((id) => !done.has(id));
  } catch {
    // the state is unknown: minimizing a hidden comment again is harmless
  }
  let hidden = 0;
  for (const id of open) {
    try {
      await octokit.graphql(MINIMIZE, { input: { subjectId: id, classifier: 'OUTDATED' } });
      hidden++;
    } catch (err) {
      return {
        hidden,
        failed: `could not hide ${open.length - hidden} older duplicate comment(s) as outdated: ${apiMessageOf(err)}`,
      };
    }
  }
  return { hidden };
}
