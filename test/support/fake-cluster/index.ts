export type { Reconciler } from './controllers.js';
export { FakeCluster, type FakeClusterOptions, type FakeRef, type SeedOptions } from './fake-cluster.js';
export { readyWorkloads } from './ready-workloads.js';
export type { FaultAnswer, FaultHandle, Operation, RequestMatch, RequestRecord } from './requests.js';
export { DefaultManager } from './writes.js';
