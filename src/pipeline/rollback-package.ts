import type { RunEventSink } from '../apply/events.js';
import type { RunOptions } from '../apply/run-options.js';
import { exitCodeOf } from '../common/run-outcome.js';
import type { InventoryLock } from '../inventory/inventory-lock.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { PackageFailure } from '../package/package-error.js';
import { previewDocument } from '../preview/preview-document.js';
import { collectSecretValues } from '../preview/redact.js';
import type { PreviewDocument } from '../preview/types.js';
import { applySteps } from './cluster-run.js';
import { type HistoryOptions, readDeployHistory } from './deploy-record.js';
import { readEarlierPackage } from './earlier-package.js';
import { preparePackage } from './prepare-package.js';
import { recordRollback } from './rollback-record.js';
import { notInPackage, type RollbackReport } from './rollback-report.js';
import { chosenTarget } from './rollback-target.js';
import type { PackageRunResult } from './run-package.js';
import { withRun } from './run-package.js';
import { scrubbedEvents } from './scrubbed-events.js';
import { takeLock } from './take-lock.js';

export interface RunRollbackOptions {
  repoRoot: string;
  defaultNamespace: string;
  /** Today's settings: those the deploy rolled back to did not record, and the machine's own (concurrency, lock). */
  options: RunOptions;
  /** Settings given explicitly (CLI flags): they win over the recorded ones. */
  explicit?: Partial<RunOptions>;
  /** Prune the objects the package at the target lacks (`rollback-prune`); default: kept. */
  prune: boolean;
  /** The target: a commit of a successful deploy, else `steps` successful deploys back (default 1). */
  to?: string;
  steps?: number;
  /** Show what it would do (the dry-run walk), change nothing. */
  dryRun: boolean;
  /** The deploy history: who runs it, how many records are kept. Its commit is not used. */
  history: HistoryOptions;
  emit?: RunEventSink;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
  /** The preview (the dry-run walk's decisions), handed over before anything is changed. */
  onPreview?: (doc: PreviewDocument, report: RollbackReport) => void;
  previewContext?: Partial<PreviewDocument['context']>;
}

/**
 * `kpt-live rollback` / `mode: rollback` for one package: under the package's lock (none for a dry run),
 * the deploy history names the target (an earlier successful deploy), the package is read as that deploy
 * applied it (its tree from git, its recorded inventory and settings), a dry-run walk shows what applying
 * it does (the preview), then the same steps as any apply carry it out (pre-flight, waves, waits), and the
 * history records it as a rollback. The stale-commit guard does not apply: going back is the point.
 * Objects the package at the target lacks are kept unless `prune`. Never throws.
 */
export async function runRollback(
  client: ClusterClient,
  dir: string,
  o: RunRollbackOptions,
): Promise<PackageRunResult> {
  const result: PackageRunResult = {
    path: dir,
    mode: 'rollback',
    outcome: 'success',
    notices: [],
    exitCode: 0,
  };
  let secretValues: string[] = [];
  const emit = scrubbedEvents(o.emit ?? (() => {}), () => secretValues);
  let lock: InventoryLock | undefined;
  try {
    const today = await preparePackage(client, dir, {
      repoRoot: o.repoRoot,
      defaultNamespace: o.defaultNamespace,
      inventoryOnly: true,
    });
    result.path = today.dir;
    result.notices = today.notices;
    const { inventory } = today;
    if (!o.dryRun) lock = await takeLock(client, inventory, [], o.options, o);
    const history = await readDeployHistory(client, inventory, o.history);
    if (!history.entries) throw new Error(`cannot roll back ${today.dir}: ${history.unreadable}`);
    const target = chosenTarget(
      history.entries.map((e) => e.record),
      { to: o.to, steps: o.steps },
    );
    if ('none' in target) throw new Error(`cannot roll back ${today.dir}: ${target.none}`);
    const record = target.record as typeof target.record & { commit: string };
    const report: RollbackReport = {
      status: 'failed',
      to: record.commit,
      ...(target.last?.commit ? { of: target.last.commit } : {}),
      kept: [],
      pruned: [],
      notices: [],
    };
    result.rollback = report;
    const earlier = await readEarlierPackage(client, {
      repoRoot: o.repoRoot,
      dir: today.dir,
      record,
      today: { inventory, options: o.options, defaultNamespace: o.defaultNamespace },
    });
    if ('error' in earlier) throw new Error(`cannot roll back ${today.dir}: ${earlier.error}`);
    report.prepared = earlier.prepared;
    secretValues = collectSecretValues(earlier.prepared.objects.map((x) => x.object));
    result.notices.push(...earlier.notices);
    const options = { ...earlier.options, ...o.explicit, prune: o.prune };
    const steps = { client, inventory, options, signal: o.signal, onProgress: o.onProgress };
    const objects = earlier.prepared.objects;

    const dry = await applySteps({ ...steps, objects, emit: () => {}, dryRun: true });
    report.preview = await previewDocument(dry.run, {
      package: today.dir,
      allowSkipped: options.allowSkipped,
      fieldManager: options.fieldManager,
      context: { namespace: inventory.namespace, commit: record.commit, ...o.previewContext },
    });
    Object.assign(report, notInPackage(dry.run, o.prune));
    o.onPreview?.(report.preview, report);
    if (o.dryRun) {
      Object.assign(report, { status: 'skipped', reason: 'dry run: nothing was changed' });
      result.preview = report.preview;
      return withRun(result, dry.run);
    }

    const startedAt = new Date().toISOString();
    const { run } = await applySteps({ ...steps, objects, emit, dryRun: false });
    Object.assign(report, notInPackage(run, o.prune), {
      run,
      status: run.outcome === 'success' ? 'rolled-back' : 'failed',
      ...(run.error ? { reason: run.error } : {}),
    });
    const notice = await recordRollback(client, inventory, {
      pkg: today.dir,
      startedAt,
      run,
      history: o.history,
      target: record,
      to: record.commit,
      of: report.of,
      kept: report.kept,
      pruned: report.pruned,
      options: earlier.options,
      defaultNamespace: record.namespace ?? o.defaultNamespace,
    });
    if (notice) result.notices.push(notice);
    return withRun(result, run);
  } catch (err) {
    result.outcome = 'error';
    result.error = (err as Error).message;
    if (result.rollback && !result.rollback.reason) result.rollback.reason = result.error;
    if (err instanceof PackageFailure) result.packageErrors = err.errors;
    result.exitCode = exitCodeOf('error');
    return result;
  } finally {
    await lock?.release();
  }
}
