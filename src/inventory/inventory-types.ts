import type { ObjectId } from '../common/object-id.js';

/** Where a package's inventory lives (from resourcegroup.yaml or the Kptfile's `inventory:`). */
export interface InventoryRef {
  name: string;
  namespace: string;
  /** The `cli-utils.sigs.k8s.io/inventory-id` label value. */
  id: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export type Strategy = 'Apply' | 'Delete';
export type Actuation = 'Pending' | 'Succeeded' | 'Skipped' | 'Failed';
export type Reconcile = 'Pending' | 'Succeeded' | 'Skipped' | 'Failed' | 'Timeout';

/** One object the inventory tracks, with kpt's per-object status entry. */
export interface InventoryEntry {
  id: ObjectId;
  strategy: Strategy;
  actuation: Actuation;
  reconcile: Reconcile;
}

/** What the cluster holds for an inventory. */
export interface ClusterInventory {
  kind: 'ResourceGroup' | 'ConfigMap';
  ids: ObjectId[];
  resourceVersion?: string;
  /** The stored object, for updates. */
  object: import('../common/kube-object.js').KubeObject;
}
