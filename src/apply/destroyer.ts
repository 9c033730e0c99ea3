import { idKey, type ObjectId } from '../common/object-id.js';
import { deleteConfigMapInventory } from '../inventory/configmap-inventory.js';
import { acquireInventoryLock } from '../inventory/inventory-lock.js';
import { readClusterInventory } from '../inventory/read-inventory.js';
import { deleteResourceGroup, writeResourceGroup } from '../inventory/resourcegroup.js';
import { buildPlan } from '../plan/plan.js';
import { taskList, taskName } from '../plan/task-list.js';
import type { ApplyRequest } from './applier.js';
import { group } from './group.js';
import {
  keepInventoryNamespace,
  ownInventoryNamespace,
  removeInventoryNamespace,
} from './inventory-namespace.js';
import { readLiveSnapshot } from './live-snapshot.js';
import { type RunHold, runHoldingLock } from './locked-run.js';
import { pruneWave } from './prune-wave.js';
import { failed, fatalResult, finishedResult, type RunResult, runFailed } from './run-result.js';
import { finalInventory, newRunState, type RunState } from './run-state.js';
import { waitWave } from './wait-wave.js';

export type DestroyRequest = Omit<ApplyRequest, 'objects'>;

/**
 * Deletes everything the inventory lists, in reverse dependency waves, waiting for each wave to be gone.
 * The inventory itself is deleted only when every delete succeeded; otherwise it keeps what remains.
 */
export async function runDestroy(req: DestroyRequest): Promise<RunResult> {
  const startedAt = Date.now();
  return runHoldingLock(req.afterRun, (hold) => destroyLocked(req, startedAt, hold));
}

async function destroyLocked(req: DestroyRequest, startedAt: number, hold: RunHold): Promise<RunResult> {
  let state: RunState | undefined;
  try {
    hold.locked(
      await acquireInventoryLock(req.client, req.inventory, {
        timeoutMs: req.options.lockTimeoutMs,
        leaseSeconds: req.options.lockLeaseSeconds,
      }),
    );
    const cluster = await readClusterInventory(req.client, req.inventory);
    if (!cluster) return { outcome: 'success', objects: [], durationMs: Date.now() - startedAt };
    const previous = new Map<string, ObjectId>(cluster.ids.map((id) => [idKey(id), id]));
    const live = await readLiveSnapshot(req.client, cluster.ids, { concurrency: req.options.concurrency });
    // the inventory's own Namespace (declared by the package, owned by this inventory) goes last, after
    // the inventory in it, and only when nothing else is left in it
    const ownNs = ownInventoryNamespace({ inventory: req.inventory, previous, live });
    const nsKey = ownNs && idKey(ownNs);
    const existing = [...previous.keys()].filter((k) => live.get(k) && k !== nsKey).map((k) => live.get(k)!);
    const plan = buildPlan({ apply: [], prune: existing, destroy: true });
    const s = newRunState(
      {
        client: req.client,
        options: req.options,
        inventory: req.inventory,
        emit: req.emit,
        signal: req.signal,
        plan,
        manifests: new Map(),
        sources: new Map(),
        live,
        previous,
      },
      startedAt,
    );
    state = s;
    hold.prepared(s);
    const tasks = taskList(plan, { prune: true });
    // the inventory's own Namespace gets one more delete/wait pair after the inventory (see below)
    const n = tasks.deleteWaves.length;
    const nsTasks = ownNs
      ? [
          { name: taskName.delete(n), action: 'Delete' as const, ids: [ownNs] },
          { name: taskName.wait(n), action: 'Wait' as const, ids: [ownNs] },
        ]
      : [];
    req.emit({
      type: 'init',
      groups: [...tasks.tasks.filter((t) => t.action !== 'Inventory'), ...nsTasks],
    });
    for (const { act, wait } of tasks.deleteWaves) {
      if (s.cancelled()) break;
      await group(req.emit, act.name, 'Delete', () => pruneWave(s, act.ids, act.name, 'delete'));
      await group(req.emit, wait.name, 'Wait', () =>
        waitWave(s, wait.ids, wait.name, 'NotFound', req.onProgress),
      );
    }
    // the inventory goes when it would list nothing more (objects not deleted, e.g. owned by another
    // inventory, stay in it, as kpt keeps them) and nothing failed
    const remaining = finalInventory(s).filter((e) => idKey(e.id) !== nsKey);
    const anyFailed = [...s.outcomes.values()].some((o) => failed(o, { allowSkipped: true }));
    const dropInventory = !anyFailed && !s.cancelled() && remaining.length === 0;
    await group(req.emit, tasks.last.name, 'Inventory', async () => {
      if (dropInventory) {
        if (cluster.kind === 'ResourceGroup')
          await deleteResourceGroup(req.client, req.inventory, cluster.object.metadata.uid);
        else await deleteConfigMapInventory(req.client, cluster.object);
      } else if (cluster.kind === 'ResourceGroup') {
        await writeResourceGroup(req.client, req.inventory, finalInventory(s), cluster.object, {
          status: req.options.statusPolicy === 'all',
        });
      }
    });
    if (ownNs && !s.cancelled()) {
      const [del, wait] = nsTasks as [(typeof nsTasks)[0], (typeof nsTasks)[0]];
      await group(req.emit, del.name, 'Delete', async () => {
        if (dropInventory) await removeInventoryNamespace(s, ownNs, del.name);
        else keepInventoryNamespace(s, ownNs, del.name);
      });
      await group(req.emit, wait.name, 'Wait', () =>
        waitWave(s, [ownNs], wait.name, 'NotFound', req.onProgress),
      );
    }
    const objects = [...s.outcomes.values()];
    const result = finishedResult(
      objects,
      startedAt,
      s.cancelled(),
      runFailed(objects, req.options.allowSkipped),
    );
    // the deploy history lived in that Namespace: there is nowhere left to record this run
    if (nsKey && s.deleted.has(nsKey)) result.namespaceDeleted = req.inventory.namespace;
    return result;
  } catch (err) {
    return fatalResult(req.emit, err, state ? [...state.outcomes.values()] : [], startedAt);
  }
}
