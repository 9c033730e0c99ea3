import type { ClusterClient } from '../kube/cluster-client.js';
import { readConfigMapInventory } from './configmap-inventory.js';
import type { ClusterInventory, InventoryRef } from './inventory-types.js';
import { readResourceGroup } from './resourcegroup.js';

/**
 * The cluster's inventory for this package: the ResourceGroup, else a legacy ConfigMap inventory, else none.
 * `together`: ask for both at once (one round trip less when there is no ResourceGroup yet, one LIST more
 * when there is); the answer is the same, and the ConfigMap list's failure matters only without a ResourceGroup.
 */
export async function readClusterInventory(
  client: ClusterClient,
  inv: InventoryRef,
  options: { together?: boolean } = {},
): Promise<ClusterInventory | undefined> {
  if (!options.together)
    return (await readResourceGroup(client, inv)) ?? (await readConfigMapInventory(client, inv));
  const legacy = readConfigMapInventory(client, inv);
  legacy.catch(() => {}); // read only when there is no ResourceGroup
  return (await readResourceGroup(client, inv)) ?? (await legacy);
}
