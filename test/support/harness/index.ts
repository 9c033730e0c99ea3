/**
 * The integration tests' harness: the shared control plane and the product's client on it, namespaces per
 * file, object builders, packages on disk, and the one loose `Obj` type for what the API server returns.
 */
export { adminClient, controlPlane, createNamespace, eventually, uniqueName } from '../cluster.js';
export { applyObjects, destroyObjects, newInventory, objectsFromYaml, productClient } from '../engine.js';
export { fixturesDir, inlinePackage, packageCopy } from '../packages.js';
export * from './builders.js';
export type { Obj } from './obj.js';
export { type TestCluster, type UseClusterOptions, useCluster } from './test-cluster.js';
