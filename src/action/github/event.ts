import { readFile } from 'node:fs/promises';
import { isRecord } from '../../common/kube-object.js';
import { apiBaseUrl } from './api-response.js';

/** The pull request a `pull_request` run is about. */
export interface PullRequestInfo {
  number: number;
  baseSha: string;
  headSha: string;
  baseRef?: string;
  headRef?: string;
  /** The head branch lives in another repository: the token is read-only and secrets are absent. */
  headRepoFork: boolean;
  /** `changed_files` from the payload: tells whether `pulls.listFiles` (capped at 3,000) saw them all. */
  changedFiles?: number;
  /** Who opened it (`user.login`), e.g. `dependabot[bot]`. */
  author?: string;
}

/** What the runner says about the run, read from its environment and event payload. */
export interface EventContext {
  /** `GITHUB_EVENT_NAME`: `pull_request`, `push`, `workflow_dispatch`, ... */
  name: string;
  owner: string;
  repo: string;
  sha: string;
  ref: string;
  /** The repository's default branch, from the payload (absent for some events). */
  defaultBranch?: string;
  /** The payload's `action` (`opened`, `synchronize`, `closed`, ...), for the events that have one. */
  action?: string;
  pullRequest?: PullRequestInfo;
  push?: { before: string; after: string };
  /** A `merge_group` run: the queue's base commit and the commit it tests (never on the branch yet). */
  mergeGroup?: { baseSha: string; headSha: string; baseRef?: string; headRef?: string };
  runUrl: string;
  serverUrl: string;
  apiUrl: string;
}

function requireEnv(env: NodeJS.ProcessEnv, name: string): string {
  const v = env[name]?.trim();
  if (!v) {
    throw new Error(
      `${name} is not set: the action reads the run's context from the variables the GitHub runner sets; when running it elsewhere, set ${name} (see README "Running outside GitHub")`,
    );
  }
  return v;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

async function readPayload(env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const file = env.GITHUB_EVENT_PATH?.trim();
  if (!file) return {};
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new Error(`GITHUB_EVENT_PATH names ${file}, which cannot be read (${(err as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`GITHUB_EVENT_PATH ${file} is not JSON (${(err as Error).message})`);
  }
  if (!isRecord(value)) throw new Error(`GITHUB_EVENT_PATH ${file} does not hold a JSON object`);
  return value;
}

/**
 * The pull request from a payload. A fork is told by the head repository differing from the base one (a
 * same-repo PR in a repository that is itself a fork has `head.repo.fork: true` but a writable token);
 * a deleted head repository (`head.repo: null`) counts as a fork.
 */
export function pullRequestFromPayload(pr: unknown, file: string): PullRequestInfo {
  const at = (o: unknown, key: string) => (isRecord(o) ? o[key] : undefined);
  const number = at(pr, 'number');
  const baseSha = str(at(at(pr, 'base'), 'sha'));
  const headSha = str(at(at(pr, 'head'), 'sha'));
  if (typeof number !== 'number' || !baseSha || !headSha) {
    throw new Error(
      `${file}: pull_request payload lacks number, base.sha or head.sha; is GITHUB_EVENT_PATH the payload the runner wrote?`,
    );
  }
  const headRepo = at(at(pr, 'head'), 'repo');
  const baseName = str(at(at(at(pr, 'base'), 'repo'), 'full_name'));
  const headName = str(at(headRepo, 'full_name'));
  const headRepoFork = !isRecord(headRepo)
    ? true
    : baseName && headName
      ? baseName.toLowerCase() !== headName.toLowerCase()
      : at(headRepo, 'fork') === true;
  const changed = at(pr, 'changed_files');
  const author = str(at(at(pr, 'user'), 'login'));
  return {
    number,
    baseSha,
    headSha,
    baseRef: str(at(at(pr, 'base'), 'ref')),
    headRef: str(at(at(pr, 'head'), 'ref')),
    headRepoFork,
    ...(typeof changed === 'number' ? { changedFiles: changed } : {}),
    ...(author ? { author } : {}),
  };
}

/**
 * Reads the run's context from `env` as the runner provides it (`GITHUB_EVENT_NAME`, `GITHUB_EVENT_PATH`,
 * `GITHUB_REPOSITORY`, `GITHUB_SHA`, `GITHUB_REF`, `GITHUB_SERVER_URL`, `GITHUB_RUN_ID`, `GITHUB_API_URL`).
 * Read on call, not at import like `@actions/github`'s `context`, so tests and the CLI can pass their own.
 */
export async function readEventContext(env: NodeJS.ProcessEnv = process.env): Promise<EventContext> {
  const name = requireEnv(env, 'GITHUB_EVENT_NAME');
  const full = requireEnv(env, 'GITHUB_REPOSITORY');
  const slash = full.indexOf('/');
  if (slash <= 0 || slash === full.length - 1 || full.indexOf('/', slash + 1) >= 0) {
    throw new Error(`GITHUB_REPOSITORY is "${full}"; expected "owner/repo"`);
  }
  const payload = await readPayload(env);
  const file = env.GITHUB_EVENT_PATH?.trim() || 'the event payload';
  const serverUrl = (env.GITHUB_SERVER_URL?.trim() || 'https://github.com').replace(/\/+$/, '');
  const runId = env.GITHUB_RUN_ID?.trim();
  const ctx: EventContext = {
    name,
    owner: full.slice(0, slash),
    repo: full.slice(slash + 1),
    sha: env.GITHUB_SHA?.trim() || str(payload.after) || '',
    ref: env.GITHUB_REF?.trim() || str(payload.ref) || '',
    runUrl: runId ? `${serverUrl}/${full}/actions/runs/${runId}` : `${serverUrl}/${full}/actions`,
    serverUrl,
    apiUrl: apiBaseUrl(env),
  };
  const defaultBranch = str(isRecord(payload.repository) ? payload.repository.default_branch : undefined);
  if (defaultBranch) ctx.defaultBranch = defaultBranch;
  const action = str(payload.action);
  if (action) ctx.action = action;
  if (isRecord(payload.pull_request)) ctx.pullRequest = pullRequestFromPayload(payload.pull_request, file);
  if (name === 'merge_group') {
    const mg = isRecord(payload.merge_group) ? payload.merge_group : {};
    const baseSha = str(mg.base_sha);
    const headSha = str(mg.head_sha) ?? ctx.sha;
    if (!baseSha || !headSha) throw new Error(`${file}: merge_group payload lacks base_sha or head_sha`);
    ctx.mergeGroup = { baseSha, headSha, baseRef: str(mg.base_ref), headRef: str(mg.head_ref) };
  }
  if (name === 'push') {
    const before = str(payload.before);
    const after = str(payload.after) ?? ctx.sha;
    if (!before || !after) throw new Error(`${file}: push payload lacks "before" or "after"`);
    ctx.push = { before, after };
  }
  return ctx;
}

/** True for a push to the repository's default branch: what `mode: auto` applies. */
export function isDefaultBranchPush(ctx: EventContext): boolean {
  return (
    ctx.push !== undefined && ctx.defaultBranch !== undefined && ctx.ref === `refs/heads/${ctx.defaultBranch}`
  );
}
