import { apiMessageOf, httpStatusOf, refusalHint } from './api-response.js';
import { hideOutdated } from './comment-minimize.js';
import { isAuthoredBy, tokenIdentity } from './identity.js';
import type { GitHubClient } from './octokit.js';
import type { TokenIdentity } from './run-state.js';

/** Where the comment goes and what it says. */
export interface UpsertCommentInput {
  owner: string;
  repo: string;
  /** The pull request number (pull requests are issues for comments). */
  issueNumber: number;
  /** The hidden first line naming the comment: `previewMarker(pkg)` from src/report/preview-markdown.ts. */
  marker: string;
  /** The full comment; the marker is put first when the body does not already contain it. */
  body: string;
}

/** What happened to the comment. `skipped` carries a reason fit for a `core.notice`. */
export type UpsertCommentResult =
  | { action: 'created' | 'updated'; id: number; url?: string; note?: string }
  | { action: 'skipped'; reason: string };

export interface ListedComment {
  id: number;
  /** GraphQL id (to hide an outdated duplicate). */
  node_id?: string;
  body?: string | null;
  user?: { login?: string; type?: string } | null;
  html_url?: string;
  /** ISO time of the last edit. */
  updated_at?: string;
}

/** True when the comment's first line is `marker` (ours always start with it). */
export function startsWithMarker(c: ListedComment, marker: string): boolean {
  return c.body?.trimStart().startsWith(marker) === true;
}

/** The comments that start with `marker`, newest first (GitHub's comment ids grow with time). */
export function markedComments(comments: readonly ListedComment[], marker: string): ListedComment[] {
  return comments.filter((c) => startsWithMarker(c, marker)).sort((a, b) => b.id - a.id);
}

/**
 * The comment to edit among `comments` (already only our own: see readCommentThread): the newest one
 * that starts with the marker. Older ones are duplicates (hidden as outdated when written).
 */
export function pickMarkedComment(
  comments: readonly ListedComment[],
  marker: string,
): ListedComment | undefined {
  return markedComments(comments, marker)[0];
}

function skipReason(status: number, message: string, what: string): string {
  const why = refusalHint(status, 'pull-requests: write') ?? '';
  return `PR comment not written: GitHub answered ${status} (${message}) to ${what}; ${why}. The job summary has the result.`;
}

/** A pull request's comments that this token's identity wrote, read once and kept current as the run writes. */
export interface CommentThread {
  owner: string;
  repo: string;
  issueNumber: number;
  /** Our comments only (every page), oldest first: a person's comment is never edited, whatever it says. */
  comments: ListedComment[];
  identity: TokenIdentity;
  /** Markers whose older duplicates this run has dealt with already. */
  tidied?: Set<string>;
}

/**
 * Reads every comment of a pull request (all pages: the default page of 30 misses a marker on a busy PR)
 * and keeps those the token's own identity wrote. A 403/404 (a fork PR's read-only token, no access)
 * gives `skipped` with a reason fit for a notice.
 */
export async function readCommentThread(
  octokit: GitHubClient,
  where: { owner: string; repo: string; issueNumber: number },
): Promise<CommentThread | { skipped: string }> {
  const { owner, repo, issueNumber } = where;
  const name = `${owner}/${repo}#${issueNumber}`;
  const identity = await tokenIdentity(octokit);
  try {
    const all: ListedComment[] = await octokit.paginate(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: issueNumber,
      per_page: 100,
    });
    const comments = all.filter((c) => isAuthoredBy(identity, c.user));
    return { ...where, comments, identity };
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
 * Edits the newest of our comments that starts with `marker`, else creates one (and records it in the
 * thread, so a later write in the same run finds it); older copies are hidden as outdated. 403/404 give
 * `skipped`; other errors throw with GitHub's message (a 422 with its detail).
 */
export async function writeMarkedComment(
  octokit: GitHubClient,
  thread: CommentThread,
  marker: string,
  text: string,
): Promise<UpsertCommentResult> {
  if (!marker.trim()) throw new Error('writeMarkedComment: the marker is empty; use previewMarker(package)');
  const { owner, repo, issueNumber } = thread;
  const body = text.trimStart().startsWith(marker) ? text : `${marker}\n${text}`;
  const where = `${owner}/${repo}#${issueNumber}`;
  const [existing, ...older] = markedComments(thread.comments, marker);
  let result: UpsertCommentResult;
  try {
    if (existing) {
      const r = await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body });
      existing.body = body;
      existing.updated_at = r.data.updated_at;
      result = { action: 'updated', id: r.data.id, url: r.data.html_url };
    } else {
      const r = await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
      thread.comments.push({
        id: r.data.id,
        node_id: r.data.node_id,
        body,
        user: { login: r.data.user?.login, type: r.data.user?.type },
        html_url: r.data.html_url,
        updated_at: r.data.updated_at,
      });
      result = { action: 'created', id: r.data.id, url: r.data.html_url };
    }
  } catch (err) {
    const what = existing ? `editing comment ${existing.id} on ${where}` : `commenting on ${where}`;
    const status = httpStatusOf(err);
    if (status === 403 || status === 404)
      return { action: 'skipped', reason: skipReason(status, apiMessageOf(err), what) };
    throw new Error(`${what} failed: ${apiMessageOf(err)}`, { cause: err });
  }
  thread.tidied ??= new Set();
  if (older.length > 0 && !thread.tidied.has(marker)) {
    thread.tidied.add(marker);
    const hidden = await hideOutdated(
      octokit,
      older.map((c) => c.node_id ?? ''),
    );
    result.note =
      hidden.failed ??
      (hidden.hidden > 0 ? `${hidden.hidden} older duplicate(s) hidden as outdated` : undefined);
  }
  return result;
}

/**
 * Creates or edits this package's preview comment on a pull request: reads every comment and edits our
 * newest one with the marker in place, else creates one, so re-runs never pile up comments. A 403/404
 * (fork PR's read-only token, missing `pull-requests: write`) returns `skipped` instead of throwing: a
 * preview must not fail because it cannot comment. Other errors (bad credentials, body too long) throw.
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
