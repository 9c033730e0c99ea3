import type { KubeObject } from '../common/kube-object.js';
import { compareStrings } from '../common/object-id.js';
import type { RunOutcome } from '../common/run-outcome.js';
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
  /**
   * What ran. A rollback (the package re-applied as of an earlier commit, after a failed apply or asked
   * for) is recorded as `rollback`, with the earlier commit and tree: catch-up reads any successful
   * non-destroy record as what the cluster runs, and only a successful `apply` as releasing a failed tree.
   */
  mode: 'apply' | 'destroy' | 'rollback';
  commit?: string;
  /**
   * The package directory's git tree hash at `commit` (`git rev-parse <commit>:<dir>`): catch-up compares
   * it with the tree of the commit being applied. Absent in records of older versions and without git.
   */
  tree?: string;
  /** Who or what started it: the workflow run URL in GitHub, else user@host. */
  trigger: string;
  startedAt: string;
  finishedAt: string;
  result: RunOutcome;
  counts: Record<string, number>;
  /** `Kind/name: reason` of every object that failed, timed out or was skipped for a failed dependency. */
  failed: string[];
  error?: string;
  /** The inventory the package named (so a rollback to this deploy can tell whether it still does). */
  inventory?: { name: string; namespace: string; id: string };
  /** The namespace given to objects that name none. */
  namespace?: string;
  /** The run's settings (src/pipeline/deploy-settings.ts), so a rollback applies this commit the same way. */
  options?: Record<string, unknown>;
  /**
   * Set on the record of a rollback: the commit whose deploy it undid (`of`, when known) and the commit it
   * applied (`to`, also its `commit`); `kept` and `pruned` name the objects not in the package at `to`.
   */
  rollback?: { of?: string; to?: string; kept?: string[]; pruned?: string[] };
  /** A rollback's objects, each `Kind/name action status`. */
  objects?: string[];
}

const cmInfo = async (client: ClusterClient) => {
  const info = await client.resolve('v1', 'ConfigMap');
  if (!info) throw new Error('the cluster does not serve v1 ConfigMaps');
  return info;
};

/** A stored record and the ConfigMap that holds it. */
export interface HistoryEntry {
  record: DeployRecord;
  name: string;
  uid?: string;
}

/** The key of an inventory in readHistories' answer. */
export const inventoryKey = (inv: Pick<InventoryRef, 'namespace' | 'name'>) => `${inv.namespace}/${inv.name}`;

function parseRecord(cm: KubeObject): DeployRecord | undefined {
  try {
    const record = JSON.parse(((cm.data ?? {}) as Record<string, string>).record ?? '') as DeployRecord;
    return record && typeof record.startedAt === 'string' ? record : undefined;
  } catch {
    return undefined; // not one of our records: left alone
  }
}

/**
 * The records of many inventories, newest first, with one LIST per namespace (a monorepo of hundreds of
 * packages in a few namespaces costs a few requests). An inventory whose namespace could not be listed
 * (no permission) maps to undefined; one with no record, to [].
 */
export async function readHistories(
  client: ClusterClient,
  inventories: readonly Pick<InventoryRef, 'namespace' | 'name'>[],
): Promise<Map<string, DeployRecord[] | undefined>> {
  const out = new Map<string, DeployRecord[] | undefined>();
  const namespaces = [...new Set(inventories.map((i) => i.namespace))];
  const info = await cmInfo(client);
  await Promise.all(
    namespaces.map(async (ns) => {
      const wanted = inventories.filter((i) => i.namespace === ns);
      let items: KubeObject[] | undefined;
      try {
        items = (await client.list(info, ns, { labelSelector: HistoryLabel })).items;
      } catch {
        items = undefined;
      }
      for (const inv of wanted) {
        const records = items
          ?.filter((cm) => cm.metadata.labels?.[HistoryLabel] === inv.name)
          .map(parseRecord)
          .filter((r): r is DeployRecord => r !== undefined)
          .sort((a, b) => compareStrings(b.startedAt, a.startedAt));
        out.set(inventoryKey(inv), records);
      }
    }),
  );
  return out;
}

/** Every record of this inventory, newest first. */
export async function readHistory(client: ClusterClient, inv: InventoryRef): Promise<DeployRecord[]> {
  return (await readHistoryEntries(client, inv)).map((e) => e.record);
}

/** Every record of this inventory with its ConfigMap's name and UID, newest first (one LIST). */
export async function readHistoryEntries(client: ClusterClient, inv: InventoryRef): Promise<HistoryEntry[]> {
  const list = await client.list(await cmInfo(client), inv.namespace, {
    labelSelector: `${HistoryLabel}=${inv.name}`,
  });
  const entries: HistoryEntry[] = [];
  for (const cm of list.items) {
    const record = parseRecord(cm);
    if (record) entries.push({ record, name: cm.metadata.name, uid: cm.metadata.uid });
  }
  return entries.sort((a, b) => compareStrings(b.record.startedAt, a.record.startedAt));
}

/**
 * Stores a record and deletes the oldest ones beyond `keep`. With `previous` (what readHistoryEntries
 * returned before the run) the old records are trimmed from it without listing again; a record another
 * run added meanwhile is trimmed by the next run.
 */
export async function writeHistory(
  client: ClusterClient,
  inv: InventoryRef,
  record: DeployRecord,
  keep: number,
  previous?: HistoryEntry[],
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
  const trim = (old: { name: string; uid?: string }[]) =>
    Promise.all(
      old.map((o) =>
        client.delete(
          { apiVersion: 'v1', group: '', kind: 'ConfigMap', namespace: inv.namespace, name: o.name },
          { uid: o.uid },
        ),
      ),
    );
  if (previous) {
    // the oldest records known before the run go while the new one is stored
    await Promise.all([
      client.create(cm),
      trim(previous.slice(Math.max(keep, 1) - 1).map((e) => ({ name: e.name, uid: e.uid }))),
    ]);
    return;
  }
  await client.create(cm);
  await trim(await listOld(client, inv, keep));
}

async function listOld(client: ClusterClient, inv: InventoryRef, keep: number) {
  const list = await client.list(await cmInfo(client), inv.namespace, {
    labelSelector: `${HistoryLabel}=${inv.name}`,
  });
  const byAge = [...list.items].sort((a, b) => compareStrings(recordTime(b), recordTime(a)));
  return byAge.slice(Math.max(keep, 1)).map((cm) => ({ name: cm.metadata.name, uid: cm.metadata.uid }));
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

/**
 * Deletes every record of this inventory (a destroyed package leaves nothing of ours behind, as kapp
 * deletes an app's change records with the app). Each DELETE carries the record's UID.
 */
export async function deleteHistory(client: ClusterClient, inv: InventoryRef): Promise<number> {
  const list = await client.list(await cmInfo(client), inv.namespace, {
    labelSelector: `${HistoryLabel}=${inv.name}`,
  });
  await Promise.all(
    list.items.map((cm) =>
      client.delete(
        { apiVersion: 'v1', group: '', kind: 'ConfigMap', namespace: inv.namespace, name: cm.metadata.name },
        { uid: cm.metadata.uid },
      ),
    ),
  );
  return list.items.length;
}
