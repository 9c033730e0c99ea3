import { idKey, type ObjectId } from '../common/object-id.js';
import { deleteConfigMapInventory } from '../inventory/configmap-inventory.js';
import type { ClusterInventory, InventoryRef } from '../inventory/inventory-types.js';
import { deleteResourceGroup, writeResourceGroup } from '../inventory/resourcegroup.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { buildPlan } from '../plan/plan.js';
import { taskList, taskName } from '../plan/task-list.js';
import type { RunEventSink } from './events.js';
import { group } from './group.js';
import {
  keepInventoryNamespace,
  ownInventoryNamespace,
  removeInventoryNamespace,
} from './inventory-namespace.js';
import type { LiveSnapshot } from './live-snapshot.js';
import { deleteWaves } from './prune-wave.js';
import type { RunOptions } from './run-options.js';
import { failed, finishedResult, type RunResult, runFailed } from './run-result.js';
import { finalInventory, newRunState, type RunState, withDecisions } from './run-state.js';
import { waitWave } from './wait-wave.js';

export interface DestroyRequest {
  client: ClusterClient;
  inventory: InventoryRef;
  options: RunOptions;
  /** The cluster's inventory (read under the lock) and the live state of what it lists. */
  cluster: ClusterInventory;
  live: LiveSnapshot;
  /** Delete nothing: say what destroy would do, object by object (`destroy --dry-run`). */
  dryRun: boolean;
  emit: RunEventSink;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
}

/**
 * Deletes everything the inventory lists, in reverse dependency waves, waiting for each wave to be gone,
 * through the same prune decision as apply's prune (an `on-remove: keep` object is kept, another
 * inventory's is skipped). The inventory itself is deleted only when every delete succeeded; otherwise it
 * keeps what remains. As a dry run, the same walk decides and reports, and deletes and writes nothing.
 */
export async function runDestroy(req: DestroyRequest): Promise<RunResult> {
  const { cluster, live } = req;
  const previous = new Map<string, ObjectId>(cluster.ids.map((id) => [idKey(id), id]));
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
      dryRun: req.dryRun,
      plan,
      manifests: new Map(),
      sources: new Map(),
      live,
      previous,
    },
    Date.now(),
  );
  try {
    const tasks = taskList(plan, { prune: true });
    // the inventory's own Namespace gets one more delete/wait pair after the inventory (see below)
    const n = tasks.deleteWaves.length;
    const nsTasks = ownNs
      ? [
          { name: taskName.delete(n), action: 'Delete' as const, ids: [ownNs] },
          { name: taskName.wait(n), action: 'Wait' as const, ids: [ownNs] },
        ]
      : [];
    const shown = [...tasks.tasks, ...nsTasks].filter(
      (t) => t.action !== 'Inventory' && !(s.dryRun && t.action === 'Wait'),
    );
    req.emit({ type: 'init', groups: shown });
    await deleteWaves(s, tasks.deleteWaves, 'delete', req.onProgress);
    // the inventory goes when it would list nothing more (objects not deleted, e.g. owned by another
    // inventory, stay in it, as kpt keeps them) and nothing failed
    const remaining = finalInventory(s).filter((e) => idKey(e.id) !== nsKey);
    const anyFailed = [...s.outcomes.values()].some((o) => failed(o, { allowSkipped: true }));
    const dropInventory = !anyFailed && !s.cancelled() && remaining.length === 0;
    await group(req.emit, tasks.last.name, 'Inventory', async () => {
      if (s.dryRun) return;
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
    if (ownNs && !s.cancelled()) await destroyOwnNamespace(s, ownNs, nsTasks, dropInventory, req.onProgress);
    const objects = withDecisions(s);
    const result = finishedResult(
      objects,
      s.startedAt,
      s.cancelled(),
      runFailed(objects, req.options.allowSkipped),
    );
    // the deploy history lived in that Namespace: there is nowhere left to record this run
    if (nsKey && s.deleted.has(nsKey) && !s.dryRun) result.namespaceDeleted = req.inventory.namespace;
    return { ...result, plan, ...(s.dryRun ? { dryRun: true } : {}) };
  } finally {
    // the waits' watches end with the run
    s.watcher?.stop();
  }
}

async function destroyOwnNamespace(
  s: RunState,
  ownNs: ObjectId,
  nsTasks: { name: string }[],
  dropInventory: boolean,
  onProgress: DestroyRequest['onProgress'],
): Promise<void> {
  const [del, wait] = nsTasks as [{ name: string }, { name: string }];
  await group(s.emit, del.name, 'Delete', async () => {
    if (dropInventory) await removeInventoryNamespace(s, ownNs, del.name);
    else keepInventoryNamespace(s, ownNs, del.name);
  });
  if (s.dryRun) return;
  await group(s.emit, wait.name, 'Wait', () => waitWave(s, [ownNs], wait.name, 'NotFound', onProgress));
}
