import type { ClusterClient } from '../kube/cluster-client.js';
import { readConfigMapInventory } from './configmap-inventory.js';
import type { ClusterInventory, InventoryRef } from './inventory-types.js';
import { readResourceGroup } from './resourcegroup.js';

/** The cluster's inventory for this package: the ResourceGroup, else a legacy ConfigMap inventory, else none. */
export async function readClusterInventory(
  client: ClusterClient,
  inv: InventoryRef,
): Promise<ClusterInventory | undefined> {
  return (await readResourceGroup(client, inv)) ?? (await readConfigMapInventory(client, inv));
}
