import { countOutcomes, failed } from '../apply/run-result.js';
import { commitsTouching, RANGE_COMMITS_MAX } from '../changes/commits-in-range.js';
import { shortName } from '../common/object-id.js';
import type { PackageRunResult } from '../pipeline/run-package.js';
import type { PlanComparison } from '../preview/plan-digest.js';
import { nameOfKey, type PlanGate, type PlanVerdict, type ReviewLookup } from '../preview/plan-gate.js';
import { scrub } from '../preview/redact.js';
import { driftLines, renderAppliedSection } from '../report/pr-comment-body.js';
import { rollbackMarkdownLine } from '../report/rollback-words.js';
import { AppliedComments } from './applied-comments.js';
import {
  type CommentThread,
  type EventContext,
  type GitHubClient,
  type MergedPull,
  mergedPullsOfCommits,
  noteUnposted,
  readCommentThread,
} from './github/index.js';
import type { ActionInputs } from './inputs.js';
import { findReviewedPlan, reviewedPlanFor } from './reviewed-plan.js';
import * as core from './toolkit.js';

type PullList = { pulls: MergedPull[]; skipped?: string };

/** Where the merged pull requests of each package are listed from: the commit the cluster last applied. */
export interface FeedbackScope {
  repoRoot: string;
  /** Per package: `base`, the commit last applied here (undefined: only the pushed commit's pulls); `tree`, the tree applied. */
  units: ReadonlyMap<string, { base?: string; tree?: Promise<string | undefined> }>;
}

/**
 * The merged pull requests' side of an apply: the plan their comments reviewed (compared with what the
 * pre-flight decided, `plan-drift`) and the "Applied" section added to those comments afterwards
 * (`comment-on-apply`). With a scope, a package's pull requests are those merged by the commits since the
 * one the cluster last applied that changed it (catch-up applies what cancelled runs did not); without,
 * those of the pushed commit. GitHub problems never fail the job: a notice, or a warning; only
 * `plan-drift: fail` refuses a package.
 */
export class ApplyFeedback {
  private readonly lists = new Map<string, Promise<PullList>>();
  private readonly commitPulls = new Map<string, Promise<MergedPull[] | { skipped: string }>>();
  private readonly threads = new Map<number, Promise<CommentThread | { skipped: string }>>();
  private readonly drift = new Map<string, PlanComparison>();
  private readonly noticed = new Set<string>();
  private readonly applied?: AppliedComments;
  /** Packages this run applies (the comment layout of a pull request without a comment depends on it). */
  private packageCount = 0;

  constructor(
    private readonly inputs: Pick<
      ActionInputs,
      'comment' | 'commentKey' | 'commentOnApply' | 'planDrift' | 'commentLayout'
    >,
    private readonly ctx: EventContext,
    private readonly octokit: GitHubClient | undefined,
    private readonly scope?: FeedbackScope,
  ) {
    if (octokit) this.applied = new AppliedComments(inputs, octokit);
  }

  /** Before the run: the packages it applies. */
  begin(paths: readonly string[]): void {
    this.packageCount = paths.length;
  }

  private noticeOnce(text: string) {
    if (this.noticed.has(text)) return;
    this.noticed.add(text);
    core.notice(text);
  }

  /**
   * The pull requests merged into `pkg` since the commit the cluster last applied for it, newest merge
   * first; those of the pushed commit when that base is unknown or git cannot list the range. `skipped`:
   * GitHub refused to list some (no permission).
   */
  private pullList(pkg: string): Promise<PullList> {
    const base = this.scope?.units.get(pkg)?.base;
    const key = this.scope && base && base !== this.ctx.sha ? pkg : '';
    let list = this.lists.get(key);
    if (!list) {
      list = key ? this.listRange(pkg, base!, this.scope!.repoRoot) : this.listCommits([this.ctx.sha]);
      this.lists.set(key, list);
    }
    return list;
  }

  private listCommits(commits: readonly string[]): Promise<PullList> {
    return mergedPullsOfCommits(
      this.octokit!,
      { owner: this.ctx.owner, repo: this.ctx.repo },
      commits,
      this.commitPulls,
    );
  }

  private async listRange(pkg: string, base: string, repoRoot: string): Promise<PullList> {
    const range = await commitsTouching(repoRoot, base, this.ctx.sha, [pkg]);
    if ('unknown' in range) {
      this.noticeOnce(
        `${pkg}: the pull requests merged since ${base.slice(0, 7)} cannot be listed (${range.unknown}); only those of ${this.ctx.sha.slice(0, 7)} are used`,
      );
      return this.listCommits([this.ctx.sha]);
    }
    if (range.truncated)
      this.noticeOnce(
        `${pkg}: more than ${RANGE_COMMITS_MAX} commits changed it since ${base.slice(0, 7)}; the pull requests of the newest ${RANGE_COMMITS_MAX} are used`,
      );
    return this.listCommits(range.commits);
  }

  /** The merged pull requests of `pkg` (see pullList); a refusal to list them is a notice. */
  async mergedPulls(pkg: string): Promise<MergedPull[]> {
    if (!this.octokit) return [];
    const list = await this.pullList(pkg);
    if (list.skipped) this.noticeOnce(list.skipped);
    return list.pulls;
  }

  private async thread(n: number): Promise<CommentThread | { skipped: string }> {
    let t = this.threads.get(n);
    if (!t) {
      t = readCommentThread(this.octokit!, { owner: this.ctx.owner, repo: this.ctx.repo, issueNumber: n });
      this.threads.set(n, t);
    }
    return t;
  }

