import { ResourceGroupApiVersion, ResourceGroupKind } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import { deleteConfigMapInventory } from '../inventory/configmap-inventory.js';
import { ensureResourceGroupCrd } from '../inventory/install-crd.js';
import { acquireInventoryLock, type InventoryLock } from '../inventory/inventory-lock.js';
import type { ClusterInventory, InventoryEntry, InventoryRef } from '../inventory/inventory-types.js';
import { readClusterInventory } from '../inventory/read-inventory.js';
import { writeResourceGroup } from '../inventory/resourcegroup.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { formatPlanErrors } from '../plan/errors.js';
import { idKey, idOf, type ObjectId } from '../plan/object-id.js';
import { buildPlan } from '../plan/plan.js';
import type { SourceRef } from '../preview/types.js';
import { withOwningInventory } from './apply-object.js';
import { applyWave } from './apply-wave.js';
import type { GroupAction, RunEventSink } from './events.js';
import { group } from './group.js';
import { readLiveSnapshot } from './live-snapshot.js';
import { formatRejections, preflight } from './preflight.js';
import { pruneWave } from './prune-wave.js';
import type { RunOptions } from './run-options.js';
import type { RunResult } from './run-result.js';
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
  let lock: InventoryLock | undefined;
  let state: RunState | undefined;
  try {
    await ensureInventoryNamespace(req);
    lock = await acquireInventoryLock(req.client, req.inventory, {
      timeoutMs: req.options.lockTimeoutMs,
      leaseSeconds: req.options.lockLeaseSeconds,
      onWait: (holder) =>
        req.onProgress?.(`waiting for another run of this package to finish (lock held by ${holder})`),
    });
    // no ResourceGroup kind yet means no inventory yet; the CRD is installed after the pre-flight
    const rgServed = !!(await req.client.resolve(ResourceGroupApiVersion, ResourceGroupKind));
    const cluster = rgServed ? await readClusterInventory(req.client, req.inventory) : undefined;
    state = await prepareState(req, cluster, startedAt);
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
    const rejections = await preflight(s);
    if (rejections.length > 0) throw new FatalRunError(formatRejections(s, rejections));

    if (!rgServed) await ensureResourceGroupCrd(req.client, { install: req.options.installResourceGroup });
    req.emit({ type: 'init', groups: groupsOf(s) });
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
    let stored = await group(req.emit, 'inventory-add-0', 'Inventory', () =>
      writeResourceGroup(
        req.client,
        req.inventory,
        [...union.values()],
        cluster?.kind === 'ResourceGroup' ? cluster.object : undefined,
      ),
    );

    for (const [i, wave] of s.plan.applyWaves.entries()) {
      if (s.cancelled() || (req.options.exitEarly && hasFailure(s))) break;
      await group(req.emit, `apply-${i}`, 'Apply', () => applyWave(s, wave, `apply-${i}`, i));
      if (wave.some((id) => id.kind === 'CustomResourceDefinition')) req.client.resetDiscovery();
      await group(req.emit, `wait-${i}`, 'Wait', () =>
        waitWave(s, wave, `wait-${i}`, 'Current', req.onProgress),
      );
      if (wave.some((id) => id.kind === 'CustomResourceDefinition')) req.client.resetDiscovery();
    }
    if (req.options.prune && !(req.options.exitEarly && hasFailure(s))) {
      const base = s.plan.applyWaves.length;
      for (const [j, wave] of s.plan.pruneWaves.entries()) {
        if (s.cancelled()) break;
        await group(req.emit, `prune-${j}`, 'Prune', () => pruneWave(s, wave, `prune-${j}`, 'prune'));
        await group(req.emit, `wait-${base + j}`, 'Wait', () =>
          waitWave(s, wave, `wait-${base + j}`, 'NotFound', req.onProgress),
        );
      }
    }
    stored = await group(req.emit, 'inventory-set-0', 'Inventory', () =>
      writeResourceGroup(req.client, req.inventory, finalInventory(s), stored),
    );
    if (cluster?.kind === 'ConfigMap') await deleteConfigMapInventory(req.client, cluster.object);

    const objects = [...s.outcomes.values()];
    if (s.cancelled())
      return {
        outcome: 'error',
        error: 'cancelled: stopped starting new work and saved the inventory',
        objects,
        durationMs: Date.now() - startedAt,
      };
    const failed = objects.some(
      (o) =>
        o.action === 'failed' ||
        o.reconcile === 'Failed' ||
        o.reconcile === 'Timeout' ||
        isDependencySkip(o.message),
    );
    return { outcome: failed ? 'failed' : 'success', objects, durationMs: Date.now() - startedAt };
  } catch (err) {
    const message = (err as Error).message;
    req.emit({ type: 'error', error: message });
    return {
      outcome: 'error',
      error: message,
      objects: state ? [...state.outcomes.values()] : [],
      durationMs: Date.now() - startedAt,
    };
  } finally {
    state?.watcher?.stop();
    await lock?.release();
  }
}

