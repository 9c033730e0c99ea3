import type { ActuationStatus, ApplyOperation, GroupAction, RunEvent } from '../apply/events.js';
import { readLiveSnapshot } from '../apply/live-snapshot.js';
import type { KubeObject } from '../common/kube-object.js';
import { idKey } from '../common/object-id.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import { readClusterInventory } from '../inventory/read-inventory.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { buildPlan } from '../plan/plan.js';
import { taskName } from '../plan/task-list.js';
import type { PreviewDocument, PreviewObject } from '../preview/types.js';

/**
 * `apply --dry-run` and `destroy --dry-run`: what the run would do, as the events kpt prints for its own
 * dry-run (inventory groups, one apply group per wave, prune groups, no reconcile waits), built from the
 * preview's server-side dry-run so the verdicts are the server's.
 */

const OPERATION: Partial<Record<PreviewObject['action'], ApplyOperation>> = {
  create: 'created',
  configure: 'configured',
  replace: 'replaced',
  unchanged: 'unchanged',
};

function groupEvents(name: string, action: GroupAction, body: RunEvent[]): RunEvent[] {
  return [
    { type: 'group', name, action, status: 'Started' },
    ...body,
    { type: 'group', name, action, status: 'Finished' },
  ];
}

function byWave(objects: readonly PreviewObject[]): PreviewObject[][] {
  const waves = new Map<number, PreviewObject[]>();
  for (const o of objects) {
    const w = o.wave ?? 1;
    waves.set(w, [...(waves.get(w) ?? []), o]);
  }
  return [...waves.entries()].sort(([a], [b]) => a - b).map(([, objs]) => objs);
}

/**
 * Splits a preview's objects into apply and prune objects. The preview lists every object of the apply
 * waves first, then the prune candidates; when the counts do not add up, the action decides.
 */
export function splitPreview(doc: PreviewDocument): { apply: PreviewObject[]; prune: PreviewObject[] } {
  const applyCount = doc.waves.reduce((n, w) => n + w.length, 0);
  if (applyCount <= doc.objects.length) {
    return { apply: doc.objects.slice(0, applyCount), prune: doc.objects.slice(applyCount) };
  }
  const isPrune = (o: PreviewObject) => o.action === 'prune' || o.action === 'orphan';
  return { apply: doc.objects.filter((o) => !isPrune(o)), prune: doc.objects.filter(isPrune) };
}

/** The events kpt prints for `kpt live apply --dry-run`, from a preview document. */
export function previewEvents(doc: PreviewDocument): RunEvent[] {
  const { apply, prune } = splitPreview(doc);
  const events: RunEvent[] = groupEvents(taskName.inventoryAdd, 'Inventory', []);
  for (const [i, wave] of byWave(apply).entries()) {
    const body = wave.map((o): RunEvent => {
      const status: ActuationStatus =
        o.action === 'error' ? 'Failed' : o.action === 'skip' ? 'Skipped' : 'Successful';
      const event: RunEvent = { type: 'apply', group: taskName.apply(i), id: o.id, status };
      if (status === 'Successful') event.operation = OPERATION[o.action];
      else if (o.reason) event.error = o.reason;
      return event;
    });
    events.push(...groupEvents(taskName.apply(i), 'Apply', body));
  }
  for (const [j, wave] of byWave(prune).entries()) {
    const body = wave.map((o): RunEvent => {
      const status: ActuationStatus =
        o.action === 'prune' ? 'Successful' : o.action === 'error' ? 'Failed' : 'Skipped';
      return status === 'Successful' || !o.reason
        ? { type: 'prune', group: taskName.prune(j), id: o.id, status }
        : { type: 'prune', group: taskName.prune(j), id: o.id, status, error: o.reason };
    });
    events.push(...groupEvents(taskName.prune(j), 'Prune', body));
  }
  events.push(...groupEvents(taskName.inventorySet, 'Inventory', []));
  return events;
}

/**
 * The events of `destroy --dry-run`: the inventory's objects that still exist, in the order destroy would
 * delete them. Nothing is changed and nothing is locked.
 */
export async function destroyPreviewEvents(
  client: ClusterClient,
  inventory: InventoryRef,
): Promise<RunEvent[]> {
  const cluster = await readClusterInventory(client, inventory);
  if (!cluster) return [];
  const live = await readLiveSnapshot(client, cluster.ids, { full: true });
  const existing = cluster.ids.map((id) => live.get(idKey(id))).filter((o): o is KubeObject => !!o);
  const plan = buildPlan({ apply: [], prune: existing, destroy: true });
  const events: RunEvent[] = [];
  for (const [i, wave] of plan.pruneWaves.entries()) {
    const body = wave.map(
      (id): RunEvent => ({ type: 'delete', group: taskName.delete(i), id, status: 'Successful' }),
    );
    events.push(...groupEvents(taskName.delete(i), 'Delete', body));
  }
  events.push(...groupEvents(taskName.inventoryDelete, 'Inventory', []));
  return events;
}
