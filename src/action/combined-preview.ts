import {
  type CombinedEntry,
  isMovedToCombined,
  movedToCombinedBody,
  renderCombinedComment,
  replacedByPerPackageBody,
  unusedPartBody,
} from '../report/combined-comment.js';
import { combinedMarker, packageSection, sectionPackages } from '../report/combined-sections.js';
import { parsePreviewMarker, previewMarker } from '../report/preview-markdown.js';
import { hasChanges } from '../report/preview-words.js';
import {
  type CommentThread,
  type GitHubClient,
  pickMarkedComment,
  type UpsertCommentResult,
  writeMarkedComment,
} from './github/index.js';
import { combinedParts } from './reviewed-plan.js';

/** Tells the log (and the run's notices) what happened to one comment. */
export type CommentReport = (what: string, res: UpsertCommentResult) => void;

export interface CombinedPreviewInput {
  entries: readonly CombinedEntry[];
  key: string;
  /** `comment: changes`: no comment at all while nothing changes and none was written before. */
  onlyChanges: boolean;
  /**
   * The run previewed an explicit `packages` list: sections of other packages (another job's) are kept as
   * they are; otherwise a package the pull request no longer changes is named as such and its section goes.
   */
  explicitPackages: boolean;
}

/**
 * Writes the combined preview comment of one pull request and key: its parts edited in place (created
 * when missing), parts an earlier, longer comment left marked unused, and our per-package comments of
 * this key edited to point to it. Writes go one at a time (the request policy spaces them).
 */
export async function writeCombinedPreview(
  octokit: GitHubClient,
  thread: CommentThread,
  input: CombinedPreviewInput,
  report: CommentReport,
): Promise<void> {
  const { key } = input;
  const existing = combinedParts(thread.comments, key);
  const previewed = new Set(input.entries.map((e) => e.doc.package));
  if (input.onlyChanges && existing.size === 0 && !input.entries.some((e) => hasChanges(e.doc.summary)))
    return;
  const earlier = [...existing.values()].flatMap((c) => sectionPackages(c.body ?? ''));
  const others = [...new Set(earlier)].filter((p) => !previewed.has(p));
  const carried = input.explicitPackages
    ? others.map((p) => ({
        package: p,
        inner:
          [...existing.values()].map((c) => packageSection(c.body ?? '', p)).find((s) => s !== undefined) ??
          '',
      }))
    : [];
  const parts = renderCombinedComment(input.entries, {
    commentKey: key,
    carried,
    noLongerChanged: input.explicitPackages ? [] : others,
  });
  const urls: (string | undefined)[] = [];
  for (const [i, body] of parts.entries()) {
    const res = await writeMarkedComment(octokit, thread, combinedMarker(i + 1, key), body);
    report(`combined preview (part ${i + 1} of ${parts.length})`, res);
    if (res.action === 'skipped') return;
    urls.push(res.url);
  }
  for (const [n, c] of existing) {
    if (n <= parts.length || c.body === unusedPartBody(n, key)) continue;
    report(
      `combined preview (unused part ${n})`,
      await writeMarkedComment(octokit, thread, combinedMarker(n, key), unusedPartBody(n, key)),
    );
  }
  // per-package comments of this key from the per-package layout now point to the part holding them
  const partOf = (pkg: string) => parts.findIndex((body) => packageSection(body, pkg) !== undefined);
  const moved = new Set<string>();
  for (const c of [...thread.comments]) {
    const named = c.body ? parsePreviewMarker(c.body) : undefined;
    if (!named || named.key !== key || moved.has(named.package)) continue;
    if (input.explicitPackages && !previewed.has(named.package)) continue;
    const marker = previewMarker(named.package, key);
    moved.add(named.package);
    if (isMovedToCombined(pickMarkedComment(thread.comments, marker)?.body)) continue;
    const i = partOf(named.package);
    report(
      `comment of ${named.package} (moved to the combined preview)`,
      await writeMarkedComment(
        octokit,
        thread,
        marker,
        movedToCombinedBody(marker, named.package, urls[i < 0 ? 0 : i]),
      ),
    );
  }
}

/**
 * Under `comment-layout: per-package`, our combined comment of this key (an earlier run's) says it is no
 * longer updated: its digests go, so only the per-package comments are read as the reviewed plans.
 */
export async function retireCombinedPreview(
  octokit: GitHubClient,
  thread: CommentThread,
  key: string,
  report: CommentReport,
): Promise<void> {
  for (const [n, c] of combinedParts(thread.comments, key)) {
    const body = replacedByPerPackageBody(n, key);
    if (c.body === body) continue;
    report(
      `combined preview (part ${n}, replaced by per-package comments)`,
      await writeMarkedComment(octokit, thread, combinedMarker(n, key), body),
    );
  }
}