/** kapp's exit-early-on-apply-error: any failed apply or reconcile so far. */
function hasFailure(s: RunState): boolean {
  for (const o of s.outcomes.values())
    if (o.action === 'failed' || o.reconcile === 'Failed' || o.reconcile === 'Timeout') return true;
  return false;
}

/** A skip because a dependency failed counts as a failure (contract: exit 3). */
function isDependencySkip(message: string | undefined): boolean {
  return !!message && /^dependency (apply|delete) (actuation|reconcile) (failed|timeout)/.test(message);
}

function groupsOf(s: RunState) {
  const groups: { name: string; action: GroupAction; ids: ObjectId[] }[] = [];
  for (const [i, w] of s.plan.applyWaves.entries()) {
    groups.push(
      { name: `apply-${i}`, action: 'Apply', ids: w },
      { name: `wait-${i}`, action: 'Wait', ids: w },
    );
  }
  if (s.options.prune) {
    const base = s.plan.applyWaves.length;
    for (const [j, w] of s.plan.pruneWaves.entries()) {
      groups.push(
        { name: `prune-${j}`, action: 'Prune', ids: w },
        { name: `wait-${base + j}`, action: 'Wait', ids: w },
      );
    }
  }
  return groups;
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
  cluster: ClusterInventory | undefined,
  startedAt: number,
): Promise<RunState> {
  const manifests = new Map<string, KubeObject>();
  const sources = new Map<string, SourceRef>();
  for (const o of req.objects) {
    const key = idKey(idOf(o.object));
    manifests.set(key, withOwningInventory(o.object, req.inventory.id));
    if (o.source) sources.set(key, o.source);
  }
  const previous = new Map<string, ObjectId>((cluster?.ids ?? []).map((id) => [idKey(id), id]));
  const refs = [
    ...[...manifests.values()].map((m) => ({ ...idOf(m), apiVersion: m.apiVersion })),
    ...[...previous].filter(([k]) => !manifests.has(k)).map(([, id]) => id),
  ];
  // whole objects (not metadata only): the pre-flight compares its dry-runs with them to skip no-op applies
  const live = await readLiveSnapshot(req.client, refs, { full: true, concurrency: req.options.concurrency });
  // prune candidates: in the inventory, not in the package, still in the cluster (unknown kinds are dropped)
  const prune = [...previous].filter(([k]) => !manifests.has(k) && live.get(k)).map(([k]) => live.get(k)!);
  const plan = buildPlan({ apply: [...manifests.values()], prune });
  return newRunState(
    {
      client: req.client,
      options: req.options,
      inventory: req.inventory,
      emit: req.emit,
      signal: req.signal,
      plan,
      manifests,
      sources,
      live,
      previous,
    },
    startedAt,
  );
}
