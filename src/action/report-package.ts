import type { RunEvent } from '../apply/events.js';
import { failed, isBlockedOutcome } from '../apply/run-result.js';
import { blockedExplanation } from '../apply/skip-reason.js';
import { shortName } from '../common/object-id.js';
import { formatPackageError } from '../package/package-error.js';
import type { PackageRunResult } from '../pipeline/run-package.js';
import { scrub } from '../preview/redact.js';
import { applySummaryObjects } from '../report/apply-summary-objects.js';
import { renderEventText } from '../report/events-text.js';
import { renderApplyJobSummary, renderPreviewJobSummary } from '../report/job-summary.js';
import { renderPreviewText } from '../report/preview-text.js';
import * as core from './toolkit.js';

/** Streams engine events into the log as kpt's event lines (the pipeline took the Secret values out). */
export function eventLogger(log: (line: string) => void = (line) => core.info(line)) {
  return (event: RunEvent) => {
    const line = renderEventText(event);
    if (line !== undefined) log(line);
  };
}

/** Job summary section, annotations at file:line, and log lines for one package's result. */
export function reportPackage(r: PackageRunResult, secretValues: readonly string[]): string {
  for (const n of r.notices) core.notice(n, { title: r.path });
  for (const e of r.packageErrors ?? []) {
    core.error(scrub(formatPackageError(e), secretValues), {
      title: `kpt-live-action: ${r.path}`,
      file: e.file,
      startLine: e.line,
    });
  }
  if (r.error && !r.packageErrors)
    core.error(scrub(r.error, secretValues), { title: `kpt-live-action: ${r.path}` });
  if (r.preview) {
    core.info(renderPreviewText(r.preview));
    return renderPreviewJobSummary(r.preview);
  }
  if (r.status) {
    for (const s of r.status) core.info(`${shortName(s.id)} is ${s.status}: ${s.message}`);
    const rows = r.status.map(
      (s) => `| \`${shortName(s.id)}\` | ${s.status} | ${s.message.replaceAll('|', '\\|')} |`,
    );
    return [
      `### Status · \`${r.path}\``,
      '',
      '| object | status | message |',
      '|---|---|---|',
      ...rows,
      '',
    ].join('\n');
  }
  const objects = r.run?.objects ?? [];
  for (const o of objects) {
    if (isBlockedOutcome(o) && o.skip) {
      // an error when it fails the step, a warning when allow-skipped lets it pass
      const annotate = r.outcome === 'success' ? core.warning : core.error;
      annotate(scrub(`${shortName(o.id)} was not deployed: ${blockedExplanation(o.skip)}`, secretValues), {
        title: `kpt-live-action: ${shortName(o.id)} blocked`,
        file: o.source?.file,
        startLine: o.source?.line,
      });
    } else if (failed(o)) {
      core.error(scrub(`${shortName(o.id)}: ${o.message ?? o.reconcile ?? 'failed'}`, secretValues), {
        title: `kpt-live-action: ${shortName(o.id)} ${o.reconcile === 'Timeout' ? 'timed out' : 'failed'}`,
        file: o.source?.file,
        startLine: o.source?.line,
      });
    }
  }
  return renderApplyJobSummary(
    {
      package: r.path,
      outcome: r.outcome === 'success' ? 'success' : 'failure',
      durationMs: r.run?.durationMs ?? 0,
      error: r.error,
      objects: applySummaryObjects(objects),
    },
    { secretValues },
  );
}
