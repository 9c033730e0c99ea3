import { Labels, ResourceGroupApiVersion, ResourceGroupKind } from '../common/constants.js';
import type { ClusterClient } from '../kube/cluster-client.js';

/** A label value the API server accepts in a selector: at most 63 characters of [A-Za-z0-9_.-]. */
const LABEL_VALUE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?)$/;

/**
 * The ResourceGroup whose inventory-id label is `inventoryId` (one cluster-wide LIST), so a message can
 * say which package owns an object. Undefined when there is none, the id cannot be a label value, or the
 * credentials may not list ResourceGroups across namespaces: the id alone is still reported then.
 */
export async function findResourceGroupById(
  client: ClusterClient,
  inventoryId: string,
): Promise<{ namespace: string; name: string } | undefined> {
  if (!LABEL_VALUE.test(inventoryId)) return undefined;
  try {
    const info = await client.resolve(ResourceGroupApiVersion, ResourceGroupKind);
    if (!info) return undefined;
    const list = await client.list(info, undefined, {
      labelSelector: `${Labels.InventoryId}=${inventoryId}`,
      metadataOnly: true,
    });
    const rg = list.items[0];
    return rg ? { namespace: rg.metadata.namespace ?? '', name: rg.metadata.name } : undefined;
  } catch {
    return undefined;
  }
}
