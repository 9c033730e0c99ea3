/** What the package load and the inventory read tell the warm-up as they go. */
export interface FirstApplyWarmup {
  /** `count` more objects were read from the package. */
  objectsRead(count: number): void;
  /** The cluster's inventory read (undefined: none yet, a first apply). */
  inventoryRead(cluster: Promise<unknown>): void;
}

/**
 * A first apply (no inventory in the cluster yet) creates every object of its package, in one burst after the
 * pre-flight and the inventory write. Its connections are opened while the package is still being read, when
 * the API server has little else to do: as many as the objects read so far, up to the apply concurrency.
 * Opened later (the applier tops the pool up once the live state is read), their handshakes took the server's
 * CPU while the inventory write, just before the burst, waited for it. A re-apply opens none here.
 */
export function firstApplyWarmup(
  /** Opens pool connections up to `count` (ClusterClient.warm). */
  warmPool: (count: number) => void,
  concurrency: number,
): FirstApplyWarmup {
  let objects = 0;
  let first = false;
  const warm = () => {
    if (first && objects > 0) warmPool(Math.min(objects, concurrency));
  };
  return {
    objectsRead(count) {
      objects += count;
      warm();
    },
    inventoryRead(cluster) {
      cluster.then(
        (found) => {
          first = found === undefined;
          warm();
        },
        () => {}, // the run reports a failed read
      );
    },
  };
}
