import { countOutcomes, failed } from '../apply/run-result.js';
import { shortName } from '../common/object-id.js';
import type { PackageRunResult } from '../pipeline/run-package.js';
import type { PlanComparison, ReviewedPlan } from '../preview/plan-digest.js';
import { nameOfKey, type PlanGate, type PlanVerdict } from '../preview/plan-gate.js';
import { scrub } from '../preview/redact.js';
import { driftLines, renderAppliedSection } from '../report/pr-comment-body.js';
import { AppliedComments } from './applied-comments.js';
import {
  type CommentThread,
  type EventContext,
  type GitHubClient,
  type MergedPull,
  mergedPullsOf,
  noteUnposted,
  readCommentThread,
} from './github/index.js';
import type { ActionInputs } from './inputs.js';
import { reviewedPlanFor } from './reviewed-plan.js';
import * as core from './toolkit.js';

/**
 * The merged pull request's side of an apply on the default branch: the plan its comment reviewed
 * (compared with what the pre-flight decided, `plan-drift`) and the "Applied" section added to that
 * comment afterwards (`comment-on-apply`). GitHub problems never fail the job: a notice, or a warning.
 */
export class ApplyFeedback {
  private pulls?: Promise<MergedPull[] | { skipped: string }>;
  private readonly threads = new Map<number, Promise<CommentThread | { skipped: string }>>();
  private readonly drift = new Map<string, PlanComparison>();
  private noticedPulls = false;
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
  ) {
    if (octokit) this.applied = new AppliedComments(inputs, octokit);
  }

  /** Before the run: the packages it applies. */
  begin(paths: readonly string[]): void {
    this.packageCount = paths.length;
  }

  private async mergedPulls(): Promise<MergedPull[]> {
    if (!this.octokit) return [];
    this.pulls ??= mergedPullsOf(this.octokit, {
      owner: this.ctx.owner,
      repo: this.ctx.repo,
      sha: this.ctx.sha,
    });
    const p = await this.pulls;
    if ('skipped' in p) {
      if (!this.noticedPulls) core.notice(p.skipped);
      this.noticedPulls = true;
      return [];
    }
    return p;
  }

  private async thread(n: number): Promise<CommentThread | { skipped: string }> {
    let t = this.threads.get(n);
    if (!t) {
      t = readCommentThread(this.octokit!, { owner: this.ctx.owner, repo: this.ctx.repo, issueNumber: n });
      this.threads.set(n, t);
    }
    return t;
  }

  /** The plan the merged PR's comment reviewed for `pkg`, or why there is none to compare with. */
  async reviewedPlan(pkg: string): Promise<{ pull: number; plan: ReviewedPlan } | { none: string }> {
    if (!this.octokit) return { none: 'no github-token to read the merged pull request with' };
    const pulls = await this.mergedPulls();
    if (pulls.length === 0) return { none: `no pull request was merged into ${this.ctx.sha.slice(0, 7)}` };
    const key = this.inputs.commentKey ? ` (comment-key ${this.inputs.commentKey})` : '';
    for (const pull of pulls) {
      const t = await this.thread(pull.number);
      if ('skipped' in t) continue;
      const found = reviewedPlanFor(t.comments, pkg, this.inputs.commentKey);
      if (found) return { pull: pull.number, plan: found.plan };
    }
    const where = pulls.map((p) => `#${p.number}`).join(', ');
    return { none: `the comment of ${pkg}${key} on ${where} holds no reviewed plan` };
  }

  /**
   * The plan gate for `pkg`, fetched before its run: the reviewed plan (or why there is none) and the
   * policy. Undefined with `plan-drift: ignore`.
   */
  async gate(pkg: string): Promise<PlanGate | undefined> {
    if (this.inputs.planDrift === 'ignore') return undefined;
    const reviewed = await this.reviewedPlan(pkg).catch((err: Error) => ({ none: err.message }));
    return { policy: this.inputs.planDrift, reviewed };
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
      const pulls = await this.mergedPulls();
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
