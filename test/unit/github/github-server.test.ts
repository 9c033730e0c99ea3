import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiBaseUrl, httpStatusOf } from '../../../src/action/github/api-response.js';
import { createOctokit } from '../../../src/action/github/octokit.js';
import { type GitHubServer, startGitHubServer } from '../../support/github-server.js';

let server: GitHubServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

const files = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ filename: `f/${i}.yaml`, status: 'modified' as const }));

async function raw(
  path: string,
  init: { token?: string; scheme?: string; method?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `${init.scheme ?? 'token'} ${init.token}`;
  const res = await fetch(`${server?.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, link: res.headers.get('link'), json: (await res.json()) as unknown };
}

describe('test GitHub server', () => {
  it('pages with per_page/page and a Link header like GitHub', async () => {
    server = await startGitHubServer({ pulls: { 7: { files: files(250) } } });
    const base = '/repos/octo-org/deploy/pulls/7/files';
    const first = await raw(`${base}?per_page=100`, { token: server.writeToken });
    expect((first.json as unknown[]).length).toBe(100);
    expect(first.link).toContain('page=2>; rel="next"');
    expect(first.link).toContain('page=3>; rel="last"');
    expect(first.link).not.toContain('rel="prev"');
    const last = await raw(`${base}?per_page=100&page=3`, { token: server.writeToken, scheme: 'Bearer' });
    expect((last.json as { filename: string }[]).map((f) => f.filename)).toEqual(
      files(250)
        .slice(200)
        .map((f) => f.filename),
    );
    expect(last.link).toContain('page=2>; rel="prev"');
    expect(last.link).not.toContain('rel="next"');
    // default 30 per page, at most 100
    expect(((await raw(base, { token: server.writeToken })).json as unknown[]).length).toBe(30);
    expect(((await raw(`${base}?per_page=500`, { token: server.writeToken })).json as unknown[]).length).toBe(
      100,
    );
  });

  it.each([
    { name: 'no token', token: undefined, method: 'GET', status: 401 },
    { name: 'unknown token', token: 'ghs_wrong', method: 'GET', status: 401 },
    { name: 'read-only token reads', token: 'read', method: 'GET', status: 200 },
    { name: 'read-only token writes', token: 'read', method: 'POST', status: 403 },
    { name: 'write token writes', token: 'write', method: 'POST', status: 201 },
  ])('auth: $name → $status', async ({ token, method, status }) => {
    server = await startGitHubServer();
    const t = token === 'read' ? server.readToken : token === 'write' ? server.writeToken : token;
    const r = await raw('/repos/octo-org/deploy/issues/3/comments', {
      token: t,
      method,
      body: method === 'POST' ? { body: 'hi' } : undefined,
    });
    expect(r.status).toBe(status);
    expect(server.requests.at(-1)).toMatchObject({
      method,
      path: '/repos/octo-org/deploy/issues/3/comments',
      status,
    });
    if (status === 403) expect(r.json).toMatchObject({ message: 'Resource not accessible by integration' });
  });

  it('caps PR files at 3,000 and records each request with its query and body', async () => {
    server = await startGitHubServer({ pulls: { 1: { files: files(3100) } } });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const listed = await octokit.paginate(octokit.rest.pulls.listFiles, {
      owner: 'octo-org',
      repo: 'deploy',
      pull_number: 1,
      per_page: 100,
    });
    expect(listed).toHaveLength(3000);
    expect(server.requests.map((r) => r.query.page ?? '1')).toEqual(
      Array.from({ length: 30 }, (_, i) => String(i + 1)),
    );
    await octokit.rest.issues.createComment({
      owner: 'octo-org',
      repo: 'deploy',
      issue_number: 1,
      body: 'x',
    });
    expect(server.requests.at(-1)).toMatchObject({
      method: 'POST',
      body: { body: 'x' },
      token: server.writeToken,
    });
  });

  it('answers 404 for another repository and for an unknown comment', async () => {
    server = await startGitHubServer();
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const err = await octokit.rest.issues
      .listComments({ owner: 'someone', repo: 'else', issue_number: 1 })
      .catch((e: unknown) => e);
    expect(httpStatusOf(err)).toBe(404);
    const err2 = await octokit.rest.issues
      .updateComment({ owner: 'octo-org', repo: 'deploy', comment_id: 9, body: 'x' })
      .catch((e: unknown) => e);
    expect(httpStatusOf(err2)).toBe(404);
  });
});

describe('createOctokit (@actions/github getOctokit)', () => {
  it('sends "token <t>" to the baseUrl it is given', async () => {
    server = await startGitHubServer({ comments: { 5: ['a', 'b'] } });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const r = await octokit.rest.issues.listComments({ owner: 'octo-org', repo: 'deploy', issue_number: 5 });
    expect(r.data.map((c) => c.body)).toEqual(['a', 'b']);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].token).toBe(server.writeToken);
  });

  it('reads GITHUB_API_URL when it is called, not when the module was imported', async () => {
    server = await startGitHubServer({ comments: { 5: ['a'] } });
    vi.stubEnv('GITHUB_API_URL', `${server.url}/`);
    const octokit = createOctokit(server.writeToken);
    await octokit.rest.issues.listComments({ owner: 'octo-org', repo: 'deploy', issue_number: 5 });
    expect(server.requests).toHaveLength(1);
  });

  it('refuses an empty token with a message naming the input', () => {
    expect(() => createOctokit('')).toThrow(/github-token/);
  });

  it.each([
    [{}, 'https://api.github.com'],
    [{ GITHUB_API_URL: 'https://ghe.example.com/api/v3/' }, 'https://ghe.example.com/api/v3'],
    [{ GITHUB_API_URL: '  ' }, 'https://api.github.com'],
  ])('apiBaseUrl(%o) = %s', (env, url) => {
    expect(apiBaseUrl(env)).toBe(url);
  });
});

describe('the test GitHub answers as GitHub does', () => {
  it('puts x-ratelimit-* headers on every answer, errors included, counted per resource', async () => {
    server = await startGitHubServer();
    const a = await fetch(`${server.url}/repos/octo-org/deploy/issues/1/comments`, {
      headers: { authorization: `token ${server.writeToken}` },
    });
    const b = await fetch(`${server.url}/repos/octo-org/deploy/issues/comments/99`, {
      method: 'PATCH',
      headers: { authorization: `token ${server.writeToken}` },
      body: JSON.stringify({ body: 'x' }),
    });
    const g = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `bearer ${server.writeToken}` },
      body: JSON.stringify({ query: 'query { viewer { login } }' }),
    });
    expect(b.status).toBe(404);
    for (const [res, remaining, resource] of [
      [a, '4999', 'core'],
      [b, '4998', 'core'],
      [g, '4999', 'graphql'],
    ] as const) {
      expect(res.headers.get('x-ratelimit-limit')).toBe('5000');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(remaining);
      expect(res.headers.get('x-ratelimit-resource')).toBe(resource);
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    }
    // GraphQL answers 200 with errors[] when it refuses, as GitHub does
    expect(g.status).toBe(200);
    expect(await g.json()).toMatchObject({
      data: null,
      errors: [{ type: 'FORBIDDEN', message: 'Resource not accessible by integration' }],
    });
  });

  it('422 bodies carry errors[] and a documentation_url; a comment over 65,536 characters is refused on PATCH too', async () => {
    server = await startGitHubServer({ comments: { 2: ['a'] } });
    const id = server.state.comments.get(2)![0].id;
    const r = await raw(`/repos/octo-org/deploy/issues/comments/${id}`, {
      token: server.writeToken,
      method: 'PATCH',
      body: { body: 'x'.repeat(65_537) },
    });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({
      message: 'Validation Failed',
      errors: [
        {
          resource: 'IssueComment',
          code: 'unprocessable',
          field: 'data',
          message: 'Body is too long (maximum is 65536 characters)',
        },
      ],
      documentation_url: 'https://docs.github.com/rest/issues/comments#update-an-issue-comment',
      status: '422',
    });
    expect(server.state.comments.get(2)![0].body).toBe('a');
    const ok = await raw(`/repos/octo-org/deploy/issues/comments/${id}`, {
      token: server.writeToken,
      method: 'PATCH',
      body: { body: 'x'.repeat(65_536) },
    });
    expect(ok.status).toBe(200);
  });

  it('injected faults answer once (or `times`) and then the real answer comes back', async () => {
    server = await startGitHubServer({ comments: { 2: ['a'] } });
    server.state.faults.push({ path: /comments$/, status: 503, message: 'Service Unavailable', times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await raw('/repos/octo-org/deploy/issues/2/comments', { token: server.writeToken })).status,
      );
    expect(statuses).toEqual([503, 503, 200]);
  });
});
