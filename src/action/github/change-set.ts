import {
  type ApiFile,
  type ChangedFile,
  type ChangeSet,
  fromApiFile,
  parseNameStatus,
} from '../../changes/changed-file.js';
import { deepenUntilMergeBase, ensureCommits, isZeroSha } from '../../changes/fetch-commits.js';
import { git } from '../../changes/git.js';
import { apiMessageOf, httpStatusOf, refusalHint } from './api-response.js';
import type { EventContext } from './event.js';
import type { GitHubClient } from './octokit.js';

/** GitHub's `pulls.listFiles` returns at most this many files, whatever the pull request holds. */
export const LIST_FILES_CAP = 3000;
/** GitHub's compare API lists at most this many files for the whole comparison. */
export const COMPARE_FILES_CAP = 300;

/** Where git runs and which remote it fetches from. */
export interface GitOptions {
  /** The checkout (`GITHUB_WORKSPACE`): the repository root. */
  repoDir: string;
  /** Default `origin`. */
  remote?: string;
}

/**
 * The files a pull request changed, as GitHub lists them (`pulls.listFiles`, every page, renames with their
 * old path). GitHub stops listing at 3,000 files; when the list reaches that cap, or is shorter than the
 * payload's `changed_files`, the list is incomplete and git answers instead (`git diff base...head` after
 * fetching the commits and enough history for their merge base).
 */
export async function pullRequestChangeSet(
  octokit: GitHubClient,
  input: {
    owner: string;
    repo: string;
    number: number;
    baseSha: string;
    headSha: string;
    changedFiles?: number;
  } & GitOptions,
): Promise<ChangeSet> {
  const listed: ApiFile[] = await octokit
    .paginate(octokit.rest.pulls.listFiles, {
      owner: input.owner,
      repo: input.repo,
      pull_number: input.number,
      per_page: 100,
    })
    .catch((err: unknown) => {
      const status = httpStatusOf(err);
      const hint = refusalHint(status, 'pull-requests: read');
      throw new Error(
        `listing the files of pull request #${input.number} failed: GitHub answered ${status ?? 'with an error'} (${apiMessageOf(err)})${hint ? `; ${hint}` : ''}`,
        { cause: err },
      );
    });
  const base = { base: input.baseSha, head: input.headSha };
  const truncated =
    listed.length >= LIST_FILES_CAP ||
    (input.changedFiles !== undefined && listed.length < input.changedFiles);
  if (!truncated)
    return { all: false, files: listed.map(fromApiFile), ...base, source: 'pulls-api', notes: [] };

  const note = `GitHub listed ${listed.length} files for pull request #${input.number}${
    input.changedFiles !== undefined ? ` of ${input.changedFiles}` : ''
  } (it stops at ${LIST_FILES_CAP}); reading the change from git instead`;
  const fetched = await ensureCommits(input.repoDir, [input.baseSha, input.headSha], input);
  if (!fetched.ok) {
    return {
      all: true,
      files: [],
      ...base,
      source: 'none',
      notes: [note, `${fetched.error}; every package counts as changed`],
    };
  }
  const mb = await deepenUntilMergeBase(input.repoDir, input.baseSha, input.headSha, input);
  const notes = [note];
  if (!mb)
    notes.push(`no merge base of ${input.baseSha} and ${input.headSha}; diffing the two commits directly`);
  const range = mb ? [`${input.baseSha}...${input.headSha}`] : [input.baseSha, input.headSha];
  return { all: false, files: await gitNameStatus(input.repoDir, range), ...base, source: 'git', notes };
}

/**
 * The files a push changed: the tree diff `before` → `after` (what the branch looked like before and after
 * the push, force pushes included). A depth-1 checkout lacks `before`, so it is fetched by SHA first; when
 * that fails (history rewritten and collected, no remote) GitHub's compare API answers, and when that
 * fails or is capped every package counts. A zero `before` is a new branch: nothing to compare with, so
 * every package counts; a zero `after` is a deleted branch: nothing changed that could be deployed.
 */
