import type { KubeObject } from '../common/kube-object.js';
import { idKey, idOf, type ObjectId } from '../common/object-id.js';
import type { SourceRef } from '../common/source-ref.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { buildPlan, type Plan } from '../plan/plan.js';
import { withOwningInventory } from './apply-object.js';
import { LiveReader, type LiveSnapshot } from './live-snapshot.js';

/** What apply and preview start from: the manifests to send, the live state, and the plan. */
export interface RunInput {
  /** Package objects by idKey, with the owning-inventory annotation added. */
  manifests: Map<string, KubeObject>;
  sources: Map<string, SourceRef>;
  /** Ids the cluster inventory listed before this run. */
  previous: Map<string, ObjectId>;
  live: LiveSnapshot;
  plan: Plan;
}

/**
 * Reads the live objects of the package and of the inventory (whole objects: the pre-flight and preview
 * compare dry-runs with them) and plans waves over them. Prune candidates are inventory objects no longer
 * in the package that still exist (unknown kinds are dropped, as kpt does). The package's objects are
 * read while `clusterIds` (the inventory read) is still on its way; then only what the inventory adds.
 */
export async function readRunInput(
  client: ClusterClient,
  objects: { object: KubeObject; source?: SourceRef }[],
  inventory: InventoryRef,
  clusterIds: ObjectId[] | Promise<ObjectId[]>,
  options: { concurrency: number },
): Promise<RunInput> {
  const manifests = new Map<string, KubeObject>();
  const sources = new Map<string, SourceRef>();
  for (const o of objects) {
    const key = idKey(idOf(o.object));
    manifests.set(key, withOwningInventory(o.object, inventory.id));
    if (o.source) sources.set(key, o.source);
  }
  const reader = new LiveReader(client, { full: true, concurrency: options.concurrency });
  const [ids] = await Promise.all([
    clusterIds,
    reader.read([...manifests.values()].map((m) => ({ ...idOf(m), apiVersion: m.apiVersion }))),
  ]);
  const previous = new Map<string, ObjectId>(ids.map((id) => [idKey(id), id]));
  const live = await reader.read([...previous].filter(([k]) => !manifests.has(k)).map(([, id]) => id));
  const prune = [...previous].filter(([k]) => !manifests.has(k) && live.get(k)).map(([k]) => live.get(k)!);
  const plan = buildPlan({ apply: [...manifests.values()], prune });
  return { manifests, sources, previous, live, plan };
}
