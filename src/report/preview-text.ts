import { formatDuration } from '../common/duration.js';
import type { PreviewAction, PreviewDocument } from '../preview/types.js';
import { onFailureWords } from './on-failure-words.js';
import {
  actionWords,
  changeWords,
  countPhrases,
  displayPath,
  hasChanges,
  listedObjects,
  objectName,
} from './preview-words.js';

/** `kpt-live preview` on a terminal: one line per object that changes, its fields, then its diff. */

export interface PreviewTextOptions {
  /** Print each object's YAML diff under it; default true. */
  diffs?: boolean;
  /** ANSI colours (the CLI turns them on for a TTY); default false. */
  color?: boolean;
}

const SYMBOL: Record<PreviewAction, string> = {
  create: '+',
  configure: '~',
  replace: '±',
  prune: '-',
  orphan: '-',
  skip: '!',
  error: 'x',
  unchanged: ' ',
};

const ANSI = {
  red: '\u001b[31m',
  green: '\u001b[32m',
  yellow: '\u001b[33m',
  dim: '\u001b[2m',
  reset: '\u001b[0m',
};
type Colour = keyof typeof ANSI;

const ACTION_COLOUR: Record<PreviewAction, Colour> = {
  create: 'green',
  configure: 'yellow',
  replace: 'yellow',
  prune: 'red',
  orphan: 'yellow',
  skip: 'yellow',
  error: 'red',
  unchanged: 'dim',
};

/**
 * The preview as plain text for a terminal or a log. Same content as the PR comment without the markup,
 * and never shortened: a terminal has no size limit.
 */
export function renderPreviewText(doc: PreviewDocument, opts: PreviewTextOptions = {}): string {
  const paint = (colour: Colour, text: string) => (opts.color ? `${ANSI[colour]}${text}${ANSI.reset}` : text);
  const where = [
    doc.context.cluster && `cluster ${doc.context.cluster}`,
    doc.context.namespace && `namespace ${doc.context.namespace}`,
  ]
    .filter(Boolean)
    .join(', ');
  const title = `Preview of ${doc.package}${where ? ` (${where})` : ''}`;
  if (!hasChanges(doc.summary)) {
    const n = doc.summary.unchanged;
    return `${title}: no changes${n > 0 ? ` (${n} unchanged)` : ''}\n`;
  }
  const lines = [title, countPhrases(doc.summary).join(', '), ''];
  const objects = listedObjects(doc);
  const width = Math.min(50, Math.max(...objects.map((obj) => objectName(obj, doc).length)));
  for (const obj of objects) {
    const colour = ACTION_COLOUR[obj.action];
    const name = objectName(obj, doc).padEnd(width);
    lines.push(paint(colour, `${SYMBOL[obj.action]} ${name}  ${actionWords(obj)}`));
    for (const change of obj.changes ?? []) {
      const path = change.redacted ? displayPath(change) : change.path;
      lines.push(`    ${path} ${changeWords(change)}`);
    }
    for (const note of obj.ownership ?? []) lines.push(`    owner: ${note}`);
    if (opts.diffs !== false && obj.diff) {
      const source = obj.source ? `  ${obj.source.file}:${obj.source.line}` : '';
      lines.push(paint('dim', `    --- ${objectName(obj, doc)} (${obj.apiVersion})${source}`));
      for (const line of obj.diff.split('\n')) {
        const colour: Colour | undefined = line.startsWith('+')
          ? 'green'
          : line.startsWith('-')
            ? 'red'
            : undefined;
        lines.push(colour ? paint(colour, `    ${line}`) : `    ${line}`);
      }
    }
  }
  if (doc.onFailure) lines.push('', onFailureWords(doc.onFailure, 'text'));
  const c = doc.context;
  const footer = [`field manager ${c.fieldManager}`];
  if (c.commit) footer.unshift(`at ${c.commit.slice(0, 7)}`);
  if (c.durationMs !== undefined) footer.push(formatDuration(c.durationMs));
  lines.push('', paint('dim', `Server-side dry-run ${footer.join(', ')}`));
  return `${lines.join('\n')}\n`;
}
