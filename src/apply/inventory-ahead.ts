import { ResourceGroupApiVersion, ResourceGroupKind } from '../common/constants.js';
import { acquireInventoryLock, type InventoryLock } from '../inventory/inventory-lock.js';
import type { ClusterInventory, InventoryRef } from '../inventory/inventory-types.js';
import { readClusterInventory } from '../inventory/read-inventory.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import type { RunOptions } from './run-options.js';

/**
 * The run's lock and the cluster's inventory, taken and read in that order (the inventory is read only
 * once the lock is held, so it cannot be another run's half-written one). Started as soon as the inventory
 * is known, it goes on while the package is still being checked, instead of after.
 */
export interface InventoryAhead {
  lock: Promise<InventoryLock>;
  /** Whether the ResourceGroup kind is served (no kind: no inventory yet; the CRD is installed later). */
  served: Promise<boolean>;
  /** The cluster's inventory (undefined: none yet); read after `lock` and `served`. */
  cluster: Promise<ClusterInventory | undefined>;
  /** Releases the lock if it was taken, or stops waiting for it; for a run that stops before it uses this. */
  abandon(): Promise<void>;
}

export function startInventoryAhead(
  client: ClusterClient,
  inventory: InventoryRef,
  options: Pick<RunOptions, 'lockTimeoutMs' | 'lockLeaseSeconds'>,
  onProgress?: (line: string) => void,
): InventoryAhead {
  // a run refused while another run holds the lock stops waiting for it
  const refused = new AbortController();
  const lock = acquireInventoryLock(client, inventory, {
    signal: refused.signal,
    timeoutMs: options.lockTimeoutMs,
    leaseSeconds: options.lockLeaseSeconds,
    onWait: (holder) =>
      onProgress?.(`waiting for another run of this package to finish (lock held by ${holder})`),
  });
  const served = lock.then(async () => !!(await client.resolve(ResourceGroupApiVersion, ResourceGroupKind)));
  const cluster = served.then((s) =>
    s ? readClusterInventory(client, inventory, { together: true }) : undefined,
  );
  // whoever uses these awaits them; a run that stops first must not leave a rejection unhandled
  served.catch(() => {});
  cluster.catch(() => {});
  return {
    lock,
    served,
    cluster,
    abandon: () => {
      refused.abort(new Error('the run stopped before it applied'));
      return lock.then((l) => l.release()).catch(() => {});
    },
  };
}
