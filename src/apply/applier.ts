import { idOf } from '../common/object-id.js';
import { deleteConfigMapInventory } from '../inventory/configmap-inventory.js';
import { ensureResourceGroupCrd } from '../inventory/install-crd.js';
import type { ClusterInventory, InventoryEntry, InventoryRef } from '../inventory/inventory-types.js';
import { writeResourceGroup } from '../inventory/resourcegroup.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { formatPlanErrors } from '../plan/errors.js';
import { taskList } from '../plan/task-list.js';
import { applyWave } from './apply-wave.js';
import type { RunEventSink } from './events.js';
import { group } from './group.js';
import { deleteWaves } from './prune-wave.js';
import type { RunInput } from './run-input.js';
import type { RunOptions } from './run-options.js';
import { failed, fatalResult, finishedResult, type RunResult, runFailed } from './run-result.js';
import { type AskPolicy, finalInventory, newRunState, type RunState, withDecisions } from './run-state.js';
import { waitWave } from './wait-wave.js';

export interface ApplyRequest {
  client: ClusterClient;
  inventory: InventoryRef;
  options: RunOptions;
  /** The manifests, the live state and the plan (pipeline/read-run-input.ts). */
  input: RunInput;
  /** What the cluster's inventory holds (read under the lock); undefined: none yet. */
  cluster?: ClusterInventory;
  /** Whether the ResourceGroup kind is served (when not, the CRD is installed before the first write). */
  rgServed: boolean;
  emit: RunEventSink;
  /** Cancellation (SIGINT/SIGTERM): stop starting work, write the inventory, return `error`. */
  signal?: AbortSignal;
  /** Throttled "still waiting for ..." lines. */
  onProgress?: (line: string) => void;
}

/** A fatal problem: reported once as an error event; nothing (more) is changed. */
export class FatalRunError extends Error {}

/**
 * What stops an apply before it walks: plan errors (invalid depends-on, cycles), and an empty package that
 * would prune everything its inventory owns.
 */
export function checkApplyInput(req: ApplyRequest): void {
  const { plan } = req.input;
  if (plan.errors.length > 0) throw new FatalRunError(formatPlanErrors(plan.errors));
  const pruneCount = plan.pruneWaves.flat().length;
  if (req.input.manifests.size === 0 && pruneCount > 0 && !req.options.allowEmptyPrune) {
    throw new FatalRunError(
      `the package has no objects: applying it would prune all ${pruneCount} object(s) in inventory ` +
        `${req.inventory.namespace}/${req.inventory.name}. Set allow-empty-prune (--allow-empty-prune) if that is ` +
        'what you want, or use destroy',
    );
  }
}

/**
 * The apply walked as a dry run: each object's decision recorded and emitted as kpt prints a dry run
 * (inventory, apply and prune groups, no waits). Sends only dry-runs and reads; never writes. `ask` says which
 * objects the server is asked about: every one for a preview, the pre-flight's policy for a pre-flight walk
 * (which is silent: `emit` a no-op).
 */
export async function dryRunApply(req: ApplyRequest, ask: AskPolicy): Promise<RunState> {
  const state = stateFor(req, { dryRun: true, ask });
  await walk(state, req);
  return state;
}

/**
 * The apply for real (`kpt live apply --server-side` with kpt's inventory): the pre-flight's decisions
 * carried out, wave by wave: the ResourceGroup CRD when missing, the inventory (old ∪ new) before the first
 * object, apply waves with reconcile waits, prune waves (reverse) with waits, the inventory's final set.
 */
export async function carryOutApply(req: ApplyRequest, preflight: RunState): Promise<RunResult> {
  const state = stateFor(req, { dryRun: false, ask: { kind: 'none' }, planned: preflight.decisions });
  try {
    if (!req.rgServed)
      await ensureResourceGroupCrd(req.client, { install: req.options.installResourceGroup });
    await walk(state, req);
    return applyResult(state);
  } catch (err) {
    // what got done is in the outcomes so far; the inventory was written before the first object
    return { ...fatalResult(req.emit, err, withDecisions(state), state.startedAt), plan: state.plan };
  } finally {
    // the waits' watches end with the run
    state.watcher?.stop();
  }
}

/** The result of a walk that got to its end (or was cancelled and saved its inventory). */
export function applyResult(state: RunState): RunResult {
  const objects = withDecisions(state);
  const result = finishedResult(
    objects,
    state.startedAt,
    state.cancelled(),
    runFailed(objects, state.options.allowSkipped),
  );
  return { ...result, plan: state.plan, ...(state.dryRun ? { dryRun: true } : {}) };
}

function stateFor(
  req: ApplyRequest,
  o: { dryRun: boolean; ask: AskPolicy; planned?: RunState['decisions'] },
): RunState {
  return newRunState(
    {
      client: req.client,
      options: req.options,
      inventory: req.inventory,
      emit: req.emit,
      signal: req.signal,
      ...req.input,
      ...o,
    },
    Date.now(),
  );
}

/** kapp's exit-early-on-apply-error: any failed apply or reconcile so far. */
function hasFailure(s: RunState): boolean {
  return [...s.outcomes.values()].some((o) => failed(o, { allowSkipped: true }));
}

/**
 * The task list, in order. A dry run writes nothing and waits for nothing (kpt prints no wait tasks for
 * a dry run); a real run writes the inventory around the objects and waits for each wave.
 */
async function walk(s: RunState, req: ApplyRequest): Promise<void> {
  const tasks = taskList(s.plan, { prune: s.options.prune });
  const shown = tasks.tasks.filter((t) => t.action !== 'Inventory' && !(s.dryRun && t.action === 'Wait'));
  s.emit({ type: 'init', groups: shown });
  let stored = await group(s.emit, tasks.first!.name, 'Inventory', async () =>
    s.dryRun ? undefined : writeUnion(s, req.cluster),
  );
  for (const [i, { act, wait }] of tasks.applyWaves.entries()) {
    if (s.cancelled() || (s.options.exitEarly && hasFailure(s))) break;
    const crds = act.ids.some((id) => id.kind === 'CustomResourceDefinition') && !s.dryRun;
    await group(s.emit, act.name, 'Apply', () => applyWave(s, act.ids, act.name, i));
    if (s.dryRun) continue;
    if (crds) s.client.resetDiscovery();
    await group(s.emit, wait.name, 'Wait', () => waitWave(s, wait.ids, wait.name, 'Current', req.onProgress));
    if (crds) s.client.resetDiscovery();
  }
  if (!(s.options.exitEarly && hasFailure(s))) {
    await deleteWaves(s, tasks.deleteWaves, 'prune', req.onProgress);
  }
  await group(s.emit, tasks.last.name, 'Inventory', async () => {
    if (s.dryRun) return;
    stored = await writeResourceGroup(s.client, s.inventory, finalInventory(s), stored, {
      status: s.options.statusPolicy === 'all',
    });
  });
  if (!s.dryRun && req.cluster?.kind === 'ConfigMap')
    await deleteConfigMapInventory(s.client, req.cluster.object);
}

/** The inventory before anything is created: what it held and everything the package adds, so a crash orphans nothing. */
function writeUnion(s: RunState, cluster: ClusterInventory | undefined) {
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
  return writeResourceGroup(
    s.client,
    s.inventory,
    [...union.values()],
    cluster?.kind === 'ResourceGroup' ? cluster.object : undefined,
    // the entries get their statuses in the final write (kpt also writes `Pending` ones here: one more
    // round trip before the first object, for a status nothing reads mid-run)
    { status: false },
  );
}
