import type { PackageRunResult } from '../pipeline/run-package.js';
import { planOf, reviewedPlan } from '../preview/plan-digest.js';
import { type CombinedEntry, isMovedToCombined } from '../report/combined-comment.js';
import { renderPlanDigest } from '../report/plan-digest-marker.js';
import { isNoLongerChanged, noLongerChangedBody } from '../report/pr-comment-body.js';
import {
  GITHUB_COMMENT_LIMIT,
  parsePreviewMarker,
  previewMarker,
  renderPreviewMarkdown,
} from '../report/preview-markdown.js';
import { hasChanges } from '../report/preview-words.js';
import { type CommentReport, retireCombinedPreview, writeCombinedPreview } from './combined-preview.js';
import { chooseLayout } from './comment-layout.js';
import {
  type CommentThread,
  type EventContext,
  type GitHubClient,
  noteUnposted,
  pickMarkedComment,
  readCommentThread,
  writeMarkedComment,
} from './github/index.js';
import type { ActionInputs } from './inputs.js';
import * as core from './toolkit.js';

/**
 * The plan digest of a preview (a hidden HTML comment the apply job compares with), with the package's git
 * tree at review (`tree`) for the apply's plan-drift check.
 */
export function planDigestOf(r: PackageRunResult, tree?: string): string {
  return renderPlanDigest(
    reviewedPlan(
      planOf(
        r.preview!.objects,
        (r.prepared?.objects ?? []).map((o) => o.object),
      ),
      tree,
    ),
  );
}

/** The comment body of a preview: the rendered preview (marker first) and its plan digest, hidden. */
export function previewCommentBody(r: PackageRunResult, commentKey: string, tree?: string): string {
  const digest = planDigestOf(r, tree);
  const md = renderPreviewMarkdown(r.preview!, {
    commentKey,
    maxLength: GITHUB_COMMENT_LIMIT - digest.length - 2,
  });
  return `${md}${digest}\n`;
}

type Inputs = Pick<ActionInputs, 'comment' | 'commentKey' | 'packages' | 'commentLayout'>;

/**
 * The preview comments of one pull request run. Per package (`comment-layout: per-package`, or `auto`
 * with few packages): one comment per (package, comment-key), written as each package finishes.
 * Combined: one comment per pull request and key, written once every package is previewed (see
 * combined-preview.ts). Only comments the token's own identity wrote are read or edited. Comment
 * problems never fail the job: a notice or warning, and the job summary has the preview.
 *
 * For a loop: `begin(paths)` before the packages run (reads the thread, chooses the layout),
 * `onPreview(result)` after each package, `finish(covered)` after the last.
 */
export class PreviewComments {
  private thread?: Promise<CommentThread | { skipped: string }>;
  private layout?: Promise<'per-package' | 'combined'>;
  private readonly entries = new Map<string, CombinedEntry>();
  private noticed = false;

  constructor(
    private readonly inputs: Inputs,
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

  private readonly report: CommentReport = (what, res) => {
    if (res.action === 'skipped') this.notice(`PR comment skipped: ${res.reason}`);
    else
      core.info(
        `PR comment for ${what} ${res.action}${res.url ? `: ${res.url}` : ''}${res.note ? ` (${res.note})` : ''}`,
      );
  };

  private failed(what: string, err: unknown) {
    const reason = (err as Error).message;
    core.warning(`could not write the PR comment of ${what}: ${reason}`);
    if (this.octokit) noteUnposted(this.octokit, `the PR comment of ${what}`, reason);
  }

  /** Before the run: reads the pull request's comments and chooses the layout for `paths` packages. */
  async begin(paths: readonly string[]): Promise<void> {
    if (!this.active) return;
    this.layout ??= (async () => {
      const thread = await this.readThread().catch(() => undefined);
      const layout = chooseLayout(
        this.inputs.commentLayout,
        paths.length,
        thread?.comments ?? [],
        this.inputs.commentKey,
      );
      if (layout === 'combined' && this.inputs.commentLayout === 'auto')
        core.info(`${paths.length} package(s): one combined PR comment (comment-layout: auto)`);
      return layout;
    })();
    await this.layout;
  }

  /** Writes (or, under `changes`, maybe leaves out) the comment of one previewed package; `tree`: its git tree. */
  async onPreview(r: PackageRunResult, tree?: string): Promise<void> {
    if (!this.active || !r.preview) return;
    try {
      await this.begin([]);
      if ((await this.layout) === 'combined') {
        this.entries.set(r.path, { doc: r.preview, digest: planDigestOf(r, tree) });
        return;
      }
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
      this.failed(r.path, err);
    }
  }

  /**
   * After the run. Combined: writes the combined comment. Per package: updates the comments of this key
   * whose package the pull request no longer changes (`covered` holds every package this run handled);
   * only when the packages come from the change set: with an explicit `packages` list another package's
   * comment may belong to another job.
   */
  async finish(covered: readonly string[]): Promise<void> {
    if (!this.active) return;
    try {
      await this.begin(covered);
      const thread = await this.readThread();
      if (!thread) return;
      const key = this.inputs.commentKey;
      if ((await this.layout) === 'combined') {
        const order = new Map(covered.map((p, i) => [p, i]));
        const entries = [...this.entries.values()].sort(
          (a, b) => (order.get(a.doc.package) ?? 0) - (order.get(b.doc.package) ?? 0),
        );
        await writeCombinedPreview(
          this.octokit!,
          thread,
          {
            entries,
            key,
            onlyChanges: this.inputs.comment === 'changes',
            explicitPackages: this.inputs.packages.length > 0,
          },
          this.report,
        );
        return;
      }
      if (this.inputs.packages.length > 0) return;
      if (this.inputs.commentLayout === 'per-package')
        await retireCombinedPreview(this.octokit!, thread, key, this.report);
      await this.noLongerChanged(thread, covered);
    } catch (err) {
      this.failed('this pull request', err);
    }
  }

  private async noLongerChanged(thread: CommentThread, covered: readonly string[]): Promise<void> {
    const handled = new Set(covered);
    for (const c of [...thread.comments]) {
      const named = c.body ? parsePreviewMarker(c.body) : undefined;
      if (!named || named.key !== this.inputs.commentKey || handled.has(named.package)) continue;
      if (isMovedToCombined(c.body)) continue;
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
  }
}
