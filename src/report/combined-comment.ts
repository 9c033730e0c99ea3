import type { PreviewDocument, PreviewSummary } from '../preview/types.js';
import { combinedMarker, wrapSection } from './combined-sections.js';
import { cell, code, escapeHtml } from './markdown.js';
import { GITHUB_COMMENT_LIMIT, renderPreviewMarkdown } from './preview-markdown.js';
import { countPhrases, hasChanges } from './preview-words.js';

/**
 * The combined preview comment: one comment per pull request (and `comment-key`) for a change that
 * touches many packages, instead of one comment each. Part 1 holds the headline and a table of every
 * package; then each package's section (its preview folded in `<details>`, and its plan digest). The
 * sections fill part 1, then further comments (parts 2, 3, ...) only when one comment cannot hold them
 * (GitHub's 65,536 characters). Past MAX_PARTS parts the diffs are shortened instead of adding parts.
 */

/** One previewed package: its document and its rendered plan digest (a hidden HTML comment). */
export interface CombinedEntry {
  doc: PreviewDocument;
  digest: string;
}

/** A section kept from an earlier comment (a package this run did not preview), with its table line. */
export interface CarriedSection {
  package: string;
  /** The section's inner text, as found. */
  inner: string;
}

export interface CombinedOptions {
  commentKey?: string;
  /** Longest part; default GitHub's comment limit. */
  limit?: number;
  /** Parts tried before diffs are shortened; default MAX_PARTS. */
  maxParts?: number;
  carried?: readonly CarriedSection[];
  /** Packages an earlier comment previewed that this pull request no longer changes. */
  noLongerChanged?: readonly string[];
}

/** More parts than this and the diffs are shortened to fit (a reader will not page through more). */
export const MAX_PARTS = 10;
/** Room kept in each part for its marker line, headline and footer. */
const PART_RESERVE = 600;
/** The smallest room a section's preview is given before it is left at counts only. */
const MIN_SECTION = 1500;

function sumSummaries(
  docs: readonly PreviewDocument[],
): Omit<PreviewSummary, 'blocked'> & { blocked: number } {
  const total = { ...docs[0].summary };
  for (const d of docs.slice(1))
    for (const k of Object.keys(total) as (keyof PreviewSummary)[]) total[k] += d.summary[k];
  return total;
}

function packageIcon(s: PreviewSummary): string {
  if (s.error > 0) return s.blocked === s.error ? '⛔' : '❌';
  return hasChanges(s) ? '✏️' : '·';
}

const countsText = (s: PreviewSummary) => countPhrases(s).join(' · ') || 'no objects';

function sectionOf(e: CombinedEntry, budget: number, opts: CombinedOptions): string {
  const s = e.doc.summary;
  if (!hasChanges(s)) return wrapSection(e.doc.package, e.digest);
  const summary = `<summary>${packageIcon(s)} <code>${escapeHtml(e.doc.package)}</code> · ${escapeHtml(countsText(s))}</summary>`;
  const room = Math.max(MIN_SECTION, budget - summary.length - e.digest.length - 200);
  const preview = renderPreviewMarkdown(e.doc, {
    marker: false,
    commentKey: opts.commentKey,
    maxLength: room,
    limitName: 'the combined comment',
  }).trim();
  return wrapSection(e.doc.package, `<details>${summary}\n\n${preview}\n</details>\n${e.digest}`);
}

/** The summary a carried section shows in its `<summary>` ('no changes' when it has none). */
function carriedWords(inner: string): string {
  const m = inner.match(/<summary>(?:\S+ )?<code>[^<]*<\/code> · (.*?)<\/summary>/);
  return m ? m[1] : 'no changes';
}

function table(entries: readonly CombinedEntry[], opts: CombinedOptions, limit: number): string[] {
  const rows = entries.map((e) => ({
    changed: hasChanges(e.doc.summary),
    line: `| ${packageIcon(e.doc.summary)} | ${cell(code(e.doc.package))} | ${cell(escapeHtml(hasChanges(e.doc.summary) ? countsText(e.doc.summary) : 'no changes'))} |`,
  }));
  for (const c of opts.carried ?? [])
    rows.push({
      changed: true,
      line: `| ↩️ | ${cell(code(c.package))} | ${cell(`${carriedWords(c.inner)} (from an earlier run)`)} |`,
    });
  let shown = rows;
  let more = '';
  if (rows.reduce((n, r) => n + r.line.length + 1, 0) > limit / 3) {
    shown = rows.filter((r) => r.changed);
    more = `\n*… and ${rows.length - shown.length} packages with no changes*`;
  }
  return ['| | package | what changes |', '|---|---|---|', ...shown.map((r) => r.line), more].filter(
    (l) => l !== '',
  );
}

