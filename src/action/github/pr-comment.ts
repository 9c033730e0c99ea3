import { apiMessageOf, httpStatusOf } from './api-response.js';
import type { GitHubClient } from './octokit.js';

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

export interface ListedComment {
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
  return `PR comment not written: GitHub answered ${status} (${message}) to ${what}; ${why}. The job summary has the result.`;
}

/** A pull request's comments, read once (every page) and kept current as this run writes. */
export interface CommentThread {
  owner: string;
  repo: string;
  issueNumber: number;
  comments: ListedComment[];
}

/**
 * Reads every comment of a pull request (all pages: the default page of 30 misses a marker on a busy PR).
 * A 403/404 (a fork PR's read-only token, no access) gives `skipped` with a reason fit for a notice.
 */
export async function readCommentThread(
  octokit: GitHubClient,
  where: { owner: string; repo: string; issueNumber: number },
): Promise<CommentThread | { skipped: string }> {
  const { owner, repo, issueNumber } = where;
  const name = `${owner}/${repo}#${issueNumber}`;
  try {
    const comments: ListedComment[] = await octokit.paginate(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: issueNumber,
      per_page: 100,
    });
    return { ...where, comments };
  } catch (err) {
    const status = httpStatusOf(err);
    if (status === 403 || status === 404)
      return { skipped: skipReason(status, apiMessageOf(err), `listing comments of ${name}`) };
    throw new Error(`listing comments of ${name} failed: ${apiMessageOf(err)}`, { cause: err });
  }
}

/** The comment of a thread that carries `marker` (see pickMarkedComment). */
export function findMarkedComment(thread: CommentThread, marker: string): ListedComment | undefined {
  return pickMarkedComment(thread.comments, marker);
}

/**
 * Edits the comment carrying `marker` in place, else creates one (and records it in the thread, so a
 * later write in the same run finds it). 403/404 give `skipped`; other errors throw with GitHub's message.
 */
export async function writeMarkedComment(
  octokit: GitHubClient,
  thread: CommentThread,
  marker: string,
  text: string,
): Promise<UpsertCommentResult> {
  if (!marker.trim()) throw new Error('writeMarkedComment: the marker is empty; use previewMarker(package)');
  const { owner, repo, issueNumber } = thread;
  const body = text.includes(marker) ? text : `${marker}\n${text}`;
  const where = `${owner}/${repo}#${issueNumber}`;
  const existing = pickMarkedComment(thread.comments, marker);
  try {
    if (existing) {
      const r = await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body });
      existing.body = body;
      return { action: 'updated', id: r.data.id, url: r.data.html_url };
    }
    const r = await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
    thread.comments.push({ id: r.data.id, body, user: { type: r.data.user?.type } });
    return { action: 'created', id: r.data.id, url: r.data.html_url };
  } catch (err) {
    const what = existing ? `editing comment ${existing.id} on ${where}` : `commenting on ${where}`;
    const status = httpStatusOf(err);
    if (status === 403 || status === 404)
      return { action: 'skipped', reason: skipReason(status, apiMessageOf(err), what) };
    throw new Error(`${what} failed: ${apiMessageOf(err)}`, { cause: err });
  }
}

/**
 * Creates or edits this package's preview comment on a pull request: reads every comment and edits the
 * one with the marker in place, else creates one, so re-runs never pile up comments. A 403/404 (fork
 * PR's read-only token, missing `pull-requests: write`) returns `skipped` instead of throwing: a preview
 * must not fail because it cannot comment. Other errors (bad credentials, body too long) throw.
 */
export async function upsertPreviewComment(
  octokit: GitHubClient,
  input: UpsertCommentInput,
): Promise<UpsertCommentResult> {
  if (!input.marker.trim())
    throw new Error('upsertPreviewComment: the marker is empty; use previewMarker(package)');
  const thread = await readCommentThread(octokit, input);
  if ('skipped' in thread) return { action: 'skipped', reason: thread.skipped };
  return writeMarkedComment(octokit, thread, input.marker, input.body);
}
