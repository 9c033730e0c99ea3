import * as core from '../toolkit.js';
import { apiMessageOf } from './api-response.js';
import type { GitHubClient } from './octokit.js';
import { runStateOf, type TokenIdentity } from './run-state.js';

/**
 * Whose token this is, so that only comments this identity wrote are ever taken for ours: a person who
 * pastes our marker into a comment of their own must never get it edited, nor its plan digest trusted.
 *
 * GraphQL `{ viewer { login } }` answers for a personal access token (the user) and for a GitHub App's
 * installation token (the app's bot user, `<slug>[bot]`). The workflow's own GITHUB_TOKEN is an
 * installation token of the `github-actions` app, whose comments GitHub shows as `github-actions[bot]`;
 * where GraphQL refuses to answer for it ("Resource not accessible by integration", as it does for some
 * server-to-server tokens), that login is assumed, and the log says so.
 */
export const WORKFLOW_TOKEN_LOGIN = 'github-actions[bot]';

const VIEWER_QUERY = 'query { viewer { login } }';

/** The token's identity, asked once per client (cached with the client's run state). */
export function tokenIdentity(octokit: GitHubClient): Promise<TokenIdentity> {
  const state = runStateOf(octokit);
  state.identity ??= (async (): Promise<TokenIdentity> => {
    try {
      const r = await octokit.graphql<{ viewer?: { login?: unknown } }>(VIEWER_QUERY);
      const login = r.viewer?.login;
      if (typeof login === 'string' && login) return { login, source: 'viewer' };
      return assumed('GraphQL named no viewer');
    } catch (err) {
      return assumed(`GraphQL viewer: ${apiMessageOf(err)}`);
    }
  })();
  return state.identity;
}

function assumed(why: string): TokenIdentity {
  const note = `${why}; taking the token for the workflow token: our comments are ${WORKFLOW_TOKEN_LOGIN}'s`;
  core.info(note);
  return { login: WORKFLOW_TOKEN_LOGIN, source: 'assumed', note };
}

/** A comment's author as the REST API lists it. */
export interface AuthorLike {
  login?: string;
  type?: string;
}

/**
 * True when `author` is the identity: the same login, case aside; GraphQL may name an app's bot user
 * without the `[bot]` suffix REST shows, which counts only for an author of type Bot.
 */
export function isAuthoredBy(identity: TokenIdentity, author: AuthorLike | null | undefined): boolean {
  const login = author?.login?.toLowerCase();
  if (!login) return false;
  const me = identity.login.toLowerCase();
  if (login === me) return true;
  return author?.type === 'Bot' && login === `${me}[bot]`;
}
