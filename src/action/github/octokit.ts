import { getOctokit } from '@actions/github';
import * as core from '../toolkit.js';
import { apiBaseUrl } from './api-response.js';
import { RequestPolicy, type RequestPolicyOptions } from './rate-limit.js';
import { attachRunState } from './run-state.js';

/**
 * The one module that imports `@actions/github` (Octokit and the undici HTTP client under it, ~0.5 MB of
 * bundle): the action imports it on demand (`loadOctokit`) only when it has a token, so a run that never
 * calls GitHub does not load it.
 */

/** The Octokit `@actions/github` builds: REST endpoint methods, `graphql` and `paginate`. */
export type GitHubClient = ReturnType<typeof getOctokit>;

/**
 * An Octokit for `token` talking to `baseUrl` (default: `GITHUB_API_URL`). The base URL is passed
 * explicitly rather than left to `@actions/github`, which reads `GITHUB_API_URL` once when the module is
 * first imported, so the choice is visible here and tests can point it anywhere. Every request goes
 * through one RequestPolicy per client (one per run): writes one at a time, rate limits waited out
 * within the run's budget (see rate-limit.ts).
 */
export function createOctokit(
  token: string,
  opts: {
    baseUrl?: string;
    /** Told before each rate-limit wait; default a log line. */
    onRateLimit?: (waitMs: number, why: string) => void;
    /** Budget, spacing and clock of the policy (tests shorten them). */
    policy?: Omit<RequestPolicyOptions, 'onWait'>;
  } = {},
): GitHubClient {
  if (!token) {
    throw new Error(
      'no GitHub token: set the "github-token" input (its default is the workflow token, github.token) or set "comment: false"',
    );
  }
  const octokit = getOctokit(token, { baseUrl: opts.baseUrl ?? apiBaseUrl() });
  const policy = new RequestPolicy({
    ...opts.policy,
    onWait:
      opts.onRateLimit ??
      ((ms, why) => core.info(`${why}: waiting ${Math.ceil(ms / 1000)} s before retrying`)),
  });
  octokit.hook.wrap('request', policy.hook);
  attachRunState(octokit, policy);
  return octokit;
}
