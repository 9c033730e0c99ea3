import { Labels, ResourceGroupApiVersion, ResourceGroupKind } from '../common/constants.js';
import { jsonEqual } from '../common/json-equal.js';
import type { KubeObject } from '../common/kube-object.js';
import { compareIds, type ObjectId } from '../common/object-id.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import type { ClusterInventory, InventoryEntry, InventoryRef } from './inventory-types.js';

const rgRef = (inv: InventoryRef) => ({
  apiVersion: ResourceGroupApiVersion,
  group: 'kpt.dev',
  kind: ResourceGroupKind,
  namespace: inv.namespace,
  name: inv.name,
});

/** Reads the ResourceGroup; undefined when it does not exist. Fails when its inventory-id differs. */
export async function readResourceGroup(
  client: ClusterClient,
  inv: InventoryRef,
): Promise<ClusterInventory | undefined> {
  const obj = await client.get(rgRef(inv));
  if (!obj) return undefined;
  const clusterId = obj.metadata.labels?.[Labels.InventoryId];
  if (clusterId !== inv.id) {
    throw new Error(
      `inventory-id of inventory object in cluster doesn't match provided id "${inv.id}" ` +
        `(ResourceGroup ${inv.namespace}/${inv.name} has "${clusterId ?? ''}"): another package owns this inventory name; ` +
        'give this package its own inventory (kpt-live init --force)',
    );
  }
  return {
    kind: 'ResourceGroup',
    ids: resourceGroupIds(obj),
    resourceVersion: obj.metadata.resourceVersion,
    object: obj,
  };
}

/** The ids in `spec.resources` (kpt trims group and kind). */
export function resourceGroupIds(obj: KubeObject): ObjectId[] {
  const spec = obj.spec as
    | { resources?: { group?: string; kind?: string; namespace?: string; name?: string }[] }
    | undefined;
  return (spec?.resources ?? []).map((r) => ({
    group: (r.group ?? '').trim(),
    kind: (r.kind ?? '').trim(),
    namespace: r.namespace ?? '',
    name: r.name ?? '',
  }));
}

/**
 * The ResourceGroup as kpt writes it: local labels and annotations (minus config.kubernetes.io/ ones), the
 * inventory-id label, `spec.resources` (absent when empty) and, for the status subresource,
 * `status.resourceStatuses` with kpt's literal `status: Unknown`.
 */
export function buildResourceGroup(
  inv: InventoryRef,
  entries: InventoryEntry[],
  base?: KubeObject,
): KubeObject {
  const sorted = [...entries].sort((a, b) => compareIds(a.id, b.id));
  const annotations = Object.fromEntries(
    Object.entries(inv.annotations ?? {}).filter(
      ([k]) => !k.startsWith('config.kubernetes.io/') && !k.startsWith('internal.config.kubernetes.io/'),
    ),
  );
  const obj: KubeObject = {
    apiVersion: ResourceGroupApiVersion,
    kind: ResourceGroupKind,
    metadata: {
      ...(base?.metadata ?? {}),
      name: inv.name,
      namespace: inv.namespace,
      labels: { ...(base?.metadata.labels ?? {}), ...(inv.labels ?? {}), [Labels.InventoryId]: inv.id },
    },
  };
  if (Object.keys(annotations).length > 0 || base?.metadata.annotations) {
    obj.metadata.annotations = { ...(base?.metadata.annotations ?? {}), ...annotations };
  }
  delete obj.metadata.managedFields;
  const spec = { ...((base?.spec as Record<string, unknown> | undefined) ?? {}) };
  if (sorted.length > 0) {
    spec.resources = sorted.map((e) => ({
      group: e.id.group,
      kind: e.id.kind,
      name: e.id.name,
      namespace: e.id.namespace,
    }));
  } else {
    delete spec.resources;
  }
  obj.spec = spec;
  return obj;
}

function statusFor(entries: InventoryEntry[], generation: number | undefined): Record<string, unknown> {
  const sorted = [...entries].sort((a, b) => compareIds(a.id, b.id));
  const status: Record<string, unknown> = { observedGeneration: generation ?? 0 };
  if (sorted.length > 0) {
    status.resourceStatuses = sorted.map((e) => ({
      group: e.id.group,
      kind: e.id.kind,
      namespace: e.id.namespace,
      name: e.id.name,
      status: 'Unknown',
      strategy: e.strategy,
      actuation: e.actuation,
      reconcile: e.reconcile,
    }));
  }
  return status;
}

/**
 * Creates or updates the ResourceGroup with these entries, then writes its status (unless `status: false`). Updates carry the
 * resourceVersion that was read, so a concurrent writer makes this fail (409) instead of losing entries.
 */
export async function writeResourceGroup(
  client: ClusterClient,
  inv: InventoryRef,
  entries: InventoryEntry[],
  current: KubeObject | undefined,
  options: { status?: boolean } = {},
): Promise<KubeObject> {
  const desired = buildResourceGroup(inv, entries, current);
  let stored: KubeObject;
  if (!current) {
    delete desired.metadata.resourceVersion;
    stored = await client.create(desired);
  } else if (sameContent(desired, current)) {
    stored = current; // a PUT would change nothing (a re-apply of the same objects): save the round trip
  } else {
    desired.metadata.resourceVersion = current.metadata.resourceVersion;
    stored = await client.replace(desired);
  }
  if (options.status === false) return stored;
  const status = statusFor(entries, stored.metadata.generation);
  if (jsonEqual(stored.status, status)) return stored;
  // the status subresource keeps everything but the status as stored: the body carries only what names the
  // object and its resourceVersion (a concurrent write still fails with 409), half the bytes to send and for
  // the server to decode
  const { name, namespace, resourceVersion, uid } = stored.metadata;
  const metadata = { name, namespace, resourceVersion, ...(uid ? { uid } : {}) };
  return client.replaceStatus({ apiVersion: stored.apiVersion, kind: stored.kind, metadata, status });
}

/** Same labels, annotations and spec: what buildResourceGroup sets. */
function sameContent(desired: KubeObject, current: KubeObject): boolean {
  const pick = (o: KubeObject) => ({
    labels: o.metadata.labels,
    annotations: o.metadata.annotations,
    spec: o.spec,
  });
  return jsonEqual(pick(desired), pick(current));
}

/** Deletes the ResourceGroup (destroy, when every object is gone). */
export async function deleteResourceGroup(
  client: ClusterClient,
  inv: InventoryRef,
  uid?: string,
): Promise<void> {
  await client.delete(rgRef(inv), { uid });
}
