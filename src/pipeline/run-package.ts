import type { RunEvent, RunEventSink } from '../apply/events.js';
import type { RunOptions } from '../apply/run-options.js';
import { DecidedOn, type RunResult } from '../apply/run-result.js';
import { exitCodeOf, type RunOutcome } from '../common/run-outcome.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { type PackageError, PackageFailure } from '../package/package-error.js';
import type { PlanGate, PlanVerdict } from '../preview/plan-gate.js';
import { previewDocument } from '../preview/preview-document.js';
import { collectSecretValues } from '../preview/redact.js';
import type { PreviewDocument } from '../preview/types.js';
import { applySteps, destroySteps, readClusterState } from './cluster-run.js';
import { type DeployHistory, type HistoryOptions, readDeployHistory, recordDeploy } from './deploy-record.js';
import { recordedSettings } from './deploy-settings.js';
import { onFailurePlan } from './on-failure-plan.js';
import { type ObjectStatus, readPackageStatus } from './package-status.js';
import { type PreparedPackage, preparePackage } from './prepare-package.js';
import { rollBackFailedApply } from './rollback.js';
import type { OnFailure, RollbackReport } from './rollback-report.js';
import { scrubbedEvents } from './scrubbed-events.js';
import { staleCommitReason } from './stale-commit.js';
import { lockWhileReading } from './take-lock.js';

export type { HistoryOptions } from './deploy-record.js';

/** `preview` is apply as a dry run. */
export type Mode = 'preview' | 'apply' | 'destroy' | 'status';

/** One package's result in any mode: what the CLI prints and the action's `result` output carries. */
export interface PackageRunResult {
  path: string;
  /** `rollback`: `kpt-live rollback` / `mode: rollback` (rollback-package.ts). */
  mode: Mode | 'rollback';
  /** `skipped`: never started (an earlier package failed under the package loop's rule, or cancelled). */
  outcome: RunOutcome | 'skipped';
  error?: string;
  notices: string[];
  prepared?: PreparedPackage;
  /** A dry run of apply (preview): what each object's decision says apply would do. */
  preview?: PreviewDocument;
  /** What the run did (or, as a dry run, would do) with each object, and its decision. */
  run?: RunResult;
  status?: ObjectStatus[];
  /** The pre-flight's plan compared with the reviewed one (apply with a plan gate). */
  planCheck?: PlanVerdict;
  /** apply with `on-failure: rollback` that failed, and a rollback asked for: what the rollback did. */
  rollback?: RollbackReport;
  /** Package problems (invalid YAML, unknown kinds, ...), each with file and line, when the package was refused. */
  packageErrors?: PackageError[];
  /** The contract's exit code: 0 ok, 1 fatal error (or a dry run the pre-flight would refuse), 3 objects failed. */
  exitCode: 0 | 1 | 3;
}

export interface RunPackageOptions {
  repoRoot: string;
  defaultNamespace: string;
  options: RunOptions;
  emit?: RunEventSink;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
  /** destroy: delete nothing, report what destroy would do (`preview` is apply's dry run). */
  dryRun?: boolean;
  previewContext?: Partial<PreviewDocument['context']>;
  /** Deploy history (apply/destroy): records next to the inventory, and the stale-commit guard. */
  history?: HistoryOptions;
  /** apply: the plan the merged pull request reviewed (fetched before the run), compared before the first write. */
  gate?: PlanGate;
  /**
   * apply: what a failed apply does (`on-failure`, `rollback-prune`); preview: what the preview says a
   * failure would do (the deploy history read, no lock).
   */
  onFailure?: OnFailure;
  /** apply with a rollback: the sink for the rollback's events, asked for when it starts (default `emit`). */
  rollbackEvents?: (to: string) => RunEventSink;
}

/**
 * One deployable unit in one mode, top to bottom: read and check the package (the lock, not for a dry run
 * or status, taken meanwhile from the inventory information) → (status: read the inventory's objects) → the
 * deploy history and the cluster's state (inventory, live objects), read together → the stale-commit guard
 * → the run (the plan, the engine) → the deploy record → unlock. Never throws for package or cluster
 * problems.
 */
