import { type ApplyRequest, runApply } from '../apply/applier.js';
import { runDestroy } from '../apply/destroyer.js';
import type { RunEventSink } from '../apply/events.js';
import { type InventoryAhead, startInventoryAhead } from '../apply/inventory-ahead.js';
import type { RunOptions } from '../apply/run-options.js';
import { countOutcomes, failed, type RunResult } from '../apply/run-result.js';
import { ResourceGroupApiVersion, ResourceGroupKind } from '../common/constants.js';
import { shortName } from '../common/object-id.js';
import { exitCodeOf, type RunOutcome } from '../common/run-outcome.js';
import { loadYaml } from '../common/yaml-module.js';
import {
  type DeployRecord,
  deleteHistory,
  type HistoryEntry,
  readHistoryEntries,
  writeHistory,
} from '../inventory/deploy-history.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { type InventoryInfo, readInventoryInfo, sameInventory } from '../package/inventory-info.js';
import { type PackageError, PackageFailure } from '../package/package-error.js';
import { computePreview } from '../preview/compute-preview.js';
import type { PlanEntry } from '../preview/plan-digest.js';
import { plannedActions } from '../preview/planned-actions.js';
import type { PreviewDocument } from '../preview/types.js';
import { firstApplyWarmup } from './first-apply-warmup.js';
import { type ObjectStatus, readPackageStatus } from './package-status.js';
import { type PreparedPackage, preparePackage } from './prepare-package.js';
import { staleCommitReason } from './stale-commit.js';

const HistoryUnreadable = 'deploy history could not be read (no permission on ConfigMaps?): not recorded';

export type Mode = 'preview' | 'apply' | 'destroy' | 'status';

/** One package's result in any mode: what the CLI prints and the action's `result` output carries. */
export interface PackageRunResult {
  path: string;
  mode: Mode;
  outcome: RunOutcome;
  error?: string;
  notices: string[];
  prepared?: PreparedPackage;
  preview?: PreviewDocument;
  run?: RunResult;
  status?: ObjectStatus[];
  /** Package problems (invalid YAML, unknown kinds, ...), each with file and line, when the package was refused. */
  packageErrors?: PackageError[];
  /** The contract's exit code: 0 ok, 1 fatal error, 3 objects failed or timed out. */
  exitCode: 0 | 1 | 3;
}

export interface RunPackageOptions {
  repoRoot: string;
  defaultNamespace: string;
  options: RunOptions;
  emit?: RunEventSink;
  signal?: AbortSignal;
  onProgress?: ApplyRequest['onProgress'];
  previewContext?: Partial<PreviewDocument['context']>;
  /** Deploy history (apply/destroy): records next to the inventory, and the stale-commit guard. */
  history?: HistoryOptions;
  /** Called once the package is loaded and valid, before anything runs (e.g. to learn its Secret values). */
  onPrepared?: (prepared: PreparedPackage) => void;
  /** Apply: the pre-flight's plan, before the first write; throwing refuses the run (see ApplyRequest). */
  onPlanned?: (plan: PlanEntry[] | undefined) => void | Promise<void>;
}

export interface HistoryOptions {
  /**
   * The commit being applied (enables the stale-commit guard); may still be being looked up (the CLI asks git
   * while the run starts): the guard and the record wait for it, nothing else does.
   */
  commit?: string | Promise<string | undefined>;
  /** Who started it: the workflow run URL, else user@host. */
  trigger: string;
  /** Records kept per inventory. */
  keep: number;
  /** Apply even a commit older than the last one applied. */
  allowStale: boolean;
}

