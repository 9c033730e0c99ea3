import { apiMessageOf, type GitHubClient, httpStatusOf } from './octokit.js';

/** Where the comment goes and what it says. */
export interface UpsertCommentInput {
  owner: string;
  repo: string;
  /** The pull request number (pull requests are issues for comments). */
  issueNumber: number;
  /** The hidden line naming the package: `previewMarker(pkg)` from src/report/preview-markdown.ts. */
  marker: string;
  /** The full comment; the marker is put first when the body does not already contain it. */
  body: string;
}

/** What happened to the comment. `skipped` carries a reason fit for a `core.notice`. */
export type UpsertCommentResult =
  | { action: 'created' | 'updated'; id: number; url?: string }
  | { action: 'skipped'; reason: string };

interface ListedComment {
  id: number;
  body?: string | null;
  user?: { type?: string } | null;
}

/**
 * Picks the comment to edit among those carrying the marker: one that starts with it (ours always does)
 * before one that merely quotes it, a bot's before a person's, then the oldest, so a comment a person
 * pasted the marker into is never overwritten while ours exists.
 */
export function pickMarkedComment(
  comments: readonly ListedComment[],
  marker: string,
): ListedComment | undefined {
  const rank = (c: ListedComment) =>
    (c.body?.trimStart().startsWith(marker) ? 0 : 2) + (c.user?.type === 'Bot' ? 0 : 1);
  return comments.filter((c) => c.body?.includes(marker)).sort((a, b) => rank(a) - rank(b) || a.id - b.id)[0];
}

function skipReason(status: number, message: string, what: string): string {
  const why =
    status === 403
      ? 'the token may not write comments here (a pull request from a fork gets a read-only token; give the job "permissions: pull-requests: write")'
      : 'the pull request or repository is not visible to this token';
  return `PR comment not written: GitHub answered ${status} (${message}) to ${what}; ${why}. The preview is in the job summary.`;
}

/**
 * Creates or edits this package's preview comment on a pull request: reads every comment (all pages:
 * the default page of 30 misses a marker on a busy PR) and edits the one with the marker in place,
 * else creates one, so re-runs never pile up comments. A 403/404 (fork PR's read-only token, missing
 * `pull-requests: write`) returns `skipped` instead of throwing: a preview must not fail because it
 * cannot comment. Other errors (bad credentials, body too long) throw with GitHub's message.
 */
export async function upsertPreviewComment(
  octokit: GitHubClient,
  input: UpsertCommentInput,
): Promise<UpsertCommentResult> {
  const { owner, repo, issueNumber, marker } = input;
  if (!marker.trim())
    throw new Error('upsertPreviewComment: the marker is empty; use previewMarker(package)');
  const body = input.body.includes(marker) ? input.body : `${marker}\n${input.body}`;
  const where = `${owner}/${repo}#${issueNumber}`;

  let comments: ListedComment[];
  try {
    comments = await octokit.paginate(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: issueNumber,
      per_page: 100,
    });
  } catch (err) {
    const status = httpStatusOf(err);
    if (status === 403 || status === 404)
      return {
        action: 'skipped',
        reason: skipReason(status, apiMessageOf(err), `listing comments of ${where}`),
      };
    throw new Error(`listing comments of ${where} failed: ${apiMessageOf(err)}`, { cause: err });
  }

  const existing = pickMarkedComment(comments, marker);
  try {
    if (existing) {
      const r = await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body });
      return { action: 'updated', id: r.data.id, url: r.data.html_url };
    }
    const r = await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
    return { action: 'created', id: r.data.id, url: r.data.html_url };
  } catch (err) {
    const what = existing ? `editing comment ${existing.id} on ${where}` : `commenting on ${where}`;
    const status = httpStatusOf(err);
    if (status === 403 || status === 404)
      return { action: 'skipped', reason: skipReason(status, apiMessageOf(err), what) };
    throw new Error(`${what} failed: ${apiMessageOf(err)}`, { cause: err });
  }
}
