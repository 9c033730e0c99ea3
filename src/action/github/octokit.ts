import * as core from '@actions/core';
import { getOctokit } from '@actions/github';
import { waitOutRateLimits } from './rate-limit.js';

/** The Octokit `@actions/github` builds: REST endpoint methods plus `paginate`. */
export type GitHubClient = ReturnType<typeof getOctokit>;

/**
 * The REST API root the runner gives us (`GITHUB_API_URL`: `https://api.github.com`, a GitHub Enterprise
 * Server's `https://host/api/v3`, or a test server), without a trailing slash so Octokit joins paths
 * cleanly.
 */
export function apiBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.GITHUB_API_URL?.trim() || 'https://api.github.com';
  return url.replace(/\/+$/, '');
}

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

/** HTTP status of an Octokit RequestError (or anything shaped like one); undefined for other errors. */
export function httpStatusOf(err: unknown): number | undefined {
  if (err === null || typeof err !== 'object' || !('status' in err)) return undefined;
  const status = (err as { status: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

/** GitHub's own message for a failed request (`Resource not accessible by integration`), else the error's. */
export function apiMessageOf(err: unknown): string {
  if (err !== null && typeof err === 'object' && 'response' in err) {
    const data = (err as { response?: { data?: unknown } }).response?.data;
    if (data !== null && typeof data === 'object' && 'message' in data) {
      const msg = (data as { message: unknown }).message;
      if (typeof msg === 'string' && msg) return msg;
    }
  }
  return err instanceof Error ? err.message : String(err);
}
