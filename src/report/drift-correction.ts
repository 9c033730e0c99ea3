import type { DriftCorrection } from '../drift/correction.js';
import type { DriftObject, DriftPackage } from '../drift/types.js';
import { driftObjectName } from './drift-words.js';
import { clip, code, escapeText } from './markdown.js';
import { changeWords, displayPath } from './preview-words.js';

/** Drift correction in words: the CLI's lines, the job summary, the drift issue and its closing comment. */

const COUNT_ORDER = ['configured', 'created', 'pruned', 'unchanged', 'skipped', 'failed'];

/** `1 configured, 1 created, 2 unchanged` from an apply's counts (zeros left out). */
export function correctionCounts(summary: Record<string, number> | undefined): string {
  return COUNT_ORDER.filter((k) => (summary?.[k] ?? 0) > 0)
    .map((k) => `${summary?.[k]} ${k}`)
    .join(', ');
}

/** The verdict and its detail: `corrected` / `re-applied (1 configured)`, `held, not corrected` / why, ... */
function correctionParts(c: DriftCorrection): { head: string; detail: string } {
  switch (c.result) {
    case 'corrected': {
      const counts = correctionCounts(c.summary);
      return { head: 'corrected', detail: `re-applied${counts ? ` (${counts})` : ''}` };
    }
    case 'failed':
      return { head: 'correction failed', detail: c.reason ?? 'the apply failed' };
    case 'held':
      return { head: 'held, not corrected', detail: c.reason ?? 'its last apply failed' };
    case 'skipped':
    case 'left':
      return { head: 'not corrected', detail: c.reason ?? c.result };
  }
}

/** One line: `corrected: re-applied (1 configured, 2 unchanged)`, `held, not corrected: <why>`, ... */
export function correctionWords(c: DriftCorrection): string {
  const { head, detail } = correctionParts(c);
  return `${head}: ${detail.split('\n')[0]}`;
}

/** The whole verdict, with every line of the reason (a pre-flight refusal lists each object and its fix). */
export function correctionMessage(c: DriftCorrection): string {
  const { head, detail } = correctionParts(c);
  return `${head}: ${detail}`;
}

/** The CLI's lines for a package's correction: the verdict, then each object that failed. */
export function renderCorrectionText(path: string, c: DriftCorrection): string {
  const lines = [`${path}: ${correctionWords(c)}`, ...(c.failed ?? []).map((f) => `  ${f}`)];
  return `${lines.join('\n')}\n`;
}

const ICON: Record<DriftCorrection['result'], string> = {
  corrected: ':wrench:',
  failed: ':x:',
  skipped: ':fast_forward:',
  held: ':pause_button:',
  left: ':eyes:',
};

/** The correction as a markdown paragraph (the job summary's drift section, the drift issue's body). */
export function renderCorrectionMarkdown(c: DriftCorrection): string {
  const { head, detail } = correctionParts(c);
  const title = `${head[0].toUpperCase()}${head.slice(1)}`;
  const [first, ...more] = detail.split('\n').filter((l) => l.trim() !== '');
  const lines = [`${ICON[c.result]} **${title}**: ${escapeText(clip(first ?? '', 600))}`];
  for (const l of more.slice(0, 20)) lines.push(`- ${escapeText(clip(l.replace(/^\s*-\s*/, ''), 600))}`);
  for (const f of (c.failed ?? []).slice(0, 20)) lines.push(`- ${escapeText(clip(f, 300))}`);
  if ((c.failed?.length ?? 0) > 20) lines.push(`- … and ${(c.failed?.length ?? 0) - 20} more`);
  return lines.join('\n');
}

/** Hand-edit managers named in a configure drift's message (`... reverts an edit by kubectl-patch`). */
function editors(message: string | undefined): string[] {
  const names = [...(message ?? '').matchAll(/reverts an edit by ([^\s;,]+)/g)].map((m) => m[1]);
  return [...new Set(names)];
}

/** What re-applying did to one drifted object, in words (Secret values are never in `changes`). */
function revertedWords(o: DriftObject): string {
  switch (o.drift) {
    case 'create':
      return 'created again (it was missing from the cluster)';
    case 'prune':
      return 'pruned (no longer in the package)';
    case 'status':
      return `re-applied; it was ${o.status ?? 'not Current'}`;
    case 'configure': {
      const fields = (o.changes ?? []).map(
        (c) => `${code(c.redacted ? displayPath(c) : c.path)} ${escapeText(changeWords(c))}`,
      );
      const by = editors(o.message);
      const who = by.length > 0 ? ` (an edit by ${by.map((m) => code(m)).join(', ')})` : '';
      return `${fields.length > 0 ? fields.join('; ') : 'set back to the package'}${who}`;
    }
  }
}

/** One markdown bullet per drifted object: what the correction set back. */
export function revertedLines(objects: readonly DriftObject[], namespace?: string): string[] {
  return objects.map((o) => `- ${code(driftObjectName(o, namespace))}: ${revertedWords(o)}`);
}

/**
 * The comment that closes a corrected package's drift issue: what was reverted (objects and fields, values
 * as the drift report shows them: never a Secret's), where and when.
 */
export function renderCorrectedComment(
  pkg: DriftPackage,
  opts: { namespace?: string; runUrl?: string; commit?: string; at: string },
): string {
  const where = [
    opts.runUrl ? `in ${opts.runUrl}` : '',
    opts.commit ? `from commit \`${opts.commit.slice(0, 12)}\`` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const counts = correctionCounts(pkg.correction?.summary);
  const lines = revertedLines(pkg.objects, opts.namespace);
  const shown = lines.slice(0, 100);
  if (lines.length > shown.length) shown.push(`- … and ${lines.length - shown.length} more (see the run)`);
  return [
    `Corrected: drift correction re-applied ${code(pkg.path)} ${where ? `${where} ` : ''}at ${opts.at}${counts ? ` (${counts})` : ''}. Reverted:`,
    '',
    ...shown,
    '',
    'The cluster matches the package again. Closing.',
  ].join('\n');
}
