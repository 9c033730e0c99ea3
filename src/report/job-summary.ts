import { formatDuration } from '../common/duration.js';
import { type ObjectId, shortName } from '../common/object-id.js';
import type { SourceRef } from '../common/source-ref.js';
import { scrub } from '../preview/redact.js';
import type { PreviewDocument } from '../preview/types.js';
import { cell, clip, code, escapeText } from './markdown.js';
import { renderPreviewMarkdown } from './preview-markdown.js';

/** GitHub refuses a step's job summary above 1 MiB; stay a little under it. */
export const JOB_SUMMARY_LIMIT = 1_000_000;

/**
 * The job summary for a preview: the PR comment's content without the marker and with a far larger
 * size budget, so it can hold the diffs a comment had to cut.
 */
export function renderPreviewJobSummary(doc: PreviewDocument): string {
  return renderPreviewMarkdown(doc, {
    marker: false,
    maxLength: JOB_SUMMARY_LIMIT,
    limitName: "GitHub's job summary limit",
    fullTextHint: 'run `kpt-live preview` for the full diff',
  });
}

export interface ApplySummaryObject {
  id: ObjectId;
  /** What was done: `created`, `configured`, `unchanged`, `pruned`, `deleted`, `skipped`, `failed`. */
  action: string;
  /** Final state: a kstatus (`Current`, `InProgress`, `Failed`, `NotFound`) or `Timeout`. */
  status: string;
  message?: string;
  source?: SourceRef;
  wave?: number;
  /** From the apply until the object was Current (or gone, for a prune), when known. */
  durationMs?: number;
  /** Its apply, delete or reconcile failed or timed out (`failed` of run-result.ts; blocked ones are apart). */
  failed?: boolean;
  /** Skipped for a reason the user did not choose (another inventory owns it, a dependency failed): not deployed. */
  blocked?: boolean;
  /** The failed object's last conditions, e.g. `Available=False: MinimumReplicasUnavailable`. */
  conditions?: string[];
}

export interface ApplySummaryInput {
  package: string;
  outcome: 'success' | 'failure';
  durationMs: number;
  objects: ApplySummaryObject[];
  /** A fatal error that stopped the run before every object was handled. */
  error?: string;
}

export interface ApplySummaryOptions {
  /** Values of the package's Secrets (`collectSecretValues`): scrubbed from messages as a last defence. */
  secretValues?: readonly string[];
}

const ACTION_ORDER = ['created', 'configured', 'unchanged', 'pruned', 'deleted', 'skipped', 'failed'];
const GONE = new Set(['pruned', 'deleted']);
const isFailed = (obj: ApplySummaryObject): boolean => !!obj.failed;

function counts(objects: ApplySummaryObject[]): string {
  const byAction = new Map<string, number>();
  for (const obj of objects) byAction.set(obj.action, (byAction.get(obj.action) ?? 0) + 1);
  const known = ACTION_ORDER.filter((a) => byAction.has(a));
  const other = [...byAction.keys()].filter((a) => !ACTION_ORDER.includes(a)).sort();
  return [...known, ...other].map((a) => `${byAction.get(a)} ${a}`).join(', ');
}

