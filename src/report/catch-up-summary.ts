import { cell, code, escapeText } from './markdown.js';

type Listed = { path: string; reason: string };

/** What a catch-up apply decided, before it runs anything. */
export interface CatchUpSummaryInput {
  /** The commit applied. */
  head: string;
  run: (Listed & { removed?: boolean })[];
  held: Listed[];
  upToDate: Listed[];
  skipped: Listed[];
}

/** Above this many, the up-to-date packages are folded away. */
const UP_TO_DATE_SHOWN = 20;

/**
 * The job summary section that says, per package, why an apply runs it (or does not): changed since
 * the commit last applied, touched by the push, added since the watermark, deleted; held after a failed
 * tree; up to date; not applied and why.
 */
export function renderCatchUpSummary(s: CatchUpSummaryInput): string {
  const lines = [`### Packages to apply · ${code(s.head.slice(0, 7))}`, ''];
  if (s.run.length === 0) lines.push('Nothing to apply: the cluster already runs this commit.', '');
  else {
    lines.push('| package | why it runs |', '|---|---|');
    for (const r of s.run)
      lines.push(`| ${cell(code(r.path))}${r.removed ? ' (deleted)' : ''} | ${cell(escapeText(r.reason))} |`);
    lines.push('');
  }
  if (s.held.length > 0) {
    lines.push('**Held** (a failed tree is not retried):', '');
    for (const h of s.held) lines.push(`- ${code(h.path)}: ${escapeText(h.reason)}`);
    lines.push('');
  }
  if (s.skipped.length > 0) {
    lines.push('**Not applied**:', '');
    for (const h of s.skipped) lines.push(`- ${code(h.path)}: ${escapeText(h.reason)}`);
    lines.push('');
  }
  if (s.upToDate.length > 0) {
    const items = s.upToDate.map((u) => `${code(u.path)} (${escapeText(u.reason)})`);
    if (items.length <= UP_TO_DATE_SHOWN) lines.push(`**Up to date**: ${items.join(', ')}`, '');
    else
      lines.push(
        '<details><summary>',
        `${items.length} packages up to date`,
        '</summary>',
        '',
        items.map((i) => `- ${i}`).join('\n'),
        '',
        '</details>',
        '',
      );
  }
  return `${lines.join('\n')}\n`;
}

/** The same as log lines: one per package. */
export function catchUpLogLines(s: CatchUpSummaryInput): string[] {
  return [
    ...s.run.map((r) => `${r.path}: runs: ${r.reason}`),
    ...s.upToDate.map((r) => `${r.path}: up to date: ${r.reason}`),
    ...s.skipped.map((r) => `${r.path}: not applied: ${r.reason}`),
  ];
}
