import { FatalRunError } from '../apply/applier.js';
import { withOwningInventory } from '../apply/apply-object.js';
import type { RunOptions } from '../apply/run-options.js';
import type { KubeObject } from '../common/kube-object.js';
import { acquireInventoryLock, type InventoryLock } from '../inventory/inventory-lock.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import { KubeApiError } from '../kube/api-error.js';
import type { ClusterClient } from '../kube/cluster-client.js';

/**
 * The run's lock: a Lease per inventory, in the inventory's namespace. When that namespace does not exist
 * yet and the package declares it, it is created first (kpt's InvAddTask does the same); otherwise the run
 * stops saying so. Taken before the cluster's inventory is read, so a run never reads another run's
 * half-written inventory.
 */
export async function takeLock(
  client: ClusterClient,
  inventory: InventoryRef,
  objects: readonly { object: KubeObject }[],
  options: Pick<RunOptions, 'lockTimeoutMs' | 'lockLeaseSeconds' | 'fieldManager'>,
  o: { signal?: AbortSignal; onProgress?: (line: string) => void } = {},
): Promise<InventoryLock> {
  const lock = () =>
    acquireInventoryLock(client, inventory, {
      signal: o.signal,
      timeoutMs: options.lockTimeoutMs,
      leaseSeconds: options.lockLeaseSeconds,
      onWait: (holder) =>
        o.onProgress?.(`waiting for another run of this package to finish (lock held by ${holder})`),
    });
  try {
    return await lock();
  } catch (err) {
    // the inventory namespace nearly always exists: look at it only when the Lease cannot be created
    if (!(err instanceof KubeApiError && err.code === 404)) throw err;
    await ensureInventoryNamespace(client, inventory, objects, options.fieldManager);
    return lock();
  }
}

async function ensureInventoryNamespace(
  client: ClusterClient,
  inventory: InventoryRef,
  objects: readonly { object: KubeObject }[],
  fieldManager: string,
): Promise<void> {
  const ns = inventory.namespace;
  const ref = { apiVersion: 'v1', group: '', kind: 'Namespace', namespace: '', name: ns };
  let exists: boolean;
  try {
    exists = !!(await client.get(ref));
  } catch {
    return; // may not read namespaces (a namespace-scoped user): the lock will tell
  }
  if (exists) return;
  const inPackage = objects.find(
    (o) => o.object.kind === 'Namespace' && o.object.apiVersion === 'v1' && o.object.metadata.name === ns,
  );
  if (!inPackage)
    throw new FatalRunError(
      `inventory namespace "${ns}" does not exist: create it, or add it to the package`,
    );
  await client.apply(withOwningInventory(inPackage.object, inventory.id), { fieldManager });
}
