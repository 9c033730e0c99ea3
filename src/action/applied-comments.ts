import { isMovedToCombined } from '../report/combined-comment.js';
import {
  combinedMarker,
  packageSection,
  replaceSection,
  sectionPreview,
  withSectionApplied,
} from '../report/combined-sections.js';
import { clip } from '../report/markdown.js';
import { planDigestText } from '../report/plan-digest-marker.js';
import { APPLIED_MARKER, withAppliedSection } from '../report/pr-comment-body.js';
import { GITHUB_COMMENT_LIMIT, previewMarker } from '../report/preview-markdown.js';
import { chooseLayout } from './comment-layout.js';
import {
  type CommentThread,
  type GitHubClient,
  pickMarkedComment,
  type UpsertCommentResult,
  writeMarkedComment,
} from './github/index.js';
import type { ActionInputs } from './inputs.js';
import { combinedPartOf, combinedParts } from './reviewed-plan.js';

type Inputs = Pick<ActionInputs, 'comment' | 'commentKey' | 'commentLayout'>;

/** A combined part with Applied sections waiting to be written (one edit per part, not per package). */
interface PendingPart {
  thread: CommentThread;
  part: number;
  body: string;
  packages: Set<string>;
}

/** What became of one package's Applied section on one pull request. */
export type AppliedPost =
  | { action: 'written'; res: UpsertCommentResult }
  | { action: 'queued' }
  | { action: 'none' };

/**
 * The "Applied" section of a package on a merged pull request, in whichever layout the preview used:
 * the package's own comment (edited at once), or its section of the combined comment (collected, then
 * one edit per part in `flush`, since a monorepo merge may apply hundreds of packages). Where the pull
 * request has no comment for the package, one is made in the layout `comment-layout` chooses for the
 * run's package count (none under `comment: never`).
 */
export class AppliedComments {
  private readonly pending = new Map<string, PendingPart>();

  constructor(
    private readonly inputs: Inputs,
    private readonly octokit: GitHubClient,
  ) {}

  async post(
    thread: CommentThread,
    pkg: string,
    section: string,
    packageCount: number,
  ): Promise<AppliedPost> {
    const key = this.inputs.commentKey;
    const marker = previewMarker(pkg, key);
    const own = pickMarkedComment(thread.comments, marker);
    const ownLive = own && !isMovedToCombined(own.body);
    const part = combinedPartOf(thread.comments, pkg, key);
    if (ownLive || (!part && !own)) {
      const layout = ownLive
        ? 'per-package'
        : chooseLayout(this.inputs.commentLayout, packageCount, thread.comments, key);
      if (!ownLive && this.inputs.comment === 'never') return { action: 'none' };
      if (layout === 'per-package') {
        const body = withAppliedSection(own?.body ?? undefined, section, { package: pkg, commentKey: key });
        return { action: 'written', res: await writeMarkedComment(this.octokit, thread, marker, body) };
      }
    }
    // the combined comment: the part holding the package, else the last part (made when there is none)
    const parts = combinedParts(thread.comments, key);
    const n = part ? Number([...parts].find(([, c]) => c === part)?.[0]) : Math.max(1, ...parts.keys());
    const id = `${thread.issueNumber}#${n}`;
    const pending = this.pending.get(id) ?? {
      thread,
      part: n,
      body: parts.get(n)?.body ?? `${combinedMarker(n, key)}\n### Applied`,
      packages: new Set<string>(),
    };
    const inner = packageSection(pending.body, pkg) ?? '';
    pending.body = replaceSection(pending.body, pkg, withSectionApplied(inner, section));
    pending.packages.add(pkg);
    this.pending.set(id, pending);
    return { action: 'queued' };
  }

  /** Writes the collected combined parts; `report` hears of each. */
  async flush(report: (pull: number, packages: string[], res: UpsertCommentResult) => void): Promise<void> {
    const parts = [...this.pending.values()];
    this.pending.clear();
    for (const p of parts) {
      const body = fitPart(p.body, p.packages);
      const res = await writeMarkedComment(
        this.octokit,
        p.thread,
        combinedMarker(p.part, this.inputs.commentKey),
        body,
      );
      report(p.thread.issueNumber, [...p.packages], res);
    }
  }
}

/**
 * A combined part under GitHub's limit: the previews of the packages that got an Applied section give
 * way first (their plan digest and Applied section stay), then the part is cut.
 */
export function fitPart(body: string, applied: Iterable<string>, limit = GITHUB_COMMENT_LIMIT): string {
  let out = body;
  for (const pkg of applied) {
    if (out.length <= limit) return out;
    const inner = packageSection(out, pkg);
    if (inner === undefined) continue;
    const preview = sectionPreview(inner);
    const digest = planDigestText(preview);
    const rest = inner.slice(inner.indexOf(APPLIED_MARKER));
    const note = '*The preview was cut to make room for the apply result; the preview run has it.*';
    out = replaceSection(out, pkg, `${note}${digest ? `\n${digest}` : ''}\n\n${rest}`);
  }
  return out.length <= limit ? out : clip(out, limit);
}