  /**
   * The plan reviewed for `pkg` (before its run): the newest merged pull request whose comment reviewed
   * the tree being applied, or why there is none.
   */
  async reviewedPlan(pkg: string): Promise<ReviewLookup> {
    if (!this.octokit)
      return { kind: 'unreadable', why: 'no github-token to read the merged pull requests with' };
    try {
      const list = await this.pullList(pkg);
      if (list.skipped && list.pulls.length === 0) return { kind: 'unreadable', why: list.skipped };
      return await findReviewedPlan(
        list.pulls,
        async (n) => {
          const t = await this.thread(n);
          if ('skipped' in t) return t;
          return { plan: reviewedPlanFor(t.comments, pkg, this.inputs.commentKey)?.plan };
        },
        await this.scope?.units.get(pkg)?.tree,
      );
    } catch (err) {
      return { kind: 'unreadable', why: (err as Error).message };
    }
  }

  /**
   * The plan gate for `pkg`, fetched before its run: the reviewed plan (or why there is none) and the
   * policy. Undefined with `plan-drift: ignore`.
   */
  async gate(pkg: string): Promise<PlanGate | undefined> {
    if (this.inputs.planDrift === 'ignore') return undefined;
    return { policy: this.inputs.planDrift, package: pkg, reviewed: await this.reviewedPlan(pkg) };
  }

  /**
   * What the run's comparison found, reported after it: a notice when there was nothing to compare, a
   * warning naming the objects when the plan changed (`warn`; a refusal is the run's error), and the
   * objects for the job summary and the Applied section.
   */
  verdict(pkg: string, v: PlanVerdict | undefined): void {
    if (!v) return;
    if (v.comparison && !v.comparison.same) this.drift.set(pkg, v.comparison);
    if (v.notice) core.notice(`${pkg}: ${v.notice}`);
    if (v.info) core.info(`${pkg}: ${v.info}`);
    if (v.warn) core.warning(v.warn, { title: `kpt-live-action: plan changed since review (${pkg})` });
  }

  /** The job summary section naming the objects whose plan changed ('' when none). */
  summarySection(pkg: string): string {
    const c = this.drift.get(pkg);
    if (!c) return '';
    return `\n#### Plan changed since review · \`${pkg}\`\n\n${driftLines(c, nameOfKey).join('\n')}\n`;
  }

  /** Adds the "Applied" section to the package's comment on each merged pull request. */
  async report(r: PackageRunResult, secretValues: readonly string[]): Promise<void> {
    if (!this.inputs.commentOnApply || !this.octokit || !this.applied) return;
    try {
      const pulls = await this.mergedPulls(r.path);
      if (pulls.length === 0) {
        core.info(`no pull request merged into ${this.ctx.sha.slice(0, 7)}: the apply result is not posted`);
        return;
      }
      const objects = r.run?.objects ?? [];
      const section = renderAppliedSection({
        package: r.path,
        // a package the loop never started was not applied
        outcome: r.outcome === 'skipped' ? 'error' : r.outcome,
        counts: countOutcomes(objects),
        failed: objects
          .filter((o) => failed(o))
          .map((o) => ({
            name: shortName(o.id),
            reason: scrub(o.message ?? o.reconcile ?? 'failed', secretValues),
          })),
        ...(r.error ? { error: scrub(r.error, secretValues) } : {}),
        commit: this.ctx.sha,
        runUrl: this.ctx.runUrl,
        drift: this.drift.get(r.path),
        nameOf: nameOfKey,
        ...(r.rollback
          ? {
              rollback: {
                status: r.rollback.status,
                markdown: scrub(
                  rollbackMarkdownLine(r.rollback, { automatic: true, package: r.path }),
                  secretValues,
                ),
              },
            }
          : {}),
      });
      for (const pull of pulls) {
        const t = await this.thread(pull.number);
        if ('skipped' in t) {
          core.notice(`apply result not posted on #${pull.number}: ${t.skipped}`);
          continue;
        }
        const posted = await this.applied.post(t, r.path, section, this.packageCount);
        if (posted.action !== 'written') continue;
        const res = posted.res;
        if (res.action === 'skipped')
          core.notice(`apply result not posted on #${pull.number}: ${res.reason}`);
        else
          core.info(
            `apply result of ${r.path} ${res.action === 'created' ? 'posted' : 'added'} on #${pull.number}${res.url ? `: ${res.url}` : ''}`,
          );
      }
    } catch (err) {
      const reason = (err as Error).message;
      core.warning(`could not post the apply result of ${r.path} on the pull request: ${reason}`);
      noteUnposted(this.octokit, `the apply result of ${r.path}`, reason);
    }
  }

  /** After the run: writes the Applied sections collected for combined comments (one edit per part). */
  async finish(): Promise<void> {
    if (!this.applied || !this.octokit) return;
    try {
      await this.applied.flush((pull, packages, res) => {
        if (res.action === 'skipped') core.notice(`apply result not posted on #${pull}: ${res.reason}`);
        else
          core.info(
            `apply result of ${packages.join(', ')} added to the combined comment on #${pull}${res.url ? `: ${res.url}` : ''}`,
          );
      });
    } catch (err) {
      const reason = (err as Error).message;
      core.warning(`could not post the apply results on the combined comment: ${reason}`);
      noteUnposted(this.octokit, 'the apply results on the combined comment', reason);
    }
  }
}
