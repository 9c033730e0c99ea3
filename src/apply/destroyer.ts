import { deleteConfigMapInventory } from '../inventory/configmap-inventory.js';
import { acquireInventoryLock } from '../inventory/inventory-lock.js';
import { readClusterInventory } from '../inventory/read-inventory.js';
import { deleteResourceGroup, writeResourceGroup } from '../inventory/resourcegroup.js';
import { idKey, type ObjectId } from '../plan/object-id.js';
import { buildPlan } from '../plan/plan.js';
import { taskList } from '../plan/task-list.js';
import type { ApplyRequest } from './applier.js';
import { group } from './group.js';
import { readLiveSnapshot } from './live-snapshot.js';
import { type RunHold, runHoldingLock } from './locked-run.js';
import { pruneWave } from './prune-wave.js';
import { fatalResult, finishedResult, isFailedOutcome, type RunResult } from './run-result.js';
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
    const existing = [...previous.keys()].filter((k) => live.get(k)).map((k) => live.get(k)!);
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
    req.emit({ type: 'init', groups: tasks.tasks.filter((t) => t.action !== 'Inventory') });
    for (const { act, wait } of tasks.deleteWaves) {
      if (s.cancelled()) break;
      await group(req.emit, act.name, 'Delete', () => pruneWave(s, act.ids, act.name, 'delete'));
      await group(req.emit, wait.name, 'Wait', () =>
        waitWave(s, wait.ids, wait.name, 'NotFound', req.onProgress),
      );
    }
    const objects = [...s.outcomes.values()];
    const failed = objects.some(isFailedOutcome);
    await group(req.emit, tasks.last.name, 'Inventory', async () => {
      if (!failed && !s.cancelled()) {
        if (cluster.kind === 'ResourceGroup')
          await deleteResourceGroup(req.client, req.inventory, cluster.object.metadata.uid);
        else await deleteConfigMapInventory(req.client, cluster.object);
      } else if (cluster.kind === 'ResourceGroup') {
        await writeResourceGroup(req.client, req.inventory, finalInventory(s), cluster.object);
      }
    });
    return finishedResult(objects, startedAt, s.cancelled(), failed);
  } catch (err) {
    return fatalResult(req.emit, err, state ? [...state.outcomes.values()] : [], startedAt);
  }
}