function head(entries: readonly CombinedEntry[], opts: CombinedOptions, limit: number): string {
  const docs = entries.map((e) => e.doc);
  const n = docs.length + (opts.carried?.length ?? 0);
  const cluster = docs[0]?.context.cluster;
  const lines = [
    `### Preview · ${n} package${n === 1 ? '' : 's'}${cluster ? ` → cluster ${code(cluster)}` : ''}`,
    '',
  ];
  if (docs.length > 0) {
    const changed = docs.filter((d) => hasChanges(d.summary)).length;
    const phrases = countPhrases(sumSummaries(docs));
    lines.push(
      `**${changed} with changes · ${docs.length - changed} with nothing to do**${phrases.length ? ` — ${phrases.join(' · ')}` : ''}`,
      '',
    );
  }
  lines.push(...table(entries, opts, limit));
  if (opts.noLongerChanged?.length)
    lines.push(
      '',
      `**No longer changed by this pull request** (merging it applies nothing to them): ${opts.noLongerChanged.map((p) => code(p)).join(', ')}`,
    );
  return lines.join('\n');
}

function footer(entries: readonly CombinedEntry[]): string {
  const c = entries[0]?.doc.context;
  if (!c) return '';
  const parts = [c.commit ? `Server-side dry-run at ${code(c.commit.slice(0, 7))}` : 'Server-side dry-run'];
  parts.push(`field manager ${code(c.fieldManager)}`);
  if (c.targetBranch) parts.push(`applies on merge to ${code(c.targetBranch)}`);
  if (c.runUrl) parts.push(`[run log](${encodeURI(c.runUrl).replace(/[()]/g, encodeURIComponent)})`);
  return `<sub>${parts.join(' · ')}</sub>`;
}

/** Packs sections into parts of at most `capacity` (the first part's capacity is smaller). */
function pack(sections: readonly string[], first: number, rest: number): string[][] {
  const parts: string[][] = [[]];
  let room = first;
  for (const s of sections) {
    const need = s.length + 2;
    if (need > room && parts[parts.length - 1].length > 0) {
      parts.push([]);
      room = rest;
    }
    parts[parts.length - 1].push(s);
    room -= need;
  }
  return parts;
}

/**
 * The combined comment's parts (part 1 first), each under `limit`. Sections appear in the order of
 * `entries`, carried ones after them.
 */
export function renderCombinedComment(
  entries: readonly CombinedEntry[],
  opts: CombinedOptions = {},
): string[] {
  const limit = opts.limit ?? GITHUB_COMMENT_LIMIT;
  const maxParts = opts.maxParts ?? MAX_PARTS;
  const key = opts.commentKey ?? '';
  const top = head(entries, opts, limit);
  const foot = footer(entries);
  const firstRoom = limit - PART_RESERVE - top.length - foot.length;
  const restRoom = limit - PART_RESERVE;
  const carried = (opts.carried ?? []).map((c) => wrapSection(c.package, c.inner));
  let budget = restRoom;
  let parts: string[][];
  for (;;) {
    const sections = [...entries.map((e) => sectionOf(e, budget, opts)), ...carried];
    parts = pack(sections, Math.max(0, firstRoom), restRoom);
    if (parts.length <= maxParts || budget <= MIN_SECTION) break;
    budget = Math.max(MIN_SECTION, Math.floor(budget / 2));
  }
  const total = parts.length;
  return parts.map((sections, i) => {
    const marker = combinedMarker(i + 1, key);
    const blocks =
      i === 0
        ? [
            `${marker}\n${top}${total > 1 ? `\n\n*Continued in ${total - 1} more comment${total > 2 ? 's' : ''} below: one comment holds at most 65,536 characters.*` : ''}`,
            ...sections,
            foot,
          ]
        : [`${marker}\n### Preview · continued (part ${i + 1} of ${total})`, ...sections, foot];
    return `${blocks.filter(Boolean).join('\n\n')}\n`;
  });
}

/** A part left over from an earlier, longer combined comment: kept (never deleted), saying it is unused. */
export function unusedPartBody(part: number, key = ''): string {
  return `${combinedMarker(part, key)}\n*This part of the combined preview is no longer needed: the preview above fits in fewer comments.*\n`;
}

/** The hidden line a per-package comment gets when its preview moved into the combined comment. */
export const MOVED_MARKER = '<!-- kpt-live-action:moved-to-combined -->';

/**
 * A per-package comment left from the per-package layout, edited to point to the combined comment that
 * now holds the package (its plan digest goes: the combined comment's section has the current one).
 */
export function movedToCombinedBody(marker: string, pkg: string, url?: string): string {
  const where = url
    ? `[the combined preview comment](${encodeURI(url).replace(/[()]/g, encodeURIComponent)})`
    : 'the combined preview comment';
  return `${marker}\n${MOVED_MARKER}\n**Moved** · the preview of ${code(pkg)} is now in ${where}, with every other package this pull request changes.\n`;
}

/** True for a per-package comment that points to the combined comment. */
export function isMovedToCombined(body: string | null | undefined): boolean {
  return body?.includes(MOVED_MARKER) === true;
}

/** A combined comment's part after the layout went back to one comment per package. */
export function replacedByPerPackageBody(part: number, key = ''): string {
  return `${combinedMarker(part, key)}\n*This pull request's previews are now one comment per package (comment-layout: per-package); this combined preview is no longer updated.*\n`;
}
