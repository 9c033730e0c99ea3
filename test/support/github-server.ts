import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { graphqlAnswer } from './github-graphql.js';

/**
 * A local stand-in for the GitHub REST endpoints the action calls (PR files, compare, issue comments,
 * issues listed by label, created, edited, closed and reopened, labels, the pull requests of a commit)
 * and the GraphQL endpoint (`viewer`, comment `nodes`, `minimizeComment`), on 127.0.0.1 with a random
 * port. It answers the way GitHub does where the action depends on it: pagination (`per_page` default
 * 30, max 100, `page`, a `Link` header with first/prev/next/last), the 3,000-file cap of PR files and
 * the 300-file cap of compare, `token X`/`Bearer X` auth (401 without a known token, 403 "Resource not
 * accessible by integration" when a read-only token writes, as a fork PR's does), 422 bodies with
 * `errors[]` (`{"message":"Validation Failed","errors":[...],"documentation_url":...}`), a comment body
 * over 65,536 characters refused on POST and PATCH, pull requests listed among the issues (with
 * `pull_request`), 410 when the repository has issues turned off, `x-ratelimit-*` headers on every
 * answer, the secondary rate limit (403 or 429, with or without `retry-after`) and the primary one, and
 * 5xx answers a test injects. It records every request for assertions.
 */

const run = promisify(execFile);

export interface ServerFile {
  filename: string;
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  previous_filename?: string;
}

export interface ServerComment {
  id: number;
  node_id: string;
  body: string;
  user: { login: string; type: 'Bot' | 'User' };
  created_at: string;
  updated_at: string;
  html_url: string;
}

export interface ServerLabel {
  name: string;
  color: string;
  description: string | null;
}

export interface ServerIssue {
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  state_reason: string | null;
  labels: ServerLabel[];
  user: { login: string; type: 'Bot' | 'User' };
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  html_url: string;
}

export interface SeedIssue {
  title: string;
  body?: string;
  labels?: string[];
  state?: 'open' | 'closed';
}

/** A pull request: its files as given, or computed from `gitDir` (`git diff base...head`) when absent. */
export interface SeedPull {
  files?: ServerFile[];
  base?: string;
  head?: string;
  /** Listed among the issues (GitHub lists pull requests there too, with a `pull_request` key). */
  title?: string;
  labels?: string[];
}

export interface GitHubServerState {
  owner: string;
  repo: string;
  pulls: Map<number, SeedPull>;
  /** Issue (PR) number → its comments, oldest first. */
  comments: Map<number, ServerComment[]>;
  /** `base...head` → a compare result; otherwise computed from `gitDir`. */
  compares: Map<string, { files: ServerFile[]; commits?: { sha: string }[] }>;
  nextCommentId: number;
  /** Issue number → issue (pull requests are not listed here; they share the numbering). */
  issues: Map<number, ServerIssue>;
  /** Label name (lower-cased) → label. */
  labels: Map<string, ServerLabel>;
  nextIssueNumber: number;
  /** Commit SHA → the pull requests `GET /commits/{sha}/pulls` lists for it (merged ones carry `merged_at`). */
  commitPulls: Map<string, { number: number; merged_at: string | null; state?: 'open' | 'closed' }[]>;
  /** Comment ids hidden with `minimizeComment`, and why (`OUTDATED`, ...). */
  minimized: Map<number, string>;
  /** Answers to give instead of the real one, first match first; each `times` (default 1) then removed. */
  faults: ServerFault[];
}

