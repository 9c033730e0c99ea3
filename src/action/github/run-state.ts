import { RequestPolicy } from './rate-limit.js';

/**
 * What one run knows about its GitHub client beyond Octokit itself: the request policy (rate limits and
 * their budget), whose token it is (asked once), and what it could not post (reported at the end). Kept
 * beside the client rather than in it, so every function keeps taking a plain Octokit.
 */

/** Whose comments are ours: the login GitHub shows as the author of what this token writes. */
export interface TokenIdentity {
  login: string;
  /** `viewer`: GraphQL's answer; `assumed`: the workflow token's bot, GraphQL did not say. */
  source: 'viewer' | 'assumed';
  /** Why the login is assumed (for the log). */
  note?: string;
}

/** Something the run meant to post on GitHub and could not: named for the job summary. */
export interface Unposted {
  what: string;
  reason: string;
}

export interface GitHubRunState {
  policy: RequestPolicy;
  identity?: Promise<TokenIdentity>;
  unposted: Unposted[];
}

const states = new WeakMap<object, GitHubRunState>();

/** Registers a new client's state (createOctokit does). */
export function attachRunState(octokit: object, policy: RequestPolicy): GitHubRunState {
  const state: GitHubRunState = { policy, unposted: [] };
  states.set(octokit, state);
  return state;
}

/** The client's state; a client made elsewhere gets a fresh one (default policy, not hooked in). */
export function runStateOf(octokit: object): GitHubRunState {
  return states.get(octokit) ?? attachRunState(octokit, new RequestPolicy());
}

/** Records what could not be posted (a rate-limit budget spent, a refused write). */
export function noteUnposted(octokit: object, what: string, reason: string): void {
  runStateOf(octokit).unposted.push({ what, reason });
}