export async function runPackage(
  client: ClusterClient,
  dir: string,
  mode: Mode,
  o: RunPackageOptions,
): Promise<PackageRunResult> {
  const result: PackageRunResult = { path: dir, mode, outcome: 'success', notices: [], exitCode: 0 };
  let secretValues: readonly string[] = [];
  const emit = scrubbedEvents(o.emit ?? (() => {}), () => secretValues);
  const dryRun = mode === 'preview' || (mode === 'destroy' && !!o.dryRun);
  // the lock is taken while the package is read and checked (a dry run and status take none): the lock
  // waits on the server, the check on the parser
  const lock =
    dryRun || mode === 'status' ? undefined : await lockWhileReading(client, dir, o.repoRoot, o.options, o);
  try {
    const prepared = await preparePackage(client, dir, {
      repoRoot: o.repoRoot,
      defaultNamespace: o.defaultNamespace,
      inventoryOnly: mode === 'destroy' || mode === 'status',
    });
    result.prepared = prepared;
    secretValues = packageSecretValues(result);
    result.path = prepared.dir;
    result.notices = prepared.notices;
    const { inventory, objects } = prepared;
    if (mode === 'status') {
      const status = await readPackageStatus(client, inventory, o.options);
      if (!status.found)
        result.notices.push(
          `no inventory ${inventory.namespace}/${inventory.name} in the cluster: nothing applied yet`,
        );
      return withStatus(result, status.objects);
    }
    const steps = {
      client,
      inventory,
      options: o.options,
      emit,
      signal: o.signal,
      onProgress: o.onProgress,
      dryRun,
    };
    await lock?.held(inventory, objects);
    // behind the lock, the deploy history and the cluster's state are read together (one round trip)
    const reading = mode === 'apply' ? readClusterState({ ...steps, objects }) : undefined;
    reading?.catch(() => {}); // applySteps reports its failure
    const history = !dryRun && o.history ? await readDeployHistory(client, inventory, o.history) : undefined;
    if (history?.unreadable) result.notices.push(history.unreadable);
    const stale =
      mode === 'apply' && history ? await staleReason(o.repoRoot, o.history!, history) : undefined;
    if (stale) return withRun(result, refused(emit, stale));
    const startedAt = new Date().toISOString();
    let run: RunResult;
    if (mode === 'destroy') run = await destroySteps(steps);
    else {
      const applied = await applySteps({ ...steps, objects, gate: o.gate, state: reading });
      run = applied.run;
      if (applied.planCheck) result.planCheck = applied.planCheck;
    }
    if (history) {
      const notice = await recordDeploy(client, inventory, {
        mode,
        pkg: prepared.dir,
        startedAt,
        run,
        history,
        settings: recordedSettings(o.options, o.defaultNamespace, inventory),
      });
      if (notice) result.notices.push(notice);
    }
    if (mode === 'apply' && o.onFailure?.rollback) {
      result.rollback = await rollBackFailedApply({
        client,
        repoRoot: o.repoRoot,
        prepared,
        run,
        commit: await o.history?.commit,
        history,
        options: o.options,
        defaultNamespace: o.defaultNamespace,
        onFailure: o.onFailure,
        events: (to) => scrubbedEvents(o.rollbackEvents?.(to) ?? emit, () => secretValues),
        signal: o.signal,
        onProgress: o.onProgress,
      });
    }
    if (mode === 'preview') {
      result.preview = await previewDocument(run, {
        package: prepared.dir,
        allowSkipped: o.options.allowSkipped,
        fieldManager: o.options.fieldManager,
        context: { namespace: inventory.namespace, ...o.previewContext },
      });
      if (o.onFailure) result.preview.onFailure = await onFailurePlan(client, inventory, o.onFailure);
    }
    return withRollback(withRun(result, run));
  } catch (err) {
    result.outcome = 'error';
    result.error = (err as Error).message;
    if (err instanceof PackageFailure) result.packageErrors = err.errors;
    result.exitCode = exitCodeOf('error');
    return result;
  } finally {
    await lock?.release();
  }
}

/**
 * The outcome and exit code from the run. A dry run exits as the real run would: 1 when its pre-flight
 * would refuse an object (rejected by the server's dry-run, nothing would change), 3 when objects would be
 * blocked, 0 otherwise.
 */
export function withRun(result: PackageRunResult, run: RunResult): PackageRunResult {
  result.run = run;
  result.outcome = run.outcome;
  result.error = run.error;
  result.exitCode = exitCodeOf(run.outcome);
  const rejected =
    run.dryRun &&
    run.objects.some((x) => x[DecidedOn]?.decision.action === 'error' && !x[DecidedOn].decision.blocked);
  if (rejected) result.exitCode = 1;
  return result;
}

/** A rollback that ran (whatever its end) leaves the deploy failed: exit 3, as the contract says. */
function withRollback(result: PackageRunResult): PackageRunResult {
  if (result.rollback && result.rollback.status !== 'skipped') result.exitCode = 3;
  return result;
}

function withStatus(result: PackageRunResult, status: ObjectStatus[]): PackageRunResult {
  result.status = status;
  if (status.some((s) => s.status === 'Failed')) {
    result.outcome = 'failed';
    result.exitCode = exitCodeOf('failed');
  }
  return result;
}

async function staleReason(repoRoot: string, h: HistoryOptions, history: DeployHistory) {
  if (h.allowStale || !history.entries) return undefined;
  const commit = await h.commit;
  return commit
    ? staleCommitReason(
        repoRoot,
        commit,
        history.entries.map((e) => e.record),
      )
    : undefined;
}

/**
 * The Secret values of the package's objects (and of the package a rollback applied): no event, log line,
 * comment or summary may show them.
 */
export function packageSecretValues(result: Pick<PackageRunResult, 'prepared' | 'rollback'>): string[] {
  const objects = [...(result.prepared?.objects ?? []), ...(result.rollback?.prepared?.objects ?? [])];
  return collectSecretValues(objects.map((x) => x.object));
}

/** A run refused before anything ran: reported once as an error event. */
function refused(emit: RunEventSink, message: string): RunResult {
  emit({ type: 'error', error: message } satisfies RunEvent);
  return { outcome: 'error', error: message, objects: [], durationMs: 0 };
}
