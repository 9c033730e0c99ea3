import type { KubeObject } from '../common/kube-object.js';
import { idOf } from '../common/object-id.js';
import type { SourceRef } from '../common/source-ref.js';
import { deleteConfigMapInventory } from '../inventory/configmap-inventory.js';
import { ensureResourceGroupCrd } from '../inventory/install-crd.js';
import type { ClusterInventory, InventoryEntry, InventoryRef } from '../inventory/inventory-types.js';
import { writeResourceGroup } from '../inventory/resourcegroup.js';
import { KubeApiError } from '../kube/api-error.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { formatPlanErrors } from '../plan/errors.js';
import { taskList } from '../plan/task-list.js';
import { withOwningInventory } from './apply-object.js';
import { applyWave } from './apply-wave.js';
import { type EarlyDryRuns, startEarlyDryRuns } from './early-dry-run.js';
import type { RunEventSink } from './events.js';
import { group } from './group.js';
import { type InventoryAhead, startInventoryAhead } from './inventory-ahead.js';
import { type RunHold, runHoldingLock } from './locked-run.js';
import { formatRejections, preflight } from './preflight.js';
import { pruneWave } from './prune-wave.js';
import { readRunInput } from './run-input.js';
import type { RunOptions } from './run-options.js';
import { failed, fatalResult, finishedResult, type RunResult, runFailed } from './run-result.js';
import { finalInventory, newRunState, type RunState } from './run-state.js';
import { waitWave } from './wait-wave.js';

export interface ApplyRequest {
  client: ClusterClient;
  /** Validated, namespace-defaulted package objects. */
  objects: { object: KubeObject; source?: SourceRef }[];
  inventory: InventoryRef;
  options: RunOptions;
  emit: RunEventSink;
  /** Cancellation (SIGINT/SIGTERM): stop starting work, write the inventory, return `error`. */
  signal?: AbortSignal;
  /** Throttled "still waiting for ..." lines. */
  onProgress?: (line: string) => void;
  /** Work on the result (the deploy record) that runs while the lock is released; it must not throw. */
  afterRun?: (result: RunResult) => Promise<void>;
  /**
   * Called after the pre-flight, before the first write, with the state the pre-flight leaves (read it,
   * do not change it: `plannedActions` turns it into plan entries); throwing refuses the run with nothing
   * changed (plan-drift: fail).
   */
  afterPreflight?: (state: RunState) => void | Promise<void>;
  /** The lock and inventory read, already started (startInventoryAhead) while the package was checked. */
  ahead?: InventoryAhead;
}

/** A fatal problem: reported once as an error event; nothing (more) is changed. */
export class FatalRunError extends Error {}

/**
 * Makes the cluster match the package, as `kpt live apply --server-side` does, with kpt's inventory:
 * lock → read inventory → plan → pre-flight dry-run → CRD (if missing) → inventory (union) → apply waves with waits →
 * prune waves (reverse) with waits → inventory (final set) → unlock.
 */
export async function runApply(req: ApplyRequest): Promise<RunResult> {
  const startedAt = Date.now();
  return runHoldingLock(req.afterRun, (hold) => applyLocked(req, startedAt, hold));
}

