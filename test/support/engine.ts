import { parseAllDocuments } from 'yaml';
import { runApply } from '../../src/apply/applier.js';
import type { RunEvent } from '../../src/apply/events.js';
import { defaultRunOptions, type RunOptions } from '../../src/apply/run-options.js';
import type { KubeObject } from '../../src/common/kube-object.js';
import type { InventoryRef } from '../../src/inventory/inventory-types.js';
import { type Connection, connect } from '../../src/kube/connect.js';
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

/** Runs an apply with the product engine, collecting its events. */
export async function applyObjects(
  conn: Connection,
  objects: KubeObject[],
  inventory: InventoryRef,
  options: Partial<RunOptions> = {},
  signal?: AbortSignal,
) {
  const events: RunEvent[] = [];
  const result = await runApply({
    client: conn.client,
    objects: objects.map((object) => ({ object })),
    inventory,
    options: defaultRunOptions({ reconcileTimeoutMs: 60_000, pruneTimeoutMs: 60_000, ...options }),
    emit: (e) => events.push(e),
    signal,
  });
  return { result, events };
}
