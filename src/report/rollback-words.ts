import { failed } from '../apply/run-result.js';
import { formatDuration } from '../common/duration.js';
import { type ObjectId, shortName } from '../common/object-id.js';
import { refusedBeforeFirstWrite } from '../pipeline/deploy-record.js';
import type { RollbackReport } from '../pipeline/rollback-report.js';
import { scrub } from '../preview/redact.js';
import { applySummaryObjects } from './apply-summary-objects.js';
import { renderApplyJobSummary } from './job-summary.js';
import { clip, code, escapeText } from './markdown.js';

const scrubbed = (text: string, values?: readonly string[]) => (values ? scrub(text, values) : text);

/**
 * How a rollback reads, in one line (log, CLI, the action's failure message, the PR's Applied section) and
 * as a job summary section. `automatic`: after a failed apply (`on-failure: rollback`); else asked for.
 */
export interface RollbackWordsOptions {
  automatic: boolean;
  /** The package path, for the command that removes what a first deploy left. */
  package: string;
}

/** Names listed in a line; the rest are counted. */
const MAX_NAMES = 10;

/** Markup for the two renderings: plain text, or markdown with commits and names as code. */
interface Style {
  commit(sha: string): string;
  name(text: string): string;
  text(text: string): string;
}
const plain: Style = { commit: (s) => s.slice(0, 7), name: (t) => t, text: (t) => t };
const markdown: Style = {
  commit: (s) => code(s.slice(0, 7)),
  name: (t) => code(t),
  text: (t) => escapeText(clip(t, 500)),
};

function names(ids: readonly ObjectId[], s: Style): string {
  const sorted = ids.map(shortName).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const shown = sorted.slice(0, MAX_NAMES).map((n) => s.name(n));
  const more = ids.length > MAX_NAMES ? ` and ${ids.length - MAX_NAMES} more` : '';
  return `${shown.join(', ')}${more}`;
}

/** Why a rollback that ran did not succeed: its fatal error, else its first failed object. */
function whyFailed(r: RollbackReport, s: Style): string {
  const object = r.run?.objects.find((o) => failed(o));
  if (object)
    return `${s.name(shortName(object.id))} ${s.text(object.message ?? object.reconcile ?? 'failed')}`;
  return s.text(r.reason ?? r.run?.error ?? 'failed');
}

function keptParts(r: RollbackReport, o: RollbackWordsOptions, s: Style, would = false): string[] {
  const parts: string[] = [];
  const whose = o.automatic
    ? 'added by the failed deploy'
    : `not in the package at ${r.to ? s.commit(r.to) : 'that commit'}`;
  const [kept, pruned] = would ? ['would be kept', 'would be pruned'] : ['kept', 'pruned'];
  if (r.kept.length > 0) parts.push(`${whose}, ${kept}: ${names(r.kept, s)}`);
  if (r.pruned.length > 0) parts.push(`${whose}, ${pruned}: ${names(r.pruned, s)}`);
  return parts;
}

function line(r: RollbackReport, o: RollbackWordsOptions, s: Style): string {
  const to = r.to ? s.commit(r.to) : '';
  if (r.status === 'skipped') {
    const parts = [`not rolled back: ${s.text(r.reason ?? 'no reason given')}`];
    if (r.left?.length)
      parts.push(
        `left in the cluster: ${names(r.left, s)} (remove them with ${s.name(`kpt-live destroy ${o.package}`)}, or the action's ${s.name('mode: destroy')})`,
      );
    return parts.join('; ');
  }
  if (r.status === 'rolled-back') {
    const time = r.run ? `, Current in ${formatDuration(r.run.durationMs)}` : '';
    return [`rolled back to ${to}${time}`, ...keptParts(r, o, s)].join('; ');
  }
  const nothing = !r.run || refusedBeforeFirstWrite(r.run) ? '; nothing was changed by the rollback' : '';
  return [`rollback to ${to} failed: ${whyFailed(r, s)}${nothing}`, ...keptParts(r, o, s)].join('; ');
}

/** The rollback in one line of plain text (`rolled back to 3f2a1c0, Current in 24.0s; ...`). */
export function rollbackLine(r: RollbackReport, o: RollbackWordsOptions): string {
  return line(r, o, plain);
}

/**
 * What a rollback would do, from its dry run (`kpt-live rollback --dry-run`): the commit, and what happens
 * to the objects the package at it lacks (the preview lists the rest).
 */
export function rollbackPlanLine(r: RollbackReport, o: RollbackWordsOptions): string {
  const to = r.to ? plain.commit(r.to) : '';
  return [`would roll back to ${to}`, ...keptParts(r, o, plain, true)].join('; ');
}

/** The same line as markdown (commits and object names as code, messages escaped). */
export function rollbackMarkdownLine(r: RollbackReport, o: RollbackWordsOptions): string {
  return line(r, o, markdown);
}

/**
 * The job summary section of a rollback: its line as the heading, then (when it ran) the table of what it
 * did to each object and each failure, as an apply's summary shows them.
 */
export function renderRollbackSection(
  r: RollbackReport,
  o: RollbackWordsOptions & { secretValues?: readonly string[]; headingOnly?: boolean },
): string {
  const icon = r.status === 'rolled-back' ? '↩️' : r.status === 'failed' ? '❌' : '⚠️';
  const heading = scrubbed(`#### ${icon} ${rollbackMarkdownLine(r, o)}`, o.secretValues);
  if (o.headingOnly || !r.run || refusedBeforeFirstWrite(r.run)) return `${heading}\n`;
  const body = renderApplyJobSummary(
    {
      package: o.package,
      outcome: r.run.outcome === 'success' ? 'success' : 'failure',
      durationMs: r.run.durationMs,
      error: r.run.error,
      objects: applySummaryObjects(r.run.objects),
    },
    { secretValues: o.secretValues },
  );
  // the apply summary's own headline gives way to the rollback's
  return `${heading}\n${body.slice(body.indexOf('\n'))}`;
}
