import { readLiveSnapshot } from '../apply/live-snapshot.js';
import { ResourceGroupApiVersion, ResourceGroupKind } from '../common/constants.js';
import { idKey, type ObjectId } from '../common/object-id.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import { readClusterInventory } from '../inventory/read-inventory.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { computeStatus } from '../status/compute-status.js';
import type { KStatus } from '../status/types.js';

export interface ObjectStatus {
  id: ObjectId;
  status: KStatus;
  message: string;
}

/** `status` mode: the kstatus of every object the inventory lists, without applying anything. */
export async function readPackageStatus(
  client: ClusterClient,
  inventory: InventoryRef,
  options: { waitForJobs?: boolean; concurrency?: number } = {},
): Promise<{ found: boolean; objects: ObjectStatus[] }> {
  if (!(await client.resolve(ResourceGroupApiVersion, ResourceGroupKind)))
    return { found: false, objects: [] };
  const cluster = await readClusterInventory(client, inventory);
  if (!cluster) return { found: false, objects: [] };
  const live = await readLiveSnapshot(client, cluster.ids, { full: true, concurrency: options.concurrency });
  return {
    found: true,
    objects: cluster.ids.map((id) => {
      const obj = live.get(idKey(id));
      if (obj === undefined)
        return { id, status: 'Unknown' as const, message: 'kind not served by the cluster' };
      if (obj === null) return { id, status: 'NotFound' as const, message: 'Resource not found' };
      const r = computeStatus(obj, { waitForJobs: options.waitForJobs });
      return { id, status: r.status, message: r.message };
    }),
  };
}
