import { FatalRunError } from '../apply/applier.js';
import { withOwningInventory } from '../apply/apply-object.js';
import type { RunOptions } from '../apply/run-options.js';
import type { KubeObject } from '../common/kube-object.js';
import { acquireInventoryLock, type InventoryLock } from '../inventory/inventory-lock.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import { KubeApiError } from '../kube/api-error.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { type InventoryInfo, readInventoryInfo, sameInventory } from '../package/inventory-info.js';

type PackageObjects = readonly { object: KubeObject }[];
type LockSettings = Pick<RunOptions, 'lockTimeoutMs' | 'lockLeaseSeconds' | 'fieldManager'>;
type LockProgress = { signal?: AbortSignal; onProgress?: (line: string) => void };

/** The run's lock, started before the package has been checked (lockWhileReading). */
export interface PackageLock {
  /**
   * The lock for the checked package's inventory: the one started early (always the same inventory: both
   * readings come from the same files), else taken now. Throws when it cannot be taken.
   */
  held(inventory: InventoryInfo, objects: PackageObjects): Promise<InventoryLock>;
  /** Ends a wait for another run's lock still going on, and gives back whatever lock was taken. */
  release(): Promise<void>;
}

/**
 * Starts taking the lock from the package's inventory information alone (the Kptfile and the files naming
 * a ResourceGroup), so that the lock's round trips overlap reading and checking the whole package. The
 * objects are needed only to create a missing inventory namespace: `held` hands them over. A package the
 * check refuses never calls `held`; `release` then stops the wait and gives the lock back.
 */
export async function lockWhileReading(
  client: ClusterClient,
  dir: string,
  repoRoot: string,
  options: LockSettings,
  o: LockProgress = {},
): Promise<PackageLock> {
  let objectsRead: (objects: PackageObjects) => void = () => {};
  const objects = new Promise<PackageObjects>((resolve) => (objectsRead = resolve));
  const waiting = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, waiting.signal]) : waiting.signal;
  // read before the package's load starts: its parse holds the event loop, and the Lease's request
  // would wait for it instead of going out first
  const info = await readInventoryInfo(dir, { repoRoot }).catch(() => undefined);
  const inventory = info?.errors.length === 0 ? info.inventory : undefined;
  const early = (
    inventory
      ? takeLock(client, inventory, objects, options, { ...o, signal }).then((lock) => ({ lock, inventory }))
      : Promise.resolve(undefined)
  ).catch((err: Error) => err); // a failure is reported by `held`, or not at all if never needed
  let held: InventoryLock | undefined;
  return {
    async held(inventory, checked) {
      objectsRead(checked);
      const taken = await early;
      if (taken instanceof Error) throw taken;
      if (taken && sameInventory(taken.inventory, inventory)) held = taken.lock;
      else {
        await taken?.lock.release();
        held = await takeLock(client, inventory, checked, options, o);
      }
      return held;
    },
    async release() {
      objectsRead([]);
      waiting.abort();
      const taken = await early;
      await (held ?? (taken instanceof Error ? undefined : taken?.lock))?.release();
    },
  };
}

/**
 * The run's lock: a Lease per inventory, in the inventory's namespace. When that namespace does not exist
 * yet and the package declares it, it is created first (kpt's InvAddTask does the same); otherwise the run
 * stops saying so. Taken before the cluster's inventory is read, so a run never reads another run's
 * half-written inventory.
 */
export async function takeLock(
  client: ClusterClient,
  inventory: InventoryRef,
  objects: PackageObjects | Promise<PackageObjects>,
  options: LockSettings,
  o: LockProgress = {},
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
    await ensureInventoryNamespace(client, inventory, await objects, options.fieldManager);
    return lock();
  }
}

async function ensureInventoryNamespace(
  client: ClusterClient,
  inventory: InventoryRef,
  objects: PackageObjects,
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