export async function pushChangeSet(
  input: { before: string; after: string } & GitOptions,
  api?: { octokit: GitHubClient; owner: string; repo: string },
): Promise<ChangeSet> {
  const { before, after } = input;
  const range = { base: before, head: after };
  if (isZeroSha(after)) {
    return { all: false, files: [], ...range, source: 'none', notes: ['the push deleted the branch'] };
  }
  if (!before || isZeroSha(before)) {
    return {
      all: true,
      files: [],
      head: after,
      source: 'none',
      notes: ['the push created the branch (before is all zeros): every package counts as changed'],
    };
  }
  const fetched = await ensureCommits(input.repoDir, [before, after], input);
  if (fetched.ok) {
    const notes = fetched.fetched.length
      ? [`fetched ${fetched.fetched.join(', ')} (not in the checkout)`]
      : [];
    return {
      all: false,
      files: await gitNameStatus(input.repoDir, [before, after]),
      ...range,
      source: 'git',
      notes,
    };
  }
  const notes = [`${fetched.error}; asking GitHub's compare API`];
  if (!api) {
    notes.push('no GitHub token to ask with: every package counts as changed');
    return { all: true, files: [], ...range, source: 'none', notes };
  }
  try {
    const r = await api.octokit.rest.repos.compareCommitsWithBasehead({
      owner: api.owner,
      repo: api.repo,
      basehead: `${before}...${after}`,
    });
    const files: ApiFile[] = r.data.files ?? [];
    if (files.length >= COMPARE_FILES_CAP) {
      notes.push(`the compare API lists at most ${COMPARE_FILES_CAP} files: every package counts as changed`);
      return { all: true, files: [], ...range, source: 'compare-api', notes };
    }
    return { all: false, files: files.map(fromApiFile), ...range, source: 'compare-api', notes };
  } catch (err) {
    const hint = refusalHint(httpStatusOf(err), 'contents: read');
    notes.push(
      `compare ${before}...${after} failed (${apiMessageOf(err)}${hint ? `; ${hint}` : ''}): every package counts as changed`,
    );
    return { all: true, files: [], ...range, source: 'none', notes };
  }
}

/**
 * The change set for the event the workflow runs on: a pull request's files, a push's diff, a merge
 * queue's base..head, and for any other event (workflow_dispatch, schedule) every package, since there is
 * no change to narrow it by.
 */
export async function changeSetForEvent(
  ctx: EventContext,
  opts: GitOptions & { octokit?: GitHubClient },
): Promise<ChangeSet> {
  if (ctx.pullRequest) {
    if (!opts.octokit) {
      const pr = ctx.pullRequest;
      const fetched = await ensureCommits(opts.repoDir, [pr.baseSha, pr.headSha], opts);
      const mb = fetched.ok
        ? await deepenUntilMergeBase(opts.repoDir, pr.baseSha, pr.headSha, opts)
        : undefined;
      if (!mb) {
        return {
          all: true,
          files: [],
          base: pr.baseSha,
          head: pr.headSha,
          source: 'none',
          notes: ['no GitHub token and no merge base in git: every package counts as changed'],
        };
      }
      const files = await gitNameStatus(opts.repoDir, [`${pr.baseSha}...${pr.headSha}`]);
      return { all: false, files, base: pr.baseSha, head: pr.headSha, source: 'git', notes: [] };
    }
    return pullRequestChangeSet(opts.octokit, {
      ...opts,
      owner: ctx.owner,
      repo: ctx.repo,
      number: ctx.pullRequest.number,
      baseSha: ctx.pullRequest.baseSha,
      headSha: ctx.pullRequest.headSha,
      changedFiles: ctx.pullRequest.changedFiles,
    });
  }
  const api = opts.octokit ? { octokit: opts.octokit, owner: ctx.owner, repo: ctx.repo } : undefined;
  if (ctx.push) return pushChangeSet({ ...opts, before: ctx.push.before, after: ctx.push.after }, api);
  // a merge queue tests its base with the queued pull requests on top: the tree diff base → head
  if (ctx.mergeGroup)
    return pushChangeSet({ ...opts, before: ctx.mergeGroup.baseSha, after: ctx.mergeGroup.headSha }, api);
  return {
    all: true,
    files: [],
    head: ctx.sha,
    source: 'none',
    notes: [`a ${ctx.name} event names no change: every package counts as changed`],
  };
}

async function gitNameStatus(repoDir: string, range: string[]): Promise<ChangedFile[]> {
  const r = await git(repoDir, ['diff', '--name-status', '-z', '-M', '--no-ext-diff', ...range, '--']);
  return parseNameStatus(r.stdout);
}
