import { parseAllDocuments } from 'yaml';
import type { RunEvent } from '../../src/apply/events.js';
import { defaultRunOptions, type RunOptions } from '../../src/apply/run-options.js';
import type { KubeObject } from '../../src/common/kube-object.js';
import type { InventoryRef } from '../../src/inventory/inventory-types.js';
import { type Connection, connect } from '../../src/kube/connect.js';
import { applySteps, destroySteps } from '../../src/pipeline/cluster-run.js';
import { takeLock } from '../../src/pipeline/take-lock.js';
import { controlPlane, uniqueName } from './cluster.js';

/** A client of the product's own kube layer, on the shared control plane. */
export async function productClient(kubeconfigPath = controlPlane().kubeconfigPath): Promise<Connection> {
  return connect({ kubeconfigPath });
}

/** Objects from a YAML string (test data), with a namespace filled in for namespaced kinds that lack one. */
export function objectsFromYaml(yaml: string, namespace?: string): KubeObject[] {
  const clusterScoped = new Set([
    'Namespace',
    'CustomResourceDefinition',
    'ClusterRole',
    'ClusterRoleBinding',
    'PersistentVolume',
  ]);
  return parseAllDocuments(yaml)
    .map((d) => d.toJS() as KubeObject)
    .filter(Boolean)
    .map((o) => {
      if (namespace && !o.metadata.namespace && !clusterScoped.has(o.kind)) o.metadata.namespace = namespace;
      return o;
    });
}

export function newInventory(namespace: string): InventoryRef {
  const name = uniqueName('inventory');
  return { name, namespace, id: `${name}-id` };
}

/** Runs an apply with the product engine (lock, pre-flight, apply), collecting its events. */
export async function applyObjects(
  conn: Connection,
  objects: KubeObject[],
  inventory: InventoryRef,
  options: Partial<RunOptions> = {},
  signal?: AbortSignal,
) {
  const events: RunEvent[] = [];
  const opts = defaultRunOptions({ reconcileTimeoutMs: 60_000, pruneTimeoutMs: 60_000, ...options });
  const wrapped = objects.map((object) => ({ object }));
  const lock = await takeLock(conn.client, inventory, wrapped, opts, { signal });
  try {
    const { run } = await applySteps({
      client: conn.client,
      objects: wrapped,
      inventory,
      options: opts,
      emit: (e) => events.push(e),
      signal,
      dryRun: false,
    });
    return { result: run, events };
  } finally {
    await lock.release();
  }
}

/** Runs a destroy with the product engine (lock, destroy), collecting its events. */
export async function destroyObjects(
  conn: Connection,
  inventory: InventoryRef,
  options: Partial<RunOptions> = {},
) {
  const events: RunEvent[] = [];
  const opts = defaultRunOptions({ pruneTimeoutMs: 60_000, ...options });
  const lock = await takeLock(conn.client, inventory, [], opts);
  try {
    const result = await destroySteps({
      client: conn.client,
      inventory,
      options: opts,
      emit: (e) => events.push(e),
      dryRun: false,
    });
    return { result, events };
  } finally {
    await lock.release();
  }
}
