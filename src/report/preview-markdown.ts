import { formatDuration } from '../common/duration.js';
import type { PreviewDocument, PreviewObject } from '../preview/types.js';
import { cell, clip, code, escapeHtml, escapeText, fenced } from './markdown.js';
import { onFailureWords } from './on-failure-words.js';
import { renderWaveGraph } from './preview-mermaid.js';
import {
  ACTION_ICON,
  actionWords,
  BLOCKED_ICON,
  changeWords,
  countPhrases,
  displayPath,
  hasChanges,
  listedObjects,
  objectIcon,
  objectName,
} from './preview-words.js';

/** GitHub rejects issue and pull-request comments longer than this many characters. */
export const GITHUB_COMMENT_LIMIT = 65_536;

export interface PreviewMarkdownOptions {
  /** Longest body to produce; default GitHub's comment limit. */
  maxLength?: number;
  /** Start with `previewMarker(doc.package, commentKey)`; default true (the job summary leaves it out). */
  marker?: boolean;
  /** The action's `comment-key`, named in the marker (one comment per package and key). */
  commentKey?: string;
  /** Named in the note when something is cut; default "GitHub's comment limit". */
  limitName?: string;
  /** Where the reader finds what was cut; default the job summary (linked when the run URL is known). */
  fullTextHint?: string;
}

/** Longest diff line kept: one huge line (a certificate, a minified JSON) must not eat the whole comment. */
const MAX_DIFF_LINE = 400;
/** Problems (skips, errors) listed above the table; the table has the rest. */
const MAX_PROBLEMS = 20;
/** How the table sums up a configure: this many field changes, then "+N more". */
const MAX_FIELDS_IN_ROW = 3;
/** Diff lengths tried, longest first, before diffs are dropped altogether. */
const DIFF_CUTS = [200, 80, 30, 12];

/**
 * The hidden first line that names the package (and the `comment-key`, when set), so a later run finds and
 * edits this package's comment instead of adding another. `%` and `>` and line breaks are
 * percent-encoded in the package: a path can then never end the HTML comment (the action refuses keys
 * that could).
 */
export function previewMarker(pkg: string, key = ''): string {
  const safe = pkg.replace(/[%>\r\n]/g, (ch) => encodeURIComponent(ch));
  return `<!-- kpt-live-action:preview package=${safe}${key ? ` key=${key}` : ''} -->`;
}

/** The package and key a comment's first line names, if it starts with a preview marker. */
export function parsePreviewMarker(body: string): { package: string; key: string } | undefined {
  const first = body.trimStart().split('\n', 1)[0];
  const m = first.match(/^<!-- kpt-live-action:preview package=(.*?)(?: key=(.*))? -->$/);
  if (!m) return undefined;
  let pkg: string;
  try {
    pkg = decodeURIComponent(m[1]);
  } catch {
    pkg = m[1];
  }
  return { package: pkg, key: m[2] ?? '' };
}

interface Plan {
  /** Diff lines per object; Infinity for whole diffs. */
  diffLines: number;
  details: boolean;
  mermaid: boolean;
  /** Table rows; Infinity for every listed object. */
  rows: number;
  note?: string;
}

function headline(doc: PreviewDocument): string {
  const parts = [`### Preview · ${code(doc.package)}`];
  if (doc.context.cluster) parts[0] += ` → cluster ${code(doc.context.cluster)}`;
  if (doc.context.namespace) parts.push(`namespace ${code(doc.context.namespace)}`);
  return parts.join(' · ');
}

function countsLine(doc: PreviewDocument): string {
  const extras: string[] = [];
  const waves = doc.waves.filter((wave) => wave.length > 0).length;
  if (waves > 1) extras.push(`${waves} apply waves`);
  const unvalidated = doc.objects.filter((obj) => obj.validated === false).length;
  if (unvalidated > 0) extras.push(`${unvalidated} not validated by the server yet`);
  const counts = `**${countPhrases(doc.summary).join(' · ')}**`;
  return extras.length > 0 ? `${counts} — ${extras.join(', ')}` : counts;
}