function headline(input: ApplySummaryInput): string {
  const pkg = code(input.package);
  const failed = input.objects.find(isFailed);
  const blocked = input.objects.filter((obj) => obj.blocked);
  if (input.outcome === 'failure' || failed) {
    if (!failed && blocked.length > 0) {
      const names = blocked.slice(0, 5).map((obj) => code(shortName(obj.id)));
      const more = blocked.length > 5 ? ` and ${blocked.length - 5} more` : '';
      return `### ❌ ${pkg}: ${blocked.length} object(s) blocked, not deployed: ${names.join(', ')}${more}`;
    }
    if (failed) {
      const after = failed.durationMs !== undefined ? ` after ${formatDuration(failed.durationMs)}` : '';
      const why = failed.message ? `: ${escapeText(clip(failed.message, 300))}` : '';
      return `### ❌ ${pkg}: ${code(shortName(failed.id))} ${failed.status}${after}${why}`;
    }
    return `### ❌ ${pkg}: ${escapeText(clip(input.error ?? 'the run failed', 300))}`;
  }
  const live = input.objects.filter((obj) => !GONE.has(obj.action));
  const current = live.filter((obj) => obj.status === 'Current').length;
  const state =
    current === live.length ? `all ${live.length} Current` : `${current} of ${live.length} Current`;
  const what = counts(input.objects);
  return `### ✅ ${pkg} applied in ${formatDuration(input.durationMs)}: ${what ? `${what}, ` : ''}${state}`;
}

function waveTable(objects: ApplySummaryObject[]): string[] {
  const lines = ['| object | action | status | time | message | source |', '|---|---|---|---|---|---|'];
  for (const obj of objects) {
    const time = obj.durationMs !== undefined ? formatDuration(obj.durationMs) : '';
    const source = obj.source ? code(`${obj.source.file}:${obj.source.line}`) : '';
    const message = escapeText(clip(obj.message ?? '', 200));
    const id = obj.id.namespace ? `${obj.id.namespace}/${shortName(obj.id)}` : shortName(obj.id);
    lines.push(
      `| ${cell(code(id))} | ${obj.action} | ${obj.status} | ${time} | ${cell(message)} | ${cell(source)} |`,
    );
  }
  return lines;
}

function failureSection(objects: ApplySummaryObject[]): string[] {
  const lines: string[] = [];
  for (const obj of objects.filter(isFailed)) {
    const source = obj.source ? ` (${code(`${obj.source.file}:${obj.source.line}`)})` : '';
    lines.push(`#### ❌ ${code(shortName(obj.id))}${source}`, '');
    lines.push(`- ${obj.status}${obj.message ? `: ${escapeText(clip(obj.message, 1000))}` : ''}`);
    for (const condition of obj.conditions ?? []) lines.push(`- ${escapeText(clip(condition, 500))}`);
    lines.push('');
  }
  const blocked = objects.filter((obj) => obj.blocked);
  if (blocked.length > 0) {
    lines.push('**Not deployed (blocked):**', '');
    for (const obj of blocked) {
      const source = obj.source ? ` (${code(`${obj.source.file}:${obj.source.line}`)})` : '';
      lines.push(`- ⛔ ${code(shortName(obj.id))}${source}: ${escapeText(clip(obj.message ?? '', 1000))}`);
    }
  }
  return lines;
}

/**
 * The job summary after an apply or destroy: a one-line verdict a reader gets in five seconds, then one
 * table per wave (object, action, final status, time to Current, message, file), then for a failure each
 * failed object's conditions and what was not applied because of it.
 */
export function renderApplyJobSummary(input: ApplySummaryInput, opts: ApplySummaryOptions = {}): string {
  const blocks: string[][] = [[headline(input)]];
  if (input.error && input.objects.some(isFailed)) blocks.push([`> ${escapeText(clip(input.error, 1000))}`]);
  const waves = [...new Set(input.objects.map((obj) => obj.wave ?? 0))].sort((a, b) => a - b);
  for (const wave of waves) {
    const objects = input.objects.filter((obj) => (obj.wave ?? 0) === wave);
    const title = wave === 0 ? 'Other objects' : `Wave ${wave}`;
    blocks.push(waves.length > 1 ? [`**${title}**`, '', ...waveTable(objects)] : waveTable(objects));
  }
  const failures = failureSection(input.objects);
  if (failures.length > 0) blocks.push(failures);
  const text = `${blocks
    .map((block) => block.join('\n'))
    .join('\n\n')
    .trimEnd()}\n`;
  return opts.secretValues ? scrub(text, opts.secretValues) : text;
}