/** An injected answer: e.g. a 502 on the next comment listing. */
export interface ServerFault {
  method?: string;
  path?: RegExp;
  status: number;
  message?: string;
  headers?: Record<string, string>;
  times?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
  /** The token the request carried, if any. */
  token?: string;
  status: number;
  /** Content-creating: POST, PATCH, PUT, DELETE, but not a GraphQL query (a POST that only reads). */
  write: boolean;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export interface GitHubServerOptions {
  owner?: string;
  repo?: string;
  /** Tokens that may read and write; default one random token. */
  writeTokens?: string[];
  /** Tokens that may only read (writes get 403); default one random token. */
  readTokens?: string[];
  /** Login that comments are created as; default `github-actions[bot]`. */
  botLogin?: string;
  /** PR files listed at most; default 3000 as GitHub. */
  pullFilesCap?: number;
  /** A repository (bare or not) to compute PR files and compares from when not seeded. */
  gitDir?: string;
  pulls?: Record<number, SeedPull>;
  /** Issue number → comment bodies, created as `botLogin` unless given as objects. */
  comments?: Record<number, (string | { body: string; login?: string; type?: 'Bot' | 'User' })[]>;
  /** Issues that exist before the run, numbered after the pull requests. */
  issues?: SeedIssue[];
  /** Labels that exist before the run. */
  labels?: string[];
  /**
   * GitHub's secondary rate limit on content-creating requests: after `writes` writes (POST, PATCH, PUT,
   * DELETE), every write for the next `retryAfterSeconds` is refused with `status` (403, as GitHub mostly
   * answers, or 429), a `retry-after` header and GitHub's message; then the count starts again.
   */
  secondaryRateLimit?: {
    writes: number;
    retryAfterSeconds: number;
    status?: 403 | 429;
    /** Send `retry-after` (default true); without it a client must choose its own wait. */
    retryAfterHeader?: boolean;
  };
  /** The primary limit of every token: `limit` requests an hour (default 5000), then 403 with remaining 0. */
  primaryRateLimit?: number;
  /** The repository has issues turned off: issue endpoints answer 410 (pull request comments still work). */
  issuesDisabled?: boolean;
  /**
   * What GraphQL's `viewer { login }` answers: a login (a personal token or a GitHub App's installation
   * token), or, by default, a FORBIDDEN error "Resource not accessible by integration".
   */
  viewerLogin?: string;
}

export interface GitHubServer {
  /** Base URL for Octokit / `GITHUB_API_URL`, e.g. `http://127.0.0.1:41234`. */
  url: string;
  state: GitHubServerState;
  requests: RecordedRequest[];
  writeToken: string;
  readToken: string;
  /** Adds an issue as a person would (created as a User; labels created as needed). */
  addIssue(seed: SeedIssue): ServerIssue;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly errors?: unknown[],
  ) {
    super(message);
  }
}

/** GitHub's 422: message "Validation Failed", the detail in `errors[]`. */
function validationFailed(resource: string, field: string, code: string, message?: string): HttpError {
  return new HttpError(422, 'Validation Failed', {}, [
    { resource, code, field, ...(message ? { message } : {}) },
  ]);
}

const tooLong = () =>
  validationFailed('IssueComment', 'data', 'unprocessable', 'Body is too long (maximum is 65536 characters)');

const DOCS: Record<number, string> = {
  410: 'https://docs.github.com/rest/issues/issues',
  422: 'https://docs.github.com/rest/issues/comments#update-an-issue-comment',
};

const newToken = () => `ghs_test${randomBytes(12).toString('hex')}`;

function mapGitStatus(code: string): ServerFile['status'] {
  return code.startsWith('A')
    ? 'added'
    : code.startsWith('D')
      ? 'removed'
      : code.startsWith('R')
        ? 'renamed'
        : 'modified';
}

async function gitFiles(gitDir: string, base: string, head: string): Promise<ServerFile[]> {
  const { stdout } = await run('git', ['diff', '--name-status', '-z', '-M', `${base}...${head}`], {
    cwd: gitDir,
    maxBuffer: 256 * 1024 * 1024,
  }).catch(() => {
    throw new HttpError(404, 'Not Found');
  });
  const fields = stdout.split('\0');
  if (fields[fields.length - 1] === '') fields.pop();
  const files: ServerFile[] = [];
  for (let i = 0; i < fields.length; ) {
    const code = fields[i++];
    if (code.startsWith('R') || code.startsWith('C')) {
      const from = fields[i++];
      files.push({ filename: fields[i++], status: mapGitStatus(code), previous_filename: from });
    } else files.push({ filename: fields[i++], status: mapGitStatus(code) });
  }
  return files;
}