function noChangesLine(doc: PreviewDocument): string {
  const where = doc.context.cluster ? ` → cluster ${code(doc.context.cluster)}` : '';
  const n = doc.summary.unchanged;
  const count = n === 0 ? 'no objects' : `${n} unchanged`;
  const at = doc.context.commit ? ` · at ${code(doc.context.commit.slice(0, 7))}` : '';
  return `**No changes** · ${code(doc.package)}${where} · ${count}${at}`;
}

function problemLines(doc: PreviewDocument, objects: PreviewObject[]): string[] {
  const problems = objects.filter((obj) => obj.action === 'skip' || obj.action === 'error');
  const lines = problems.slice(0, MAX_PROBLEMS).map((obj) => {
    const name = code(objectName(obj, doc));
    const why = escapeText(clip(obj.reason ?? 'no reason given', 500));
    if (obj.blocked) {
      const fix = escapeText(clip(obj.blocked.fix, 300));
      return `- ${BLOCKED_ICON} blocked ${name} (apply would not deploy it): ${why}. **Fix:** ${fix}`;
    }
    return obj.action === 'skip' ? `- ⚠️ skipped ${name}: ${why}` : `- ❌ ${name}: ${why}`;
  });
  if (problems.length > MAX_PROBLEMS) lines.push(`- … and ${problems.length - MAX_PROBLEMS} more`);
  return lines;
}

/** What apply does with the package's fields that another manager holds (hand edits, a previous owner). */
function ownershipLines(doc: PreviewDocument, objects: PreviewObject[]): string[] {
  const lines = objects.flatMap((obj) =>
    (obj.ownership ?? []).map((note) => `- ${code(objectName(obj, doc))} ${escapeText(clip(note, 300))}`),
  );
  return lines.length > MAX_PROBLEMS
    ? [...lines.slice(0, MAX_PROBLEMS), `- … and ${lines.length - MAX_PROBLEMS} more`]
    : lines;
}

function changeCell(obj: PreviewObject): string {
  const changes = obj.changes ?? [];
  if (obj.action !== 'configure' || changes.length === 0) return escapeText(clip(actionWords(obj), 200));
  const shown = changes
    .slice(0, MAX_FIELDS_IN_ROW)
    .map((c) => `${code(displayPath(c))} ${escapeText(changeWords(c))}`);
  const more = changes.length - MAX_FIELDS_IN_ROW;
  return more > 0 ? `${shown.join(', ')}, +${more} more` : shown.join(', ');
}

function table(doc: PreviewDocument, objects: PreviewObject[], rows: number): string[] {
  const lines = ['| | object | change |', '|---|---|---|'];
  for (const obj of objects.slice(0, rows)) {
    lines.push(`| ${objectIcon(obj)} | ${cell(code(objectName(obj, doc)))} | ${cell(changeCell(obj))} |`);
  }
  if (objects.length > rows) lines.push('', `*… and ${objects.length - rows} more objects not listed*`);
  return lines;
}

function detailsBlock(doc: PreviewDocument, obj: PreviewObject, maxLines: number): string[] {
  const where = obj.source ? ` · <code>${escapeHtml(`${obj.source.file}:${obj.source.line}`)}</code>` : '';
  const title = `${ACTION_ICON[obj.action]} ${escapeHtml(objectName(obj, doc))} (${escapeHtml(obj.apiVersion)})`;
  const all = (obj.diff ?? '').split('\n').map((line) => clip(line, MAX_DIFF_LINE));
  const shown = all.slice(0, maxLines);
  const lines = [`<details><summary>${title}${where}</summary>`, '', fenced(shown.join('\n'), 'diff')];
  if (all.length > shown.length) lines.push('', `*… ${all.length - shown.length} more lines not shown*`);
  lines.push('</details>');
  return lines;
}

