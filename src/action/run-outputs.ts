import { failed, isBlockedOutcome } from '../apply/run-result.js';
import type { PackageRunResult } from '../pipeline/run-package.js';
import { packageResultJson, totals } from './result-json.js';
import { rolledBackTo, withRollbackWords } from './rollback-report.js';
import * as core from './toolkit.js';

/** A package the loop did not start (an earlier one failed, or the run was cancelled). */
export function skippedResult(path: string, mode: PackageRunResult['mode'], why: string): PackageRunResult {
  return { path, mode, outcome: 'skipped', error: why, notices: [], exitCode: 3 };
}

/** The outputs and the step's result, from the packages' results in their order. */
export function concludeRun(results: PackageRunResult[], cancelled: boolean): void {
  setOutputs(results);
  const bad = results.filter((r) => r.outcome !== 'success');
  if (cancelled) core.setFailed('cancelled: stopped starting new work; the inventory was saved');
  else if (bad.length > 0) {
    core.setFailed(
      bad.map((r) => withRollbackWords(r, `${r.path}: ${r.error ?? describeFailure(r)}`)).join('\n'),
    );
  }
}

function describeFailure(r: PackageRunResult): string {
  const objects = r.run?.objects ?? [];
  const notDone = objects.filter((o) => failed(o));
  if (notDone.length > 0) {
    return notDone
      .map((o) => {
        const verb = isBlockedOutcome(o) ? 'blocked' : o.reconcile === 'Timeout' ? 'timed out' : 'failed';
        return `${o.id.kind}/${o.id.name} ${verb}: ${o.message ?? ''}`;
      })
      .join('; ');
  }
  if (r.preview) {
    const { error, blocked } = r.preview.summary;
    const parts = [
      ...(error > blocked ? [`${error - blocked} object(s) rejected by the server`] : []),
      ...(blocked > 0 ? [`${blocked} object(s) blocked: apply would not deploy them`] : []),
    ];
    return parts.join('; ') || 'failed';
  }
  return 'failed';
}

export function setOutputs(results: PackageRunResult[]) {
  const json = results.map(packageResultJson);
  const t = totals(json);
  core.setOutput('created', String(t.created));
  core.setOutput('configured', String(t.configured));
  core.setOutput('unchanged', String(t.unchanged));
  core.setOutput('pruned', String(t.pruned));
  core.setOutput('failed', String(t.failed));
  core.setOutput('result', JSON.stringify({ packages: json }));
  core.setOutput('rolled-back-to', rolledBackTo(results));
}