/** Starts the server; `close()` ends it and its keep-alive connections. */
export async function startGitHubServer(opts: GitHubServerOptions = {}): Promise<GitHubServer> {
  const writeTokens = new Set(opts.writeTokens ?? [newToken()]);
  const readTokens = new Set(opts.readTokens ?? [newToken()]);
  const botLogin = opts.botLogin ?? 'github-actions[bot]';
  const cap = opts.pullFilesCap ?? 3000;
  const state: GitHubServerState = {
    owner: opts.owner ?? 'octo-org',
    repo: opts.repo ?? 'deploy',
    pulls: new Map(Object.entries(opts.pulls ?? {}).map(([n, p]) => [Number(n), p])),
    comments: new Map(),
    compares: new Map(),
    nextCommentId: 1001,
    issues: new Map(),
    labels: new Map(),
    nextIssueNumber: 1,
    commitPulls: new Map(),
    minimized: new Map(),
    faults: [],
  };
  state.nextIssueNumber =
    Math.max(0, ...state.pulls.keys(), ...Object.keys(opts.comments ?? {}).map(Number)) + 1;
  const requests: RecordedRequest[] = [];
  let url = '';
  /** A diff per base...head: every page of a 3,000-file list would otherwise run git again. */
  const diffs = new Map<string, Promise<ServerFile[]>>();
  const cachedGitFiles = (gitDir: string, base: string, head: string) => {
    const key = `${base}...${head}`;
    let files = diffs.get(key);
    if (!files) {
      files = gitFiles(gitDir, base, head);
      diffs.set(key, files);
      files.catch(() => diffs.delete(key));
    }
    return files;
  };

  const makeComment = (issue: number, body: string, login = botLogin, type: 'Bot' | 'User' = 'Bot') => {
    const id = state.nextCommentId++;
    const now = new Date(Date.UTC(2026, 0, 1, 0, 0, id % 60)).toISOString();
    const c: ServerComment = {
      id,
      node_id: `IC_kwDOtest${id}`,
      body,
      user: { login, type },
      created_at: now,
      updated_at: now,
      html_url: `https://github.test/${state.owner}/${state.repo}/pull/${issue}#issuecomment-${id}`,
    };
    const list = state.comments.get(issue) ?? [];
    list.push(c);
    state.comments.set(issue, list);
    return c;
  };
  for (const [n, bodies] of Object.entries(opts.comments ?? {})) {
    for (const b of bodies) {
      if (typeof b === 'string') makeComment(Number(n), b);
      else makeComment(Number(n), b.body, b.login, b.type ?? (b.login ? 'User' : 'Bot'));
    }
  }

  const labelFor = (name: string): ServerLabel => {
    let l = state.labels.get(name.toLowerCase());
    if (!l) {
      // GitHub creates a label named on a new issue when it does not exist yet
      l = { name, color: 'ededed', description: null };
      state.labels.set(name.toLowerCase(), l);
    }
    return l;
  };
  const makeIssue = (seed: SeedIssue, login = botLogin, type: 'Bot' | 'User' = 'Bot'): ServerIssue => {
    const number = state.nextIssueNumber++;
    const now = new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + number * 1000).toISOString();
    const closed = seed.state === 'closed';
    const issue: ServerIssue = {
      number,
      title: seed.title,
      body: seed.body ?? null,
      state: closed ? 'closed' : 'open',
      state_reason: closed ? 'completed' : null,
      labels: (seed.labels ?? []).map(labelFor),
      user: { login, type },
      created_at: now,
      updated_at: now,
      closed_at: closed ? now : null,
      html_url: `https://github.test/${state.owner}/${state.repo}/issues/${number}`,
    };
    state.issues.set(number, issue);
    return issue;
  };
  for (const name of opts.labels ?? []) labelFor(name);
  for (const seed of opts.issues ?? []) makeIssue(seed, 'octocat', 'User');

  /** The fields of POST/PATCH /issues GitHub validates, applied to `issue`. */
  const editIssue = (issue: ServerIssue, b: Record<string, unknown>) => {
    if ('title' in b) {
      if (typeof b.title !== 'string' || !b.title) throw validationFailed('Issue', 'title', 'missing_field');
      issue.title = b.title;
    }
    if ('body' in b) {
      if (b.body !== null && typeof b.body !== 'string') throw validationFailed('Issue', 'body', 'invalid');
      if (typeof b.body === 'string' && b.body.length > 65536)
        throw validationFailed('Issue', 'body', 'custom', 'body is too long (maximum is 65536 characters)');
      issue.body = b.body as string | null;
    }
    if ('labels' in b) {
      if (!Array.isArray(b.labels)) throw validationFailed('Issue', 'labels', 'invalid');
      issue.labels = b.labels.map((l) =>
        labelFor(typeof l === 'string' ? l : String((l as ServerLabel).name)),
      );
    }
    if ('state' in b) {
      if (b.state !== 'open' && b.state !== 'closed') throw validationFailed('Issue', 'state', 'invalid');
      if (b.state !== issue.state) {
        issue.state = b.state;
        issue.closed_at = b.state === 'closed' ? new Date().toISOString() : null;
        issue.state_reason = b.state === 'closed' ? String(b.state_reason ?? 'completed') : 'reopened';
      }
    }
    issue.updated_at = new Date().toISOString();
  };

  function page<T>(res: ServerResponse, pathname: string, query: URLSearchParams, items: T[]): T[] {
    const perPage = Math.min(100, Math.max(1, Number(query.get('per_page') ?? 30) || 30));
    const current = Math.max(1, Number(query.get('page') ?? 1) || 1);
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const link = (p: number, rel: string) => {
      const q = new URLSearchParams(query);
      q.set('per_page', String(perPage));
      q.set('page', String(p));
      return `<${url}${pathname}?${q}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (current > 1) links.push(link(current - 1, 'prev'));
    if (current < last) links.push(link(current + 1, 'next'), link(last, 'last'));
    if (current > 1) links.push(link(1, 'first'));
    if (links.length) res.setHeader('Link', links.join(', '));
    return items.slice((current - 1) * perPage, current * perPage);
  }

  let writesInWindow = 0;
  let blockedUntil = 0;
  function limitWrites(limit: NonNullable<GitHubServerOptions['secondaryRateLimit']>) {
    const now = Date.now();
    if (now >= blockedUntil && writesInWindow >= limit.writes) {
      blockedUntil = now + limit.retryAfterSeconds * 1000;
      writesInWindow = 0;
    }
    if (now < blockedUntil)
      throw new HttpError(
        limit.status ?? 403,
        'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        limit.retryAfterHeader === false
          ? {}
          : { 'retry-after': String(Math.ceil((blockedUntil - now) / 1000)) },
      );
    writesInWindow++;
  }

  /** The primary limit per token, counted per resource (`core`, `graphql`) over a fixed hour. */
  const primaryLimit = opts.primaryRateLimit ?? 5000;
  const used = new Map<string, number>();
  const resetAt = Math.floor(Date.now() / 1000) + 3600;
  function countRequest(res: ServerResponse, token: string | undefined, resource: string) {
    const key = `${token ?? ''} ${resource}`;
    const n = (used.get(key) ?? 0) + 1;
    used.set(key, n);
    const remaining = Math.max(0, primaryLimit - n);
    res.setHeader('x-ratelimit-limit', String(primaryLimit));
    res.setHeader('x-ratelimit-remaining', String(remaining));
    res.setHeader('x-ratelimit-used', String(Math.min(n, primaryLimit)));
    res.setHeader('x-ratelimit-reset', String(resetAt));
    res.setHeader('x-ratelimit-resource', resource);
    if (n > primaryLimit)
      throw new HttpError(403, 'API rate limit exceeded for installation ID 1.', {
        'x-ratelimit-remaining': '0',
      });
  }

  /** The first injected fault that matches, used up after `times` answers. */
  function takeFault(method: string, path: string): ServerFault | undefined {
    const i = state.faults.findIndex(
      (f) => (!f.method || f.method === method) && (!f.path || f.path.test(path)),
    );
    if (i < 0) return undefined;
    const f = state.faults[i];
    f.times = (f.times ?? 1) - 1;
    if (f.times <= 0) state.faults.splice(i, 1);
    return f;
  }

  const pullAsIssue = (n: number, p: SeedPull) => ({
    number: n,
    title: p.title ?? `pull request ${n}`,
    body: null,
    state: 'open',
    state_reason: null,
    labels: (p.labels ?? []).map(labelFor),
    user: { login: 'octocat', type: 'User' },
    created_at: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    updated_at: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    closed_at: null,
    html_url: `https://github.test/${state.owner}/${state.repo}/pull/${n}`,
    pull_request: { url: `${url}/repos/${state.owner}/${state.repo}/pulls/${n}`, merged_at: null },
  });

  async function route(req: IncomingMessage, res: ServerResponse, token: string | undefined, body: unknown) {
    const u = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    if (!token || (!writeTokens.has(token) && !readTokens.has(token)))
      throw new HttpError(401, 'Bad credentials');
    const graphql = u.pathname === '/graphql';
    countRequest(res, token, graphql ? 'graphql' : 'core');
    const fault = takeFault(method, u.pathname);
    if (fault) throw new HttpError(fault.status, fault.message ?? 'Server Error', fault.headers ?? {});
    if (graphql && method === 'POST')
      return graphqlAnswer(body, {
        state,
        mayWrite: writeTokens.has(token),
        viewerLogin: opts.viewerLogin,
        limitWrite: () => {
          if (opts.secondaryRateLimit) limitWrites(opts.secondaryRateLimit);
        },
      });
    const m = u.pathname.match(/^\/repos\/([^/]+)\/([^/]+)\/(.+)$/);
    if (!m || m[1] !== state.owner || m[2] !== state.repo) throw new HttpError(404, 'Not Found');
    const rest = m[3];
    if (method !== 'GET' && !writeTokens.has(token)) {
      throw new HttpError(403, 'Resource not accessible by integration');
    }
    if (method !== 'GET' && opts.secondaryRateLimit) limitWrites(opts.secondaryRateLimit);
    // with issues turned off, GitHub answers 410 for issues, but pull requests' comments still work
    const issueNumber = Number(rest.match(/^issues\/(\d+)(?:\/|$)/)?.[1] ?? Number.NaN);
    if (
      opts.issuesDisabled &&
      (rest === 'issues' || (Number.isFinite(issueNumber) && !state.pulls.has(issueNumber)))
    )
      throw new HttpError(410, 'Issues are disabled for this repo');
    const pullFiles = method === 'GET' ? rest.match(/^pulls\/(\d+)\/files$/) : null;
    const compare = method === 'GET' ? rest.match(/^compare\/(.+)\.\.\.(.+)$/) : null;
    const issueComments = rest.match(/^issues\/(\d+)\/comments$/);
    const oneComment = method === 'PATCH' ? rest.match(/^issues\/comments\/(\d+)$/) : null;
    const issueList = rest === 'issues';
    const oneIssue = rest.match(/^issues\/(\d+)$/);
    const labelList = rest === 'labels';
    const oneLabel = rest.match(/^labels\/([^/]+)$/);
    if (issueList && method === 'GET') {
      const q = u.searchParams;
      const wanted = (q.get('labels') ?? '')
        .split(',')
        .map((l) => l.trim().toLowerCase())
        .filter(Boolean);
      const st = q.get('state') ?? 'open';
      if (!['open', 'closed', 'all'].includes(st)) throw validationFailed('Issue', 'state', 'invalid');
      const asc = q.get('direction') === 'asc';
      // GitHub lists pull requests here too: "every pull request is an issue, but not every issue is a PR"
      const pulls = [...state.pulls.entries()].map(([n, p]) => pullAsIssue(n, p) as unknown as ServerIssue);
      const items = [...state.issues.values(), ...pulls]
        .filter((i) => st === 'all' || i.state === st)
        .filter((i) => wanted.every((w) => i.labels.some((l) => l.name.toLowerCase() === w)))
        .sort((a, b) => (asc ? a.number - b.number : b.number - a.number));
      return page(res, u.pathname, u.searchParams, items);
    }
    if (issueList && method === 'POST') {
      const b = (body ?? {}) as Record<string, unknown>;
      if (typeof b.title !== 'string' || !b.title) throw validationFailed('Issue', 'title', 'missing_field');
      const issue = makeIssue({ title: b.title });
      editIssue(issue, b);
      res.statusCode = 201;
      return issue;
    }
    if (oneIssue) {
      const issue = state.issues.get(Number(oneIssue[1]));
      if (!issue) throw new HttpError(404, 'Not Found');
      if (method === 'GET') return issue;
      if (method === 'PATCH') {
        editIssue(issue, (body ?? {}) as Record<string, unknown>);
        return issue;
      }
    }
    if (labelList && method === 'GET')
      return page(res, u.pathname, u.searchParams, [...state.labels.values()]);
    if (labelList && method === 'POST') {
      const b = (body ?? {}) as Record<string, unknown>;
      if (typeof b.name !== 'string' || !b.name) throw validationFailed('Label', 'name', 'missing_field');
      if (state.labels.has(b.name.toLowerCase())) throw validationFailed('Label', 'name', 'already_exists');
      const label: ServerLabel = {
        name: b.name,
        color: typeof b.color === 'string' ? b.color : 'ededed',
        description: typeof b.description === 'string' ? b.description : null,
      };
      state.labels.set(b.name.toLowerCase(), label);
      res.statusCode = 201;
      return label;
    }
    if (oneLabel && method === 'GET') {
      const label = state.labels.get(decodeURIComponent(oneLabel[1]).toLowerCase());
      if (!label) throw new HttpError(404, 'Not Found');
      return label;
    }
    const commitPulls = method === 'GET' ? rest.match(/^commits\/([^/]+)\/pulls$/) : null;
    if (commitPulls) {
      const pulls = (state.commitPulls.get(decodeURIComponent(commitPulls[1])) ?? []).map((p) => ({
        number: p.number,
        state: p.state ?? (p.merged_at ? 'closed' : 'open'),
        merged_at: p.merged_at,
        html_url: `https://github.test/${state.owner}/${state.repo}/pull/${p.number}`,
      }));
      return page(res, u.pathname, u.searchParams, pulls);
    }
    if (pullFiles) {
      const r = pullFiles;
      const pull = state.pulls.get(Number(r[1]));
      if (!pull) throw new HttpError(404, 'Not Found');
      let files = pull.files;
      if (!files && opts.gitDir && pull.base && pull.head)
        files = await cachedGitFiles(opts.gitDir, pull.base, pull.head);
      return page(res, u.pathname, u.searchParams, (files ?? []).slice(0, cap));
    }
    if (compare) {
      const r = compare;
      const [base, head] = [decodeURIComponent(r[1]), decodeURIComponent(r[2])];
      const seeded = state.compares.get(`${base}...${head}`);
      if (seeded) {
        const commits = seeded.commits ?? [];
        return {
          status: 'ahead',
          ahead_by: commits.length,
          behind_by: 0,
          total_commits: commits.length,
          commits,
          files: seeded.files.slice(0, 300),
        };
      }
      if (!opts.gitDir) throw new HttpError(404, 'Not Found');
      const files = await cachedGitFiles(opts.gitDir, base, head);
      const count = async (range: string) =>
        Number((await run('git', ['rev-list', '--count', range], { cwd: opts.gitDir })).stdout.trim());
      const [ahead, behind] = [await count(`${base}..${head}`), await count(`${head}..${base}`)];
      const shas = (
        await run('git', ['rev-list', '--reverse', `${base}..${head}`], { cwd: opts.gitDir })
      ).stdout
        .split('\n')
        .filter(Boolean);
      const status = ahead && behind ? 'diverged' : ahead ? 'ahead' : behind ? 'behind' : 'identical';
      return {
        status,
        ahead_by: ahead,
        behind_by: behind,
        total_commits: ahead,
        commits: shas.map((sha) => ({ sha })),
        files: files.slice(0, 300),
      };
    }
    if (issueComments) {
      const r = issueComments;
      const issue = Number(r[1]);
      if (method === 'GET') return page(res, u.pathname, u.searchParams, state.comments.get(issue) ?? []);
      if (method === 'POST') {
        const text = (body as { body?: unknown } | undefined)?.body;
        if (typeof text !== 'string' || !text)
          throw validationFailed('IssueComment', 'body', 'missing_field');
        if (text.length > 65536) throw tooLong();
        res.statusCode = 201;
        return makeComment(issue, text);
      }
    }
    if (oneComment) {
      const r = oneComment;
      const id = Number(r[1]);
      const c = [...state.comments.values()].flat().find((x) => x.id === id);
      if (!c) throw new HttpError(404, 'Not Found');
      const text = (body as { body?: unknown } | undefined)?.body;
      if (typeof text !== 'string' || !text) throw validationFailed('IssueComment', 'body', 'missing_field');
      if (text.length > 65536) throw tooLong();
      c.body = text;
      c.updated_at = new Date().toISOString();
      return c;
    }
    throw new HttpError(404, 'Not Found');
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const u = new URL(req.url ?? '/', 'http://localhost');
      const auth = req.headers.authorization ?? '';
      const token = auth.match(/^(?:token|bearer)\s+(\S+)$/i)?.[1];
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      const record: RecordedRequest = {
        method: req.method ?? 'GET',
        path: u.pathname,
        query: Object.fromEntries(u.searchParams),
        token,
        status: 0,
        write: req.method !== 'GET' && req.method !== 'HEAD',
        at: Date.now(),
      };
      requests.push(record);
      let out: unknown;
      try {
        if (raw) {
          try {
            body = JSON.parse(raw);
          } catch {
            throw new HttpError(400, 'Problems parsing JSON');
          }
          record.body = body;
          if (u.pathname === '/graphql') {
            const q = (body as { query?: unknown } | undefined)?.query;
            record.write = typeof q === 'string' && /^\s*mutation\b/.test(q);
          }
        }
        out = await route(req, res, token, body);
        if (res.statusCode === 200 || res.statusCode === 201) record.status = res.statusCode;
      } catch (err) {
        const status = err instanceof HttpError ? err.status : 500;
        res.statusCode = status;
        if (err instanceof HttpError) for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
        record.status = status;
        out = {
          message: err instanceof Error ? err.message : String(err),
          ...(err instanceof HttpError && err.errors ? { errors: err.errors } : {}),
          documentation_url: DOCS[status] ?? 'https://docs.github.com/rest',
          status: String(status),
        };
      }
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    state,
    requests,
    writeToken: [...writeTokens][0],
    readToken: [...readTokens][0],
    addIssue: (seed) => makeIssue(seed, 'octocat', 'User'),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
