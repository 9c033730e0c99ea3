import { apiMessageOf, httpStatusOf, refusalHint } from './api-response.js';
import type { GitHubClient } from './octokit.js';

/** The label every drift issue carries; drift issues are found by listing issues with it. */
export const DRIFT_LABEL = 'kpt-live-drift';

/** An issue as the list endpoint returns it (pull requests carry `pull_request` and are ignored). */
export interface ListedIssue {
  number: number;
  state: string;
  title?: string;
  body?: string | null;
  html_url?: string;
  pull_request?: unknown;
}

export interface DriftIssueInput {
  owner: string;
  repo: string;
  /** `driftMarker(package, key)`: the hidden line that names the package. */
  marker: string;
  title: string;
  /** The issue body while drifted (starts with the marker). */
  body: string;
  drifted: boolean;
  /** The comment left when the package is in sync again and the issue is closed. */
  inSyncComment: string;
}

export type DriftIssueResult =
  | { action: 'opened' | 'updated' | 'reopened' | 'closed'; number: number; url?: string }
  | { action: 'none' }
  | { action: 'skipped'; reason: string };

/**
 * Every issue labelled `kpt-live-drift`, open or closed, all pages (GET /repos/{owner}/{repo}/issues with
 * `labels` and `state=all`; never the Search API, whose index lags and whose rate limit is small).
 */
export async function listDriftIssues(
  octokit: GitHubClient,
  owner: string,
  repo: string,
): Promise<ListedIssue[]> {
  const issues: ListedIssue[] = await octokit.paginate(octokit.rest.issues.listForRepo, {
    owner,
    repo,
    labels: DRIFT_LABEL,
    state: 'all',
    per_page: 100,
  });
  return issues.filter((i) => !i.pull_request);
}

/**
 * The issue of this marker: one whose body starts with it before one that merely quotes it, an open one
 * before a closed one, then the oldest, so re-runs keep editing the same issue.
 */
export function pickDriftIssue(issues: readonly ListedIssue[], marker: string): ListedIssue | undefined {
  const rank = (i: ListedIssue) =>
    (i.body?.trimStart().startsWith(marker) ? 0 : 2) + (i.state === 'open' ? 0 : 1);
  return issues
    .filter((i) => i.body?.includes(marker))
    .sort((a, b) => rank(a) - rank(b) || a.number - b.number)[0];
}

/** Why a drift issue could not be written, naming what to change (permission, issues turned off). */
export function driftIssueSkipReason(status: number, message: string, what: string): string {
  const why = refusalHint(status, 'issues: write') ?? '';
  return `drift issue not written: GitHub answered ${status} (${message}) to ${what}; ${why}. The drift is in the job summary.`;
}

/** Wraps a GitHub call: 403/404/410 become a `skipped` result, anything else an error naming the step. */
async function step<T>(what: string, call: () => Promise<T>): Promise<T | { skipped: string }> {
  try {
    return await call();
  } catch (err) {
    const status = httpStatusOf(err);
    if (status === 403 || status === 404 || status === 410)
      return { skipped: driftIssueSkipReason(status, apiMessageOf(err), what) };
    throw new Error(`${what} failed: ${apiMessageOf(err)}`, { cause: err });
  }
}

const isSkip = (x: unknown): x is { skipped: string } =>
  x !== null && typeof x === 'object' && 'skipped' in (x as object);

/** Creates the label when the repository does not have it yet (a concurrent creation is fine). */
export async function ensureDriftLabel(octokit: GitHubClient, owner: string, repo: string): Promise<void> {
  try {
    await octokit.rest.issues.getLabel({ owner, repo, name: DRIFT_LABEL });
    return;
  } catch (err) {
    if (httpStatusOf(err) !== 404) throw err;
  }
  try {
    await octokit.rest.issues.createLabel({
      owner,
      repo,
      name: DRIFT_LABEL,
      color: 'd93f0b',
      description: 'The cluster differs from the kpt package (kpt-live-action drift)',
    });
  } catch (err) {
    if (httpStatusOf(err) !== 422) throw err; // 422: created meanwhile
  }
}

/**
 * Brings one package's drift issue up to date: while drifted, the issue is created (labelled), or edited
 * in place and reopened if it was closed; once in sync, an open issue gets a comment and is closed. A
 * 403/404/410 (a read-only token, no access, issues disabled) returns `skipped`, never throws: drift must not fail
 * because it cannot file an issue. `issues` is `listDriftIssues`' answer; a created issue is added to it.
 */
export async function syncDriftIssue(
  octokit: GitHubClient,
  issues: ListedIssue[],
  input: DriftIssueInput,
): Promise<DriftIssueResult> {
  const { owner, repo, marker } = input;
  const body = input.body.includes(marker) ? input.body : `${marker}\n${input.body}`;
  const existing = pickDriftIssue(issues, marker);
  const where = `${owner}/${repo}`;
  if (!input.drifted) {
    if (existing?.state !== 'open') return { action: 'none' };
    const n = existing.number;
    const commented = await step(`commenting on issue #${n} of ${where}`, () =>
      octokit.rest.issues.createComment({ owner, repo, issue_number: n, body: input.inSyncComment }),
    );
    if (isSkip(commented)) return { action: 'skipped', reason: commented.skipped };
    const closed = await step(`closing issue #${n} of ${where}`, () =>
      octokit.rest.issues.update({
        owner,
        repo,
        issue_number: n,
        state: 'closed',
        state_reason: 'completed',
      }),
    );
    if (isSkip(closed)) return { action: 'skipped', reason: closed.skipped };
    existing.state = 'closed';
    return { action: 'closed', number: n, url: closed.data.html_url };
  }
  if (existing) {
    const n = existing.number;
    const wasClosed = existing.state !== 'open';
    const updated = await step(`editing issue #${n} of ${where}`, () =>
      octokit.rest.issues.update({
        owner,
        repo,
        issue_number: n,
        title: input.title,
        body,
        ...(wasClosed ? { state: 'open' as const } : {}),
      }),
    );
    if (isSkip(updated)) return { action: 'skipped', reason: updated.skipped };
    existing.state = 'open';
    existing.body = body;
    return { action: wasClosed ? 'reopened' : 'updated', number: n, url: updated.data.html_url };
  }
  const labelled = await step(`creating the "${DRIFT_LABEL}" label in ${where}`, () =>
    ensureDriftLabel(octokit, owner, repo),
  );
  if (isSkip(labelled)) return { action: 'skipped', reason: labelled.skipped };
  const created = await step(`opening an issue in ${where}`, () =>
    octokit.rest.issues.create({ owner, repo, title: input.title, body, labels: [DRIFT_LABEL] }),
  );
  if (isSkip(created)) return { action: 'skipped', reason: created.skipped };
  issues.push({ number: created.data.number, state: 'open', title: input.title, body });
  return { action: 'opened', number: created.data.number, url: created.data.html_url };
}