function footer(doc: PreviewDocument): string {
  const c = doc.context;
  const parts = [c.commit ? `Server-side dry-run at ${code(c.commit.slice(0, 7))}` : 'Server-side dry-run'];
  parts.push(`field manager ${code(c.fieldManager)}`);
  if (c.durationMs !== undefined) parts.push(formatDuration(c.durationMs));
  if (c.targetBranch) parts.push(`applies on merge to ${code(c.targetBranch)}`);
  if (c.runUrl) parts.push(`[run log](${encodeURI(c.runUrl).replace(/[()]/g, encodeURIComponent)})`);
  return `<sub>${parts.join(' · ')}</sub>`;
}

function render(doc: PreviewDocument, plan: Plan, opts: PreviewMarkdownOptions): string {
  const top = opts.marker === false ? [] : [previewMarker(doc.package, opts.commentKey)];
  if (!hasChanges(doc.summary)) return [...top, noChangesLine(doc)].join('\n') + '\n';
  const objects = listedObjects(doc);
  const blocks: string[][] = [[...top, headline(doc)], [countsLine(doc)]];
  if (plan.note) blocks.push([`> ✂️ ${plan.note}`]);
  const problems = problemLines(doc, objects);
  if (problems.length > 0) blocks.push(problems);
  if (plan.rows > 0 && objects.length > 0) blocks.push(table(doc, objects, plan.rows));
  const owners = ownershipLines(doc, objects);
  if (owners.length > 0) blocks.push(['**Fields other managers hold**', '', ...owners]);
  if (doc.onFailure) blocks.push([onFailureWords(doc.onFailure, 'markdown')]);
  if (plan.details) {
    for (const obj of objects) if (obj.diff) blocks.push(detailsBlock(doc, obj, plan.diffLines));
  }
  const graph = plan.mermaid ? renderWaveGraph(doc) : undefined;
  if (graph)
    blocks.push(['<details><summary>Apply order</summary>', '', fenced(graph, 'mermaid'), '</details>']);
  blocks.push([footer(doc)]);
  return blocks.map((block) => block.join('\n')).join('\n\n') + '\n';
}

/**
 * The PR comment for one package's preview: marker, headline, counts, problems, a table of what changes,
 * a collapsible diff per object, the apply waves, and a footer saying what was compared. Unchanged objects
 * are counted, not listed. When the body would exceed `maxLength` it degrades step by step (shorter diffs,
 * no diffs, fewer rows, counts only) and says what it cut; code fences and `<details>` always stay whole.
 */
export function renderPreviewMarkdown(doc: PreviewDocument, opts: PreviewMarkdownOptions = {}): string {
  const max = opts.maxLength ?? GITHUB_COMMENT_LIMIT;
  const limit = opts.limitName ?? "GitHub's comment limit";
  const hint =
    opts.fullTextHint ??
    (doc.context.runUrl
      ? 'the full preview is in the job summary of the run linked below'
      : 'the full preview is in the job summary');
  const note = (what: string) => `${what} to fit ${limit}; ${hint}.`;
  const full: Plan = {
    diffLines: Number.POSITIVE_INFINITY,
    details: true,
    mermaid: true,
    rows: Number.POSITIVE_INFINITY,
  };
  const attempts: Plan[] = [
    full,
    ...DIFF_CUTS.map((n) => ({ ...full, diffLines: n, note: note('Diffs shortened') })),
    { ...full, details: false, mermaid: false, note: note('Diffs left out') },
  ];
  for (const plan of attempts) {
    const body = render(doc, plan, opts);
    if (body.length <= max) return body;
  }
  const total = listedObjects(doc).length;
  const withRows = (rows: number) =>
    render(
      doc,
      {
        ...full,
        details: false,
        mermaid: false,
        rows,
        note: note(`Diffs and ${total - rows} of ${total} objects left out`),
      },
      opts,
    );
  let lo = 1;
  let hi = total - 1;
  let best: string | undefined;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const body = withRows(mid);
    if (body.length <= max) {
      best = body;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return (
    best ??
    render(
      doc,
      { ...full, details: false, mermaid: false, rows: 0, note: note('The object list left out') },
      opts,
    )
  );
}
