import type { DriftPackage } from '../drift/types.js';
import { renderCorrectionMarkdown } from './drift-correction.js';
import { driftCounts, driftObjectName, driftWords } from './drift-words.js';
import { cell, clip, code, escapeHtml, escapeText, fenced } from './markdown.js';
import { changeWords, displayPath } from './preview-words.js';

/** GitHub refuses an issue body above 65,536 characters; stay under it. */
const ISSUE_BODY_LIMIT = 60_000;

/**
 * The hidden line that names a drift issue's package (and comment key), so a later run finds and edits
 * it. `%` and `>` are percent-encoded, as in the preview marker, so a path cannot end the HTML comment.
 */
export function driftMarker(pkg: string, key?: string): string {
  const safe = (s: string) => s.replace(/[%>\r\n\s]/g, (ch) => encodeURIComponent(ch));
  return `<!-- kpt-live-action:drift package=${safe(pkg)}${key ? ` key=${safe(key)}` : ''} -->`;
}

/** The drift issue's title: `Drift: deploy/web` (`[prod]` added for a comment key). */
export function driftIssueTitle(pkg: string, key?: string): string {
  return `Drift: ${pkg}${key ? ` [${key}]` : ''}`;
}

/** A package's drift as markdown: a heading, a table of drifted objects, the fields that differ. */
export function renderDriftMarkdown(
  pkg: DriftPackage,
  opts: { namespace?: string; heading?: string } = {},
): string {
  const heading = opts.heading ?? `### Drift · ${code(pkg.path)}`;
  if (pkg.error) {
    return [heading, '', `:x: **Not checked**: ${escapeText(clip(pkg.error.split('\n')[0], 500))}`, ''].join(
      '\n',
    );
  }
  if (!pkg.drifted) return [heading, '', ':white_check_mark: **In sync** with the package.', ''].join('\n');
  const corrected = pkg.correction?.result === 'corrected';
  const lines = [
    heading,
    '',
    `${corrected ? ':white_check_mark:' : ':warning:'} **${pkg.objects.length} object(s) ${corrected ? 'differed' : 'differ'} from the package** (${driftCounts(pkg.objects)}).`,
    '',
    ...(pkg.correction ? [renderCorrectionMarkdown(pkg.correction), ''] : []),
    '| object | drift | details |',
    '|---|---|---|',
  ];
  for (const o of pkg.objects) {
    lines.push(
      `| ${cell(code(driftObjectName(o, opts.namespace)))} | ${o.drift} | ${cell(escapeText(clip(driftWords(o), 300)))} |`,
    );
  }
  const changed = pkg.objects.filter((o) => o.changes?.length);
  for (const o of changed) {
    const fields = (o.changes ?? []).map((c) => `${c.redacted ? displayPath(c) : c.path}: ${changeWords(c)}`);
    lines.push(
      '',
      `<details><summary>${escapeHtml(driftObjectName(o, opts.namespace))}: fields that differ (cluster → package)</summary>`,
      '',
      fenced(fields.join('\n')),
      '',
      '</details>',
    );
  }
  lines.push('');
  return lines.join('\n');
}

/** The drift issue's body: marker, the report, when and where it was checked. */
export function renderDriftIssueBody(
  pkg: DriftPackage,
  opts: { key?: string; namespace?: string; runUrl?: string; commit?: string; checkedAt: string },
): string {
  const where = [
    opts.commit ? `commit \`${opts.commit.slice(0, 12)}\`` : '',
    opts.runUrl ? `[workflow run](${opts.runUrl})` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const body = [
    driftMarker(pkg.path, opts.key),
    renderDriftMarkdown(pkg, {
      namespace: opts.namespace,
      heading: `### Drift · ${code(pkg.path)}${opts.key ? ` · ${code(opts.key)}` : ''}`,
    }),
    `Last checked ${opts.checkedAt}${where ? ` (${where})` : ''}. This issue is updated while the drift lasts and closed when the cluster matches the package again; \`kpt-live apply\` (or a deploy of the main branch) restores it.`,
    '',
  ].join('\n');
  return body.length <= ISSUE_BODY_LIMIT
    ? body
    : `${body.slice(0, ISSUE_BODY_LIMIT)}\n\n… (cut: see the job summary)\n`;
}
