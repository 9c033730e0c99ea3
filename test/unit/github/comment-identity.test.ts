import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiMessageOf } from '../../../src/action/github/api-response.js';
import { tokenIdentity } from '../../../src/action/github/identity.js';
import { createOctokit } from '../../../src/action/github/octokit.js';
import { readCommentThread, writeMarkedComment } from '../../../src/action/github/pr-comment.js';
import { reviewedPlanFor } from '../../../src/action/reviewed-plan.js';
import { planOf, reviewedPlan } from '../../../src/preview/plan-digest.js';
import { renderPlanDigest } from '../../../src/report/plan-digest-marker.js';
import { previewMarker } from '../../../src/report/preview-markdown.js';
import { type GitHubServer, startGitHubServer } from '../../support/github-server.js';
import { wordpressPreview } from '../report/preview-fixtures.js';

let server: GitHubServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

const PR = 12;
const where = { owner: 'octo-org', repo: 'deploy', issueNumber: PR };
const m = previewMarker('deploy/a');
const digestOf = (replicas: number) => {
  const doc = wordpressPreview();
  const plan = planOf(doc.objects, []).map((e, i) =>
    i === 0 ? { ...e, hash: `${replicas}`.repeat(12) } : e,
  );
  return renderPlanDigest(reviewedPlan(plan));
};
const bodies = () => (server!.state.comments.get(PR) ?? []).map((c) => c.body);

describe("the token's own comments", () => {
  it('takes the workflow token for github-actions[bot] when GraphQL names no viewer', async () => {
    server = await startGitHubServer();
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const id = await tokenIdentity(octokit);
    expect(id).toMatchObject({ login: 'github-actions[bot]', source: 'assumed' });
    expect(id.note).toContain('Resource not accessible by integration');
    // asked once per client
    await tokenIdentity(octokit);
    expect(server.requests.filter((r) => r.path === '/graphql')).toHaveLength(1);
  });

  it("never edits a person's comment that starts with our marker, nor trusts its plan digest", async () => {
    const pasted = `${m}\nI copied the bot's comment here\n${digestOf(1)}`;
    server = await startGitHubServer({ comments: { [PR]: [{ body: pasted, login: 'mallory' }] } });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const thread = await readCommentThread(octokit, where);
    if ('skipped' in thread) throw new Error(thread.skipped);
    expect(thread.comments).toHaveLength(0);
    expect(reviewedPlanFor(thread.comments, 'deploy/a', '')).toBeUndefined();
    const r = await writeMarkedComment(octokit, thread, m, `${m}\nours`);
    expect(r.action).toBe('created');
    expect(bodies()).toEqual([pasted, `${m}\nours`]);
  });

  it('with a GitHub App or personal token: the viewer login decides, another bot with the marker is not us', async () => {
    server = await startGitHubServer({
      viewerLogin: 'deploy-bot',
      botLogin: 'deploy-bot[bot]',
      comments: {
        [PR]: [
          { body: `${m}\nfrom the workflow token`, login: 'github-actions[bot]', type: 'Bot' },
          { body: `${m}\nours`, login: 'deploy-bot[bot]', type: 'Bot' },
        ],
      },
    });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    expect(await tokenIdentity(octokit)).toEqual({ login: 'deploy-bot', source: 'viewer' });
    const thread = await readCommentThread(octokit, where);
    if ('skipped' in thread) throw new Error(thread.skipped);
    // GraphQL names the app's bot user without the `[bot]` that REST shows: still ours, a Bot only
    expect(thread.comments.map((c) => c.body)).toEqual([`${m}\nours`]);
    await writeMarkedComment(octokit, thread, m, `${m}\nedited`);
    expect(bodies()).toEqual([`${m}\nfrom the workflow token`, `${m}\nedited`]);
  });

  it('edits the newest copy, hides older ones as outdated once, and reads the digest of the edited one', async () => {
    server = await startGitHubServer({
      comments: {
        [PR]: [
          `${m}\nold copy\n${digestOf(1)}`,
          'LGTM',
          `${m}\nnewer copy\n${digestOf(2)}`,
          `${m}\nnewest\n${digestOf(3)}`,
        ],
      },
    });
    const [oldest, chat, newer, newest] = server.state.comments.get(PR)!;
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url, policy: { writeSpacingMs: 0 } });
    const thread = await readCommentThread(octokit, where);
    if ('skipped' in thread) throw new Error(thread.skipped);
    const plan = reviewedPlanFor(thread.comments, 'deploy/a', '');
    expect(plan?.commentId).toBe(newest.id);
    expect(plan?.plan.changed?.[0].hash).toBe('333333333333');

    const r = await writeMarkedComment(octokit, thread, m, `${m}\nrun 2\n${digestOf(4)}`);
    expect(r).toMatchObject({
      action: 'updated',
      id: newest.id,
      note: '2 older duplicate(s) hidden as outdated',
    });
    expect(server.state.minimized).toEqual(
      new Map([
        [oldest.id, 'OUTDATED'],
        [newer.id, 'OUTDATED'],
      ]),
    );
    expect(server.state.minimized.has(chat.id)).toBe(false);
    expect(bodies()).toHaveLength(4);
    expect(server.requests.some((q) => q.method === 'DELETE')).toBe(false);

    // the next run: the copies are hidden already, so it sends no mutation
    const next = createOctokit(server.writeToken, { baseUrl: server.url, policy: { writeSpacingMs: 0 } });
    const before = server.requests.length;
    const t2 = await readCommentThread(next, where);
    if ('skipped' in t2) throw new Error(t2.skipped);
    expect(reviewedPlanFor(t2.comments, 'deploy/a', '')?.plan.changed?.[0].hash).toBe('444444444444');
    await writeMarkedComment(next, t2, m, `${m}\nrun 3`);
    const sent = server.requests.slice(before);
    expect(sent.filter((q) => q.write).map((q) => q.method)).toEqual(['PATCH']);
  });

  it('a read-only token cannot hide duplicates: the edit is skipped with the permission to add', async () => {
    server = await startGitHubServer({ comments: { [PR]: [`${m}\na`, `${m}\nb`] } });
    const octokit = createOctokit(server.readToken, { baseUrl: server.url });
    const thread = await readCommentThread(octokit, where);
    if ('skipped' in thread) throw new Error(thread.skipped);
    const r = await writeMarkedComment(octokit, thread, m, `${m}\nc`);
    expect(r.action).toBe('skipped');
    expect(r.action === 'skipped' && r.reason).toMatch(
      /GitHub answered 403 \(Resource not accessible by integration\).*"permissions: pull-requests: write"/,
    );
    expect(server.state.minimized.size).toBe(0);
  });
});

