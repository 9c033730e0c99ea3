import { apiMessageOf, httpStatusOf } from './api-response.js';
import type { GitHubClient } from './octokit.js';

/** A pull request merged into the commit being applied. */
export interface MergedPull {
  number: number;
  mergedAt?: string;
}

/**
 * The pull requests associated with a commit (`GET /repos/{owner}/{repo}/commits/{sha}/pulls`, every page):
 * for a commit on the default branch, the PR(s) whose merge brought it there. Newest merge first. A
 * 403/404 (no `pull-requests: read`, a token without access) gives `skipped` with a reason for a notice.
 */
export async function mergedPullsOf(
  octokit: GitHubClient,
  where: { owner: string; repo: string; sha: string },
): Promise<MergedPull[] | { skipped: string }> {
  const { owner, repo, sha } = where;
  try {
    const pulls = await octokit.paginate(octokit.rest.repos.listPullRequestsAssociatedWithCommit, {
      owner,
      repo,
      commit_sha: sha,
      per_page: 100,
    });
    return sortPulls(
      pulls.map((p) => ({ number: p.number, ...(p.merged_at ? { mergedAt: p.merged_at } : {}) })),
    );
  } catch (err) {
    const status = httpStatusOf(err);
    if (status === 403 || status === 404 || status === 422)
      return {
        skipped: `could not list the pull requests of commit ${sha.slice(0, 7)}: GitHub answered ${status} (${apiMessageOf(err)}); give the job "permissions: pull-requests: write" to get the apply result on the pull request`,
      };
    throw new Error(`listing the pull requests of commit ${sha} failed: ${apiMessageOf(err)}`, {
      cause: err,
    });
  }
}

/**
 * The pull requests merged by any of `commits` (e.g. every commit of a range that changed a package):
 * one request per commit, one at a time, each commit's pulls once; newest merge first, each pull once.
 * The first commit GitHub refuses to answer for (403/404/422) ends the listing with `skipped`.
 */
export async function mergedPullsOfCommits(
  octokit: GitHubClient,
  where: { owner: string; repo: string },
  commits: readonly string[],
  cache = new Map<string, Promise<MergedPull[] | { skipped: string }>>(),
): Promise<{ pulls: MergedPull[]; skipped?: string }> {
  const found = new Map<number, MergedPull>();
  for (const sha of commits) {
    let answer = cache.get(sha);
    if (!answer) {
      answer = mergedPullsOf(octokit, { ...where, sha });
      cache.set(sha, answer);
    }
    const pulls = await answer;
    if ('skipped' in pulls) return { pulls: sortPulls([...found.values()]), skipped: pulls.skipped };
    for (const p of pulls) if (!found.has(p.number)) found.set(p.number, p);
  }
  return { pulls: sortPulls([...found.values()]) };
}

const sortPulls = (pulls: MergedPull[]) =>
  pulls.sort((a, b) => (b.mergedAt ?? '').localeCompare(a.mergedAt ?? '') || b.number - a.number);
