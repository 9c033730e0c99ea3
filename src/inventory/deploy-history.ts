import type { KubeObject } from '../common/kube-object.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import type { InventoryRef } from './inventory-types.js';

/** The label that ties a history ConfigMap to its inventory (by name; label values are short). */
export const HistoryLabel = 'kpt-live-action.dev/history-of';

/**
 * One deploy, as kapp's app-change records keep it: what ran, from which commit, who started it, when,
 * and how it ended. Stored in its own ConfigMap next to the inventory, never on the ResourceGroup (whose
 * schema has no room for it and which kpt rewrites whole).
 */
export interface DeployRecord {
  package: string;
  mode: 'apply' | 'destroy';
  commit?: string;
  /** Who or what started it: the workflow run URL in GitHub, else user@host. */
  trigger: string;
  startedAt: string;
  finishedAt: string;
  result: 'success' | 'failed' | 'error';
  counts: Record<string, number>;
  /** `Kind/name: reason` of every object that failed, timed out or was skipped for a failed dependency. */
  failed: string[];
  error?: string;
}

const cmInfo = async (client: ClusterClient) => {
  const info = await client.resolve('v1', 'ConfigMap');
  if (!info) throw new Error('the cluster does not serve v1 ConfigMaps');
  return info;
};

/** Every record of this inventory, newest first. */
export async function readHistory(client: ClusterClient, inv: InventoryRef): Promise<DeployRecord[]> {
  const list = await client.list(await cmInfo(client), inv.namespace, {
    labelSelector: `${HistoryLabel}=${inv.name}`,
  });
  return list.items
    .map((cm) => {
      try {
        return JSON.parse(((cm.data ?? {}) as Record<string, string>).record ?? '') as DeployRecord;
      } catch {
        return undefined;
      }
    })
    .filter((r): r is DeployRecord => !!r)
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/** Stores a record and deletes the oldest ones beyond `keep`. */
export async function writeHistory(
  client: ClusterClient,
  inv: InventoryRef,
  record: DeployRecord,
  keep: number,
): Promise<void> {
  const cm: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: '',
      generateName: `${inv.name.slice(0, 200)}-change-`,
      namespace: inv.namespace,
      labels: { [HistoryLabel]: inv.name },
    },
    data: { record: JSON.stringify(record) },
  };
  delete (cm.metadata as { name?: string }).name;
  await client.create(cm);
  const list = await client.list(await cmInfo(client), inv.namespace, {
    labelSelector: `${HistoryLabel}=${inv.name}`,
  });
  const byAge = [...list.items].sort((a, b) => recordTime(b).localeCompare(recordTime(a)));
  for (const old of byAge.slice(Math.max(keep, 1))) {
    await client.delete(
      { apiVersion: 'v1', group: '', kind: 'ConfigMap', namespace: inv.namespace, name: old.metadata.name },
      { uid: old.metadata.uid },
    );
  }
}

function recordTime(cm: KubeObject): string {
  try {
    return (
      (JSON.parse(((cm.data ?? {}) as Record<string, string>).record ?? '{}') as DeployRecord).startedAt ?? ''
    );
  } catch {
    return cm.metadata.creationTimestamp ?? '';
  }
}
