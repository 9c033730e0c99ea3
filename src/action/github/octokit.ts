import { getOctokit } from '@actions/github';
import * as core from '../toolkit.js';
import { apiBaseUrl } from './api-response.js';
import { waitOutRateLimits } from './rate-limit.js';

/**
 * The one module that imports `@actions/github` (Octokit and the undici HTTP client under it, ~0.5 MB of
 * bundle): the action imports it on demand (`loadOctokit`) only when it has a token, so a run that never
 * calls GitHub does not load it.
 */

/** The Octokit `@actions/github` builds: REST endpoint methods plus `paginate`. */
export type GitHubClient = ReturnType<typeof getOctokit>;

/**
 * An Octokit for `token` talking to `baseUrl` (default: `GITHUB_API_URL`). The base URL is passed
 * explicitly rather than left to `@actions/github`, which reads `GITHUB_API_URL` once when the module is
 * first imported, so the choice is visible here and tests can point it anywhere.
 */
export function createOctokit(
  token: string,
  opts: { baseUrl?: string; onRateLimit?: (waitMs: number, attempt: number) => void } = {},
): GitHubClient {
  if (!token) {
    throw new Error(
      'no GitHub token: set the "github-token" input (its default is the workflow token, github.token) or set "comment: false"',
    );
  }
  const octokit = getOctokit(token, { baseUrl: opts.baseUrl ?? apiBaseUrl() });
  // a secondary rate limit (many packages' comments at once) is waited out, not failed
  octokit.hook.wrap(
    'request',
    waitOutRateLimits(
      opts.onRateLimit ??
        ((ms) => core.info(`GitHub rate limit: waiting ${Math.ceil(ms / 1000)} s before retrying`)),
    ),
  );
  return octokit;
}
