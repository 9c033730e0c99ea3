import type { RunOutcome } from '../common/run-outcome.js';
import type { PlanComparison } from '../preview/plan-digest.js';
import { clip, code, escapeText } from './markdown.js';
import { planDigestText, withoutPlanDigest } from './plan-digest-marker.js';
import { GITHUB_COMMENT_LIMIT, previewMarker } from './preview-markdown.js';

/**
 * The parts of a package's PR comment besides the preview itself: the "Applied" section added after the
 * merge, and the notes for a package the pull request no longer changes. Pure text in, text out.
 */

/** Starts the section the apply adds; everything from it on is replaced when the apply runs again. */
export const APPLIED_MARKER = '<!-- kpt-live-action:applied -->';

export interface AppliedInfo {
  package: string;
  outcome: RunOutcome;
  counts: {
    created: number;
    configured: number;
    unchanged: number;
    pruned: number;
    skipped: number;
    failed: number;
  };
  /** Objects that failed, timed out or were skipped for a failed dependency, with the reason. */
  failed: { name: string; reason: string }[];
  /** The fatal error of a run that stopped (pre-flight rejection, plan drift under `fail`, ...). */
  error?: string;
  commit: string;
  runUrl: string;
  /** The plan-drift comparison, when one was made and it found a difference. */
  drift?: PlanComparison;
  /** Names objects in the drift lines (`Deployment/web`) from their idKey. */
  nameOf?: (key: string) => string;
  /** What the failed apply's rollback did, as one markdown line (rollbackMarkdownLine), and how it ended. */
  rollback?: { markdown: string; status: 'rolled-back' | 'failed' | 'skipped' };
}

/** Failed objects listed; the rest are counted (the job summary has every one). */
const MAX_FAILED = 30;
const MAX_REASON = 300;

function outcomeLine(a: AppliedInfo): string {
  const icon = a.outcome === 'success' ? '✅' : '❌';
  const word =
    a.outcome === 'success' ? 'applied' : a.outcome === 'failed' ? 'applied with failures' : 'not applied';
  return `### Applied · ${code(a.package)} · ${icon} ${word}`;
}

function countsLine(a: AppliedInfo): string {
  const c = a.counts;
  const parts = [
    c.created && `${c.created} created`,
    c.configured && `${c.configured} configured`,
    c.pruned && `${c.pruned} pruned`,
    c.skipped && `${c.skipped} skipped`,
    c.failed && `${c.failed} failed`,
    c.unchanged && `${c.unchanged} unchanged`,
  ].filter(Boolean);
  return `**${parts.join(' · ') || 'nothing to do'}**`;
}

export function renderAppliedSection(a: AppliedInfo): string {
  const lines = [APPLIED_MARKER, outcomeLine(a), '', countsLine(a)];
  if (a.error) lines.push('', `❌ ${escapeText(clip(a.error, 1000))}`);
  if (a.failed.length > 0) {
    lines.push('');
    for (const f of a.failed.slice(0, MAX_FAILED))
      lines.push(`- ❌ ${code(f.name)}: ${escapeText(clip(f.reason, MAX_REASON))}`);
    if (a.failed.length > MAX_FAILED)
      lines.push(`- … and ${a.failed.length - MAX_FAILED} more (see the run)`);
  }
  if (a.rollback) {
    const icon = a.rollback.status === 'rolled-back' ? '↩️' : a.rollback.status === 'failed' ? '❌' : '⚠️';
    lines.push('', `${icon} ${a.rollback.markdown}`);
  }
  if (a.drift && !a.drift.same) lines.push('', ...driftLines(a.drift, a.nameOf));
  const run = encodeURI(a.runUrl).replace(/[()]/g, encodeURIComponent);
  lines.push('', `<sub>Applied at ${code(a.commit.slice(0, 7))} · [run](${run})</sub>`);
  return `${lines.join('\n')}\n`;
}

/** The plan-drift finding as markdown lines (PR comment and job summary). */
export function driftLines(c: PlanComparison, nameOf: (key: string) => string = (k) => k): string[] {
  const lines = ['⚠️ **The plan changed since this pull request was reviewed:**'];
  for (const d of c.differences.slice(0, MAX_FAILED)) {
    const what = d.changesDiffer
      ? `${d.now}, with other changes than reviewed`
      : `reviewed ${d.reviewed}, now ${d.now}`;
    lines.push(`- ${code(nameOf(d.key))}: ${what}`);
  }
  if (c.differences.length > MAX_FAILED) lines.push(`- … and ${c.differences.length - MAX_FAILED} more`);
  if (c.note) lines.push(`- ${escapeText(c.note)}`);
  return lines;
}

/** The comment's text before the Applied section (the preview part), without a trailing separator. */
export function previewPart(body: string): string {
  const at = body.indexOf(APPLIED_MARKER);
  const head = at < 0 ? body : body.slice(0, at);
  return head.replace(/\n+---\n*$/, '').trimEnd();
}

/**
 * The comment with `section` as its Applied section (replacing an earlier one), under `limit`. When it
 * does not fit, the preview part gives way: it keeps its first lines (marker, headline, counts) and says
 * the rest was cut; the section itself is bounded (30 failures, 300 characters each).
 */
export function withAppliedSection(
  body: string | undefined,
  section: string,
  opts: { package: string; commentKey: string; limit?: number },
): string {
  const limit = opts.limit ?? GITHUB_COMMENT_LIMIT;
  const marker = previewMarker(opts.package, opts.commentKey);
  const preview = body ? previewPart(body) : marker;
  const join = (head: string) => (head === marker ? `${marker}\n${section}` : `${head}\n\n---\n${section}`);
  const full = join(preview);
  if (full.length <= limit) return full;
  const digest = planDigestText(preview);
  const kept = withoutPlanDigest(preview).split('\n').slice(0, 4).join('\n').trimEnd();
  const note =
    '\n\n> ✂️ The preview was cut to make room for the apply result; the preview run has the full text.';
  const shortened = join(`${clip(kept, 2000)}${note}${digest ? `\n${digest}` : ''}`);
  return shortened.length <= limit ? shortened : clip(join(marker), limit);
}

/**
 * The comment of a package the pull request no longer changes: says so first, keeps the earlier preview
 * (folded, without its plan digest: there is nothing left to apply from this pull request).
 */
export function noLongerChangedBody(
  body: string,
  opts: { package: string; commentKey: string; commit?: string; limit?: number },
): string {
  const limit = opts.limit ?? GITHUB_COMMENT_LIMIT;
  const marker = previewMarker(opts.package, opts.commentKey);
  const at = opts.commit ? ` as of ${code(opts.commit.slice(0, 7))}` : '';
  const head = `${marker}\n**No longer changed by this pull request** · ${code(opts.package)}${at}: merging it applies nothing to this package.`;
  const earlier = withoutPlanDigest(previewPart(body).replace(marker, '').trim());
  const open = '\n\n<details><summary>Earlier preview</summary>\n\n';
  const close = '\n</details>\n';
  const room = limit - head.length - open.length - close.length;
  if (!earlier || room < 200) return `${head}\n`;
  const folded =
    earlier.length <= room ? earlier : `*The earlier preview was too long to keep here; its run has it.*`;
  return `${head}${open}${folded}${close}`;
}

/** True when the body already says the package is no longer changed (nothing to update). */
export function isNoLongerChanged(body: string): boolean {
  return body.includes('**No longer changed by this pull request**');
}