async function applyLocked(req: ApplyRequest, startedAt: number, hold: RunHold): Promise<RunResult> {
  let state: RunState | undefined;
  try {
    let ahead = req.ahead ?? startInventoryAhead(req.client, req.inventory, req.options, req.onProgress);
    // the inventory namespace nearly always exists: look at it only when the lock's Lease cannot be created
    hold.locked(
      await ahead.lock.catch(async (err: unknown) => {
        if (!(err instanceof KubeApiError && err.code === 404)) throw err;
        await ensureInventoryNamespace(req);
        ahead = startInventoryAhead(req.client, req.inventory, req.options, req.onProgress);
        return ahead.lock;
      }),
    );
    // no ResourceGroup kind yet means no inventory yet; the CRD is installed after the pre-flight
    const rgServed = await ahead.served;
    const clusterRead = ahead.cluster;
    state = await prepareState(req, clusterRead, startedAt);
    hold.prepared(state);
    // the objects not in the cluster are created together after the pre-flight and the inventory write:
    // their connections open during those round trips, not in the first ones of the burst
    let creates = 0;
    for (const key of state.manifests.keys()) if (state.live.get(key) === null) creates++;
    req.client.warm(Math.min(creates, req.options.concurrency));
    const cluster = await clusterRead;
    const s = state;

    if (s.plan.errors.length > 0) throw new FatalRunError(formatPlanErrors(s.plan.errors));
    const pruneCount = s.plan.pruneWaves.flat().length;
    if (req.objects.length === 0 && pruneCount > 0 && !req.options.allowEmptyPrune) {
      throw new FatalRunError(
        `the package has no objects: applying it would prune all ${pruneCount} object(s) in inventory ` +
          `${req.inventory.namespace}/${req.inventory.name}. Set allow-empty-prune (--allow-empty-prune) if that is ` +
          'what you want, or use destroy',
      );
    }
    const rejections = req.options.preflight === 'off' ? [] : await preflight(s);
    if (rejections.length > 0) throw new FatalRunError(formatRejections(s, rejections));
    if (req.afterPreflight) await req.afterPreflight(s);

    if (!rgServed) await ensureResourceGroupCrd(req.client, { install: req.options.installResourceGroup });
    const tasks = taskList(s.plan, { prune: req.options.prune });
    req.emit({ type: 'init', groups: tasks.tasks.filter((t) => t.action !== 'Inventory') });
    // the union goes in before anything is created, so a crash can never orphan an object
    const union = new Map<string, InventoryEntry>();
    for (const [k, id] of s.previous)
      union.set(k, {
        id,
        strategy: s.manifests.has(k) ? 'Apply' : 'Delete',
        actuation: 'Pending',
        reconcile: 'Pending',
      });
    for (const [k, m] of s.manifests)
      union.set(k, { id: idOf(m), strategy: 'Apply', actuation: 'Pending', reconcile: 'Pending' });
    let stored = await group(req.emit, tasks.first!.name, 'Inventory', () =>
      writeResourceGroup(
        req.client,
        req.inventory,
        [...union.values()],
        cluster?.kind === 'ResourceGroup' ? cluster.object : undefined,
        // the entries get their statuses in the final write (kpt also writes `Pending` ones here: one
        // more round trip before the first object, for a status nothing reads mid-run)
        { status: false },
      ),
    );

    for (const [i, { act, wait }] of tasks.applyWaves.entries()) {
      if (s.cancelled() || (req.options.exitEarly && hasFailure(s))) break;
      const crds = act.ids.some((id) => id.kind === 'CustomResourceDefinition');
      await group(req.emit, act.name, 'Apply', () => applyWave(s, act.ids, act.name, i));
      if (crds) req.client.resetDiscovery();
      await group(req.emit, wait.name, 'Wait', () =>
        waitWave(s, wait.ids, wait.name, 'Current', req.onProgress),
      );
      if (crds) req.client.resetDiscovery();
    }
    if (!(req.options.exitEarly && hasFailure(s))) {
      for (const { act, wait } of tasks.deleteWaves) {
        if (s.cancelled()) break;
        await group(req.emit, act.name, 'Prune', () => pruneWave(s, act.ids, act.name, 'prune'));
        await group(req.emit, wait.name, 'Wait', () =>
          waitWave(s, wait.ids, wait.name, 'NotFound', req.onProgress),
        );
      }
    }
    stored = await group(req.emit, tasks.last.name, 'Inventory', () =>
      writeResourceGroup(req.client, req.inventory, finalInventory(s), stored, {
        status: req.options.statusPolicy === 'all',
      }),
    );
    if (cluster?.kind === 'ConfigMap') await deleteConfigMapInventory(req.client, cluster.object);

    const objects = [...s.outcomes.values()];
    return finishedResult(objects, startedAt, s.cancelled(), runFailed(objects, req.options.allowSkipped));
  } catch (err) {
    return fatalResult(req.emit, err, state ? [...state.outcomes.values()] : [], startedAt);
  }
}

/** kapp's exit-early-on-apply-error: any failed apply or reconcile so far. */
function hasFailure(s: RunState): boolean {
  return [...s.outcomes.values()].some((o) => failed(o, { allowSkipped: true }));
}

async function ensureInventoryNamespace(req: ApplyRequest): Promise<void> {
  const ns = req.inventory.namespace;
  const ref = { apiVersion: 'v1', group: '', kind: 'Namespace', namespace: '', name: ns };
  let exists: boolean;
  try {
    exists = !!(await req.client.get(ref));
  } catch {
    return; // may not read namespaces (a namespace-scoped user): the inventory write will tell
  }
  if (exists) return;
  const inPackage = req.objects.find(
    (o) => o.object.kind === 'Namespace' && o.object.apiVersion === 'v1' && o.object.metadata.name === ns,
  );
  if (!inPackage)
    throw new FatalRunError(
      `inventory namespace "${ns}" does not exist: create it, or add it to the package`,
    );
  // kpt's InvAddTask: the inventory's own Namespace is created first
  await req.client.apply(withOwningInventory(inPackage.object, req.inventory.id), {
    fieldManager: req.options.fieldManager,
  });
}

async function prepareState(
  req: ApplyRequest,
  cluster: Promise<ClusterInventory | undefined> | undefined,
  startedAt: number,
): Promise<RunState> {
  const ids = cluster ? cluster.then((c) => c?.ids ?? []) : [];
  let early: EarlyDryRuns | undefined;
  const input = await readRunInput(req.client, req.objects, req.inventory, ids, {
    concurrency: req.options.concurrency,
    includePrune: true,
    onManifests: (manifests) => {
      early = startEarlyDryRuns(req.client, manifests, Promise.resolve(ids), req.options);
    },
  });
  return newRunState(
    {
      client: req.client,
      options: req.options,
      inventory: req.inventory,
      emit: req.emit,
      signal: req.signal,
      early,
      ...input,
    },
    startedAt,
  );
}
