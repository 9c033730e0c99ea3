import { Labels } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import { parseInventoryId } from '../common/object-id.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import type { ClusterInventory, InventoryRef } from './inventory-types.js';

/**
 * The legacy ConfigMap inventory (cli-utils' reference format, kpt before ResourceGroups): a ConfigMap in
 * the inventory namespace labelled with the inventory id, whose `data` keys are object ids. Found by label.
 */
export async function readConfigMapInventory(
  client: ClusterClient,
  inv: InventoryRef,
): Promise<ClusterInventory | undefined> {
  const info = await client.resolve('v1', 'ConfigMap');
  if (!info) return undefined;
  const list = await client.list(info, inv.namespace, { labelSelector: `${Labels.InventoryId}=${inv.id}` });
  if (list.items.length === 0) return undefined;
  if (list.items.length > 1)
    throw new Error(`found ${list.items.length} inventory objects with inventory id ${inv.id}`);
  const cm = { ...list.items[0], apiVersion: 'v1', kind: 'ConfigMap' } as KubeObject;
  const data = (cm.data ?? {}) as Record<string, string>;
  return {
    kind: 'ConfigMap',
    ids: Object.keys(data).map(parseInventoryId),
    resourceVersion: cm.metadata.resourceVersion,
    object: cm,
  };
}

/** Removes the legacy ConfigMap once its ids live in the ResourceGroup (kpt live migrate's last step). */
export async function deleteConfigMapInventory(client: ClusterClient, cm: KubeObject): Promise<void> {
  await client.delete(
    {
      apiVersion: 'v1',
      group: '',
      kind: 'ConfigMap',
      namespace: cm.metadata.namespace ?? '',
      name: cm.metadata.name,
    },
    { uid: cm.metadata.uid },
  );
}
