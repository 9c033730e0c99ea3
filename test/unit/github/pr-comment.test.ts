import { afterEach, describe, expect, it } from 'vitest';
import { createOctokit } from '../../../src/action/github/octokit.js';
import { pickMarkedComment, upsertPreviewComment } from '../../../src/action/github/pr-comment.js';
import { previewMarker } from '../../../src/report/preview-markdown.js';
import { type GitHubServer, startGitHubServer } from '../../support/github-server.js';

let server: GitHubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PR = 42;
const target = { owner: 'octo-org', repo: 'deploy', issueNumber: PR };
const wordpress = previewMarker('deploy/wordpress');
const shop = previewMarker('deploy/shop');

/** 250 comments: chatter, the shop package's comment on page 1, wordpress's on page 3 (ids ascend). */
function busyThread(): string[] {
  const bodies = Array.from({ length: 250 }, (_, i) => `LGTM #${i}`);
  bodies[3] = `${shop}\n### Preview · shop (old)`;
  bodies[230] = `${wordpress}\n### Preview · wordpress (old)`;
  return bodies;
}

describe('upsertPreviewComment', () => {
  it('finds the marker on page 3 of 250 comments and edits it in place', async () => {
    server = await startGitHubServer({ comments: { [PR]: busyThread() } });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const oldId = server.state.comments.get(PR)?.[230].id;

    const r = await upsertPreviewComment(octokit, {
      ...target,
      marker: wordpress,
      body: `${wordpress}\nnew body`,
    });

    expect(r).toMatchObject({ action: 'updated', id: oldId });
    const lists = server.requests.filter((q) => q.method === 'GET');
    expect(lists.map((q) => q.query.page ?? '1')).toEqual(['1', '2', '3']);
    expect(lists[0].query.per_page).toBe('100');
    const writes = server.requests.filter((q) => q.write);
    expect(writes).toEqual([
      expect.objectContaining({ method: 'PATCH', path: `/repos/octo-org/deploy/issues/comments/${oldId}` }),
    ]);
    const comments = server.state.comments.get(PR) ?? [];
    expect(comments).toHaveLength(250);
    expect(comments[230].body).toBe(`${wordpress}\nnew body`);
    expect(comments[3].body).toBe(`${shop}\n### Preview · shop (old)`);
  });

  it('creates once, then updates: running twice never duplicates', async () => {
    server = await startGitHubServer({ comments: { [PR]: ['first!', `${shop}\nshop`] } });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });

    const first = await upsertPreviewComment(octokit, { ...target, marker: wordpress, body: 'run 1' });
    const second = await upsertPreviewComment(octokit, { ...target, marker: wordpress, body: 'run 2' });

    expect(first.action).toBe('created');
    expect(second).toEqual({
      action: 'updated',
      id: first.action === 'created' ? first.id : -1,
      url: expect.any(String),
    });
    const bodies = (server.state.comments.get(PR) ?? []).map((c) => c.body);
    expect(bodies).toEqual(['first!', `${shop}\nshop`, `${wordpress}\nrun 2`]);
    expect(server.requests.filter((q) => q.method === 'POST' && q.write)).toHaveLength(1);
  });

  it('does not mistake one package for another whose path it prefixes', async () => {
    const app = previewMarker('deploy/app');
    server = await startGitHubServer({ comments: { [PR]: [`${previewMarker('deploy/app-v2')}\nother`] } });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    expect((await upsertPreviewComment(octokit, { ...target, marker: app, body: 'x' })).action).toBe(
      'created',
    );
    expect(server.state.comments.get(PR)?.[0].body).toBe(`${previewMarker('deploy/app-v2')}\nother`);
  });

  it.each([
    { name: 'create', seeded: [] as string[] },
    { name: 'update', seeded: [`${wordpress}\nold`] },
  ])('a read-only token ($name) is skipped with a reason, not thrown', async ({ seeded }) => {
    server = await startGitHubServer({ comments: { [PR]: seeded } });
    const octokit = createOctokit(server.readToken, { baseUrl: server.url });

    const r = await upsertPreviewComment(octokit, { ...target, marker: wordpress, body: 'new' });

    expect(r.action).toBe('skipped');
    expect(r.action === 'skipped' && r.reason).toMatch(
      /403 \(Resource not accessible by integration\).*fork/,
    );
    expect((server.state.comments.get(PR) ?? []).map((c) => c.body)).toEqual(seeded);
  });

  it('skips when the pull request is not visible (404), throws on bad credentials (401)', async () => {
    server = await startGitHubServer();
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const hidden = await upsertPreviewComment(octokit, {
      ...target,
      repo: 'private',
      marker: wordpress,
      body: 'x',
    });
    expect(hidden.action).toBe('skipped');
    const bad = createOctokit('ghs_not-a-token', { baseUrl: server.url });
    await expect(upsertPreviewComment(bad, { ...target, marker: wordpress, body: 'x' })).rejects.toThrow(
      /listing comments of octo-org\/deploy#42 failed: Bad credentials/,
    );
  });

  it('puts the marker first when the body lacks it', async () => {
    server = await startGitHubServer();
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    await upsertPreviewComment(octokit, { ...target, marker: wordpress, body: '### Preview' });
    expect(server.state.comments.get(PR)?.[0].body).toBe(`${wordpress}\n### Preview`);
  });
});

describe('pickMarkedComment (among our own comments)', () => {
  const m = previewMarker('deploy/a');
  const bot = { type: 'Bot' };
  it.each([
    { name: 'none carries it', comments: [{ id: 1, body: 'hi', user: bot }], want: undefined },
    {
      name: 'the newest of two copies',
      comments: [
        { id: 4, body: `${m}\na`, user: bot },
        { id: 9, body: `${m}\nb`, user: bot },
      ],
      want: 9,
    },
    {
      name: 'never one that only quotes it',
      comments: [{ id: 1, body: `look: ${m}`, user: bot }],
      want: undefined,
    },
    {
      name: 'not the marker of another key',
      comments: [{ id: 1, body: `${previewMarker('deploy/a', 'prod')}\nother key`, user: bot }],
      want: undefined,
    },
    { name: 'a null body', comments: [{ id: 1, body: null, user: bot }], want: undefined },
  ])('$name', ({ comments, want }) => {
    expect(pickMarkedComment(comments, m)?.id).toBe(want);
  });
});
