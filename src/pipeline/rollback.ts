import type { RunEventSink } from '../apply/events.js';
import type { RunOptions } from '../apply/run-options.js';
import type { RunResult } from '../apply/run-result.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { collectSecretValues } from '../preview/redact.js';
import { applySteps } from './cluster-run.js';
import { type DeployHistory, refusedBeforeFirstWrite } from './deploy-record.js';
import { readEarlierPackage } from './earlier-package.js';
import type { PreparedPackage } from './prepare-package.js';
import { recordRollback } from './rollback-record.js';
import { leftBy, notInPackage, type OnFailure, type RollbackReport } from './rollback-report.js';
import { lastGoodDeploy } from './rollback-target.js';
import { scrubbedEvents } from './scrubbed-events.js';

export interface FailedApply {
  client: ClusterClient;
  repoRoot: string;
  /** The package whose apply failed (its directory, today's inventory). */
  prepared: PreparedPackage;
  run: RunResult;
  /** The commit whose apply failed. */
  commit?: string;
  /** The deploy history as read before the failed apply (under the same lock). */
  history?: DeployHistory;
  options: RunOptions;
  defaultNamespace: string;
  onFailure: OnFailure;
  /** The sink for the rollback's events, asked for when it starts. */
  events: (to: string) => RunEventSink;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
}

const skipped = (reason: string, extra: Partial<RollbackReport> = {}): RollbackReport => ({
  status: 'skipped',
  reason,
  kept: [],
  pruned: [],
  notices: [],
  ...extra,
});

/**
 * `on-failure: rollback`, under the failed apply's lock: the package as the last successful deploy
 * applied it (its tree from git, its recorded inventory and settings) applied through the same steps (its
 * own pre-flight, waves and waits); objects the failed deploy added are kept unless `rollback-prune`.
 * Recorded in the deploy history as a rollback. Never retried: a rollback that fails is reported as is.
 * Undefined when the apply did not fail. Never throws.
 */
export async function rollBackFailedApply(f: FailedApply): Promise<RollbackReport | undefined> {
  if (f.run.outcome === 'success') return undefined;
  if (f.signal?.aborted)
    return skipped(
      'the run was cancelled: run a rollback (kpt-live rollback, or mode: rollback) to return to the last successful deploy',
    );
  if (refusedBeforeFirstWrite(f.run))
    return skipped(
      'the apply was refused before its first write: nothing was changed, so nothing is rolled back',
    );
  if (!f.history?.entries)
    return skipped(
      f.history?.unreadable ?? 'there is no deploy history to find the last successful deploy in',
    );
  const target = lastGoodDeploy(
    f.history.entries.map((e) => e.record),
    f.commit,
  );
  if ('none' in target) return skipped(target.none, target.first ? { left: leftBy(f.run) } : {});
  const record = target.record as typeof target.record & { commit: string };
  const to = record.commit;
  const report: RollbackReport = { status: 'failed', to, of: f.commit, kept: [], pruned: [], notices: [] };
  const inventory = f.prepared.inventory;
  try {
    const earlier = await readEarlierPackage(f.client, {
      repoRoot: f.repoRoot,
      dir: f.prepared.dir,
      record,
      today: { inventory, options: f.options, defaultNamespace: f.defaultNamespace },
    });
    if ('error' in earlier) return { ...report, reason: earlier.error };
    report.prepared = earlier.prepared;
    report.notices.push(...earlier.notices);
    const secretValues = collectSecretValues(earlier.prepared.objects.map((x) => x.object));
    const options = { ...earlier.options, prune: f.onFailure.prune };
    f.onProgress?.(`rolling back ${f.prepared.dir} to ${to.slice(0, 7)}, its last successful deploy`);
    const startedAt = new Date().toISOString();
    const { run } = await applySteps({
      client: f.client,
      inventory,
      options,
      emit: scrubbedEvents(f.events(to), () => secretValues),
      signal: f.signal,
      onProgress: f.onProgress,
      dryRun: false,
      objects: earlier.prepared.objects,
    });
    const left = notInPackage(run, f.onFailure.prune);
    Object.assign(report, { run, ...left, status: run.outcome === 'success' ? 'rolled-back' : 'failed' });
    if (run.error) report.reason = run.error;
    const notice = await recordRollback(f.client, inventory, {
      pkg: f.prepared.dir,
      startedAt,
      run,
      history: f.history.options,
      target: record,
      to,
      of: f.commit,
      ...left,
      // the settings the commit is applied with, as its deploy recorded them (prune aside: a rollback's own)
      options: earlier.options,
      defaultNamespace: record.namespace ?? f.defaultNamespace,
    });
    if (notice) report.notices.push(notice);
    return report;
  } catch (err) {
    return { ...report, reason: (err as Error).message };
  }
}
