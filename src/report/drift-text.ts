import { idKey } from '../common/object-id.js';
import type { DriftPackage } from '../drift/types.js';
import type { PreviewDocument } from '../preview/types.js';
import { DRIFT_SYMBOL, driftCounts, driftObjectName, driftWords } from './drift-words.js';
import { changeWords, displayPath } from './preview-words.js';

/**
 * `kpt-live drift` on a terminal: one line per drifted object, the fields that differ (cluster → package,
 * Secret values hidden) and, for a changed object, the preview's redacted YAML diff.
 */
export function renderDriftText(
  pkg: DriftPackage,
  opts: { preview?: PreviewDocument; namespace?: string; diffs?: boolean; correcting?: boolean } = {},
): string {
  if (pkg.error) return `Drift of ${pkg.path}: not checked (${pkg.error.split('\n')[0]})\n`;
  if (!pkg.drifted) return `Drift of ${pkg.path}: in sync\n`;
  const diffs = new Map((opts.preview?.objects ?? []).map((o) => [idKey(o.id), o.diff]));
  const names = pkg.objects.map((o) => driftObjectName(o, opts.namespace));
  const width = Math.min(50, Math.max(...names.map((n) => n.length)));
  const lines = [
    `Drift of ${pkg.path}: ${pkg.objects.length} object(s) differ from the package (${driftCounts(pkg.objects)})`,
    '',
  ];
  for (const [i, o] of pkg.objects.entries()) {
    lines.push(`${DRIFT_SYMBOL[o.drift]} ${names[i].padEnd(width)}  ${o.drift}: ${driftWords(o)}`);
    for (const c of o.changes ?? []) {
      lines.push(`    ${c.redacted ? displayPath(c) : c.path} ${changeWords(c)}`);
    }
    const diff = o.drift === 'configure' && opts.diffs !== false ? diffs.get(idKey(o.id)) : undefined;
    if (diff) for (const line of diff.split('\n')) lines.push(`    ${line}`);
  }
  lines.push(
    '',
    opts.correcting
      ? 'Field values read "cluster → package"; drift correction follows.'
      : 'Field values read "cluster → package"; `kpt-live apply` would restore the package.',
  );
  return `${lines.join('\n')}\n`;
}