describe("GitHub's error details", () => {
  it('a comment over 65,536 characters: the 422 says why (errors[]), on create and on edit', async () => {
    server = await startGitHubServer({ comments: { [PR]: [`${m}\nshort`] } });
    const octokit = createOctokit(server.writeToken, { baseUrl: server.url });
    const thread = await readCommentThread(octokit, where);
    if ('skipped' in thread) throw new Error(thread.skipped);
    const huge = `${m}\n${'x'.repeat(70_000)}`;
    await expect(writeMarkedComment(octokit, thread, m, huge)).rejects.toThrow(
      /editing comment \d+ on octo-org\/deploy#12 failed: Validation Failed: Body is too long \(maximum is 65536 characters\)/,
    );
    const other = previewMarker('deploy/b');
    await expect(
      writeMarkedComment(octokit, thread, other, `${other}\n${'x'.repeat(70_000)}`),
    ).rejects.toThrow(/commenting on octo-org\/deploy#12 failed: Validation Failed: Body is too long/);
    expect(bodies()).toEqual([`${m}\nshort`]);
  });

  it.each([
    [
      {
        message: 'Validation Failed',
        errors: [{ resource: 'Label', code: 'already_exists', field: 'name' }],
      },
      'Validation Failed: Label.name already exists',
    ],
    [
      {
        message: 'Validation Failed',
        errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
      },
      'Validation Failed: Issue.title is missing',
    ],
    [
      { message: 'Validation Failed', errors: ['state is not included in the list'] },
      'Validation Failed: state is not included in the list',
    ],
    [{ message: 'Not Found' }, 'Not Found'],
  ])('apiMessageOf(%o) = %s', (data, text) => {
    expect(apiMessageOf({ status: 422, message: 'x', response: { data } })).toBe(text);
  });
});
