import type { PackageRunResult } from '../pipeline/run-package.js';
import { planOf, reviewedPlan } from '../preview/plan-digest.js';
import { renderPlanDigest } from '../report/plan-digest-marker.js';
import { isNoLongerChanged, noLongerChangedBody } from '../report/pr-comment-body.js';
import {
  GITHUB_COMMENT_LIMIT,
  parsePreviewMarker,
  previewMarker,
  renderPreviewMarkdown,
} from '../report/preview-markdown.js';
import { hasChanges } from '../report/preview-words.js';
import {
  type CommentThread,
  type EventContext,
  type GitHubClient,
  pickMarkedComment,
  readCommentThread,
  type UpsertCommentResult,
  writeMarkedComment,
} from './github/index.js';
import type { ActionInputs } from './inputs.js';
import * as core from './toolkit.js';

/**
 * The comment body of a preview: the rendered preview (marker first) and its plan digest, hidden, with
 * the package's git tree at review (`tree`) for the apply's plan-drift check.
 */
export function previewCommentBody(r: PackageRunResult, commentKey: string, tree?: string): string {
  const doc = r.preview!;
  const digest = renderPlanDigest(
    reviewedPlan(
      planOf(
        doc.objects,
        (r.prepared?.objects ?? []).map((o) => o.object),
      ),
      tree,
    ),
  );
  const md = renderPreviewMarkdown(doc, { commentKey, maxLength: GITHUB_COMMENT_LIMIT - digest.length - 2 });
  return `${md}${digest}\n`;
}

/**
 * The preview comments of one pull request run: one per (package, comment-key), read once, edited in
 * place. `comment: changes` writes none for a package with nothing to do (but updates one that exists);
 * packages the pull request no longer changes get their comment updated to say so. Comment problems
 * never fail the job: a notice or warning, and the job summary has the preview.
 */
export class PreviewComments {
  private thread?: Promise<CommentThread | { skipped: string }>;
  private noticed = false;

  constructor(
    private readonly inputs: Pick<ActionInputs, 'comment' | 'commentKey' | 'packages'>,
    private readonly ctx: EventContext,
    private readonly octokit: GitHubClient | undefined,
  ) {}

  private get active(): boolean {
    return this.inputs.comment !== 'never' && this.ctx.pullRequest !== undefined;
  }

  private notice(text: string) {
    if (this.noticed) return;
    this.noticed = true;
    core.notice(text);
  }

  private async readThread(): Promise<CommentThread | undefined> {
    if (!this.octokit) {
      this.notice('no github-token: skipping the PR comment (the job summary has the preview)');
      return undefined;
    }
    this.thread ??= readCommentThread(this.octokit, {
      owner: this.ctx.owner,
      repo: this.ctx.repo,
      issueNumber: this.ctx.pullRequest!.number,
    });
    const t = await this.thread;
    if ('skipped' in t) {
      this.notice(`PR comment skipped: ${t.skipped}`);
      return undefined;
    }
    return t;
  }

  private report(path: string, res: UpsertCommentResult) {
    if (res.action === 'skipped') this.notice(`PR comment skipped: ${res.reason}`);
    else core.info(`PR comment for ${path} ${res.action}${res.url ? `: ${res.url}` : ''}`);
  }

  /** Writes (or, under `changes`, maybe leaves out) the comment of one previewed package; `tree`: its git tree. */
  async onPreview(r: PackageRunResult, tree?: string): Promise<void> {
    if (!this.active || !r.preview) return;
    try {
      const thread = await this.readThread();
      if (!thread) return;
      const marker = previewMarker(r.path, this.inputs.commentKey);
      const existing = pickMarkedComment(thread.comments, marker);
      if (!hasChanges(r.preview.summary) && this.inputs.comment === 'changes' && !existing) {
        core.info(`${r.path}: nothing would change; no PR comment (comment: changes)`);
        return;
      }
      this.report(
        r.path,
        await writeMarkedComment(
          this.octokit!,
          thread,
          marker,
          previewCommentBody(r, this.inputs.commentKey, tree),
        ),
      );
    } catch (err) {
      core.warning(`could not write the PR comment of ${r.path}: ${(err as Error).message}`);
    }
  }

  /**
   * Updates the comments of this key whose package the pull request no longer changes (`covered` holds
   * every package this run handled). Only when the packages come from the change set: with an explicit
   * `packages` list another package's comment may belong to another job.
   */
  async finish(covered: readonly string[]): Promise<void> {
    if (!this.active || this.inputs.packages.length > 0) return;
    try {
      const thread = await this.readThread();
      if (!thread) return;
      const handled = new Set(covered);
      for (const c of [...thread.comments]) {
        const named = c.body ? parsePreviewMarker(c.body) : undefined;
        if (!named || named.key !== this.inputs.commentKey || handled.has(named.package)) continue;
        const marker = previewMarker(named.package, named.key);
        if (pickMarkedComment(thread.comments, marker) !== c || isNoLongerChanged(c.body ?? '')) continue;
        handled.add(named.package);
        const body = noLongerChangedBody(c.body ?? '', {
          package: named.package,
          commentKey: named.key,
          commit: this.ctx.pullRequest?.headSha,
        });
        this.report(named.package, await writeMarkedComment(this.octokit!, thread, marker, body));
      }
    } catch (err) {
      core.warning(
        `could not update the comments of packages this pull request no longer changes: ${(err as Error).message}`,
      );
    }
  }
}
