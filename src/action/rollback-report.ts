import type { PackageRunResult } from '../pipeline/run-package.js';
import { scrub } from '../preview/redact.js';
import { renderRollbackSection, rollbackLine } from '../report/rollback-words.js';
import * as core from './toolkit.js';

/**
 * A package's rollback in the action's log (an annotation: an error when it failed, a warning when the
 * deploy was rolled back or left as the failure left it) and its job summary section ('' when there was
 * no rollback to tell of).
 */
export function reportRollback(r: PackageRunResult, secretValues: readonly string[]): string {
  const rb = r.rollback;
  if (!rb) return '';
  const o = { automatic: r.mode !== 'rollback', package: r.path };
  for (const n of rb.notices) core.notice(scrub(n, secretValues), { title: r.path });
  const text = scrub(rollbackLine(rb, o), secretValues);
  const title = `kpt-live-action: ${r.path}`;
  if (rb.status === 'failed') core.error(text, { title: `${title} rollback failed` });
  else if (rb.status === 'rolled-back') core.warning(text, { title: `${title} rolled back` });
  else if (rb.left?.length) core.warning(text, { title: `${title} not rolled back` });
  else core.notice(text, { title: `${title} not rolled back` });
  // asked for (mode: rollback), the package's own summary is the rollback's: only the heading goes first
  const section = renderRollbackSection(rb, { ...o, secretValues, headingOnly: !o.automatic });
  return o.automatic ? `\n${section}` : `${section}\n`;
}

/**
 * The `rolled-back-to` output: the commit each rolled-back package returned to, one per line (one line
 * in the usual case of one package); empty when nothing was rolled back.
 */
export function rolledBackTo(results: readonly PackageRunResult[]): string {
  const commits = results.flatMap((r) =>
    r.rollback?.status === 'rolled-back' && r.rollback.to ? [r.rollback.to] : [],
  );
  return [...new Set(commits)].join('\n');
}

/** The step's failure message for a package, with what its rollback did. */
export function withRollbackWords(r: PackageRunResult, message: string): string {
  if (!r.rollback) return message;
  return `${message}; ${rollbackLine(r.rollback, { automatic: r.mode !== 'rollback', package: r.path })}`;
}