/** load → plan → execute for one deployable unit in one mode; never throws for package or cluster problems. */
export async function runPackage(
  client: ClusterClient,
  dir: string,
  mode: Mode,
  o: RunPackageOptions,
): Promise<PackageRunResult> {
  const result: PackageRunResult = { path: dir, mode, outcome: 'success', notices: [], exitCode: 0 };
  // discovery every run needs next (inventory; apply and destroy: history), fetched while the package loads
  // instead of one round trip at a time later (the lock's Lease needs none: see alwaysServed in discovery.ts)
  const warm = Promise.all([
    client.resolve(ResourceGroupApiVersion, ResourceGroupKind),
    ...(mode === 'apply' || mode === 'destroy' ? [client.resolve('v1', 'ConfigMap')] : []),
    // destroy looks up every inventory entry by group (no version): the API group list
    ...(mode === 'destroy'
      ? [client.resolveId({ group: 'kpt.dev', kind: ResourceGroupKind, namespace: '', name: '' })]
      : []),
  ]).catch(() => undefined);
  // apply and destroy read the deploy history while the package is checked against the cluster
  let historyRead: Promise<HistoryEntry[] | undefined> | undefined;
  // apply takes its lock and reads the cluster's inventory while the package is checked; a run that stops
  // before it applies gives the lock back
  let ahead: InventoryAhead | undefined;
  const warmup =
    mode === 'apply' ? firstApplyWarmup((n) => client.warm(n), o.options.concurrency) : undefined;
  let startedFor: InventoryInfo | undefined;
  const onInventory = (inv: InventoryInfo) => {
    if (startedFor && sameInventory(startedFor, inv)) return;
    void ahead?.abandon(); // not reached: both readings take it from the same files
    startedFor = inv;
    if (mode === 'apply') {
      ahead = startInventoryAhead(client, inv, o.options, o.onProgress);
      warmup?.inventoryRead(ahead.cluster);
    }
    if (o.history && (mode === 'apply' || mode === 'destroy'))
      historyRead = readHistoryEntries(client, inv).catch(() => undefined);
  };
  // apply: the lock and the inventory read start from the inventory information alone (the Kptfile and the
  // files that name a ResourceGroup, the others not parsed) while the whole package is still being loaded
  const early =
    mode === 'apply'
      ? readInventoryInfo(dir, { repoRoot: o.repoRoot }).then(
          (info) => info.inventory && info.errors.length === 0 && onInventory(info.inventory),
          () => {}, // the package load reports it
        )
      : undefined;
  try {
    const prepared = await preparePackage(client, dir, {
      repoRoot: o.repoRoot,
      defaultNamespace: o.defaultNamespace,
      inventoryOnly: mode === 'destroy' || mode === 'status',
      onInventory,
      onObjectsRead: warmup?.objectsRead,
    });
    await Promise.all([warm, early]);
    result.prepared = prepared;
    o.onPrepared?.(prepared);
    result.path = prepared.dir;
    result.notices = prepared.notices;
    const inventory = prepared.inventory;
    const emit = o.emit ?? (() => {});
    if (mode === 'preview') {
      result.preview = await computePreview({
        client,
        packagePath: prepared.dir,
        objects: prepared.objects,
        inventory,
        options: o.options,
        context: o.previewContext,
      });
      if (result.preview.summary.error > 0) {
        // what the pre-flight would refuse: exit as for a pre-flight rejection (fatal, nothing changed)
        result.outcome = 'failed';
        result.exitCode = exitCodeOf('error');
      }
      return result;
    }
    if (mode === 'status') {
      const status = await readPackageStatus(client, inventory, { waitForJobs: o.options.waitForJobs });
      result.status = status.objects;
      if (!status.found)
        result.notices.push(
          `no inventory ${inventory.namespace}/${inventory.name} in the cluster: nothing applied yet`,
        );
      if (status.objects.some((s) => s.status === 'Failed')) {
        result.outcome = 'failed';
        result.exitCode = exitCodeOf('failed');
      }
      return result;
    }
    const req = { client, inventory, options: o.options, emit, signal: o.signal, onProgress: o.onProgress };
    const handOver = () => {
      const started = ahead;
      ahead = undefined;
      return started;
    };
    // the history is needed before the run only for the stale-commit guard; otherwise its read goes on
    // while the run starts, and only the record written afterwards waits for it
    const readHistory = async () => {
      const entries = await historyRead;
      const history = entries?.map((e) => e.record);
      if (o.history && !history && !result.notices.includes(HistoryUnreadable))
        result.notices.push(HistoryUnreadable);
      return { entries, history };
    };
    // the stale-commit guard runs while the lock is taken and the cluster read; it refuses the run before
    // its first write, with the pre-flight's plan check
    const commit = mode === 'apply' && !o.history?.allowStale ? o.history?.commit : undefined;
    const staleCheck =
      commit === undefined
        ? undefined
        : Promise.all([readHistory(), commit]).then(
            ([{ history }, c]) => history && c && staleCommitReason(o.repoRoot, c, history),
          );
    staleCheck?.catch(() => {}); // awaited (and its failure reported) before the first write
    const startedAt = new Date().toISOString();
    // the record is written while the lock is released
    const afterRun = async (run: RunResult) => {
      const { entries, history } = await readHistory();
      // a run refused before its first write (pre-flight, empty package, lock) changed nothing: no record
      const changedNothing = run.outcome === 'error' && run.objects.every((x) => x.action === 'none');
      // a destroy that deleted the inventory's Namespace took the history with it
      if (!o.history || !history || changedNothing || run.namespaceDeleted) return;
      // a destroy that deleted the inventory takes the package's history with it
      if (mode === 'destroy' && run.outcome === 'success') {
        await deleteHistory(client, inventory).catch((err) =>
          result.notices.push(`deploy history not deleted: ${(err as Error).message}`),
        );
        return;
      }
      await writeHistory(
        client,
        inventory,
        deployRecord(prepared.dir, mode, o.history, await o.history.commit, startedAt, run),
        o.history.keep,
        entries,
      ).catch((err) => result.notices.push(`deploy history not recorded: ${(err as Error).message}`));
    };
    const run =
      mode === 'apply'
        ? await runApply({
            ...req,
            ahead: handOver(),
            objects: prepared.objects,
            afterRun,
            afterPreflight: async (state) => {
              const stale = await staleCheck;
              if (stale) throw new Error(stale);
              await planCheck(o.onPlanned)?.(state);
            },
          })
        : await runDestroy({ ...req, afterRun });
    result.run = run;
    result.outcome = run.outcome;
    result.error = run.error;
    result.exitCode = exitCodeOf(run.outcome);
    return result;
  } catch (err) {
    await early; // a lock it is still starting is given back too
    await ahead?.abandon();
    result.outcome = 'error';
    result.error = (err as Error).message;
    if (err instanceof PackageFailure) result.packageErrors = err.errors;
    result.exitCode = exitCodeOf('error');
    return result;
  }
}

function deployRecord(
  pkg: string,
  mode: 'apply' | 'destroy',
  h: HistoryOptions,
  commit: string | undefined,
  startedAt: string,
  run: RunResult,
): DeployRecord {
  const notDone = run.objects
    .filter((o) => failed(o))
    .map((o) => `${shortName(o.id)}: ${o.message ?? o.reconcile ?? 'failed'}`);
  return {
    package: pkg,
    mode,
    commit,
    trigger: h.trigger,
    startedAt,
    finishedAt: new Date().toISOString(),
    result: run.outcome,
    counts: countOutcomes(run.objects),
    failed: notDone,
    ...(run.error ? { error: run.error } : {}),
  };
}

/**
 * The plan-drift check, on what the pre-flight decided per object (undefined under `preflight: off`); the
 * configure entries are diffed, which renders YAML.
 */
function planCheck(onPlanned: RunPackageOptions['onPlanned']): ApplyRequest['afterPreflight'] {
  return (
    onPlanned &&
    (async (state) => {
      await loadYaml();
      await onPlanned(plannedActions(state));
    })
  );
}
