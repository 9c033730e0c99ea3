import type { RunEventSink } from '../apply/events.js';
import type { RunOptions } from '../apply/run-options.js';
import type { RunResult } from '../apply/run-result.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { previewDocument } from '../preview/preview-document.js';
import type { PreviewDocument } from '../preview/types.js';
import { applySteps, destroySteps } from './cluster-run.js';
import { takeLock } from './take-lock.js';

/**
 * A package whose directory is gone, known only by its inventory: what applying it empty would do (every
 * object it owns pruned, through the same walk and prune decision), as a preview document.
 */
export async function previewRemoval(
  client: ClusterClient,
  path: string,
  inventory: InventoryRef,
  options: RunOptions,
): Promise<PreviewDocument | { error: string }> {
  const o = { ...options, prune: true, allowEmptyPrune: true };
  const { run } = await applySteps({
    client,
    inventory,
    options: o,
    objects: [],
    emit: () => {},
    dryRun: true,
  });
  if (!run.dryRun) return { error: run.error ?? 'the preview failed' };
  return await previewDocument(run, {
    package: path,
    allowSkipped: o.allowSkipped,
    fieldManager: o.fieldManager,
    context: { namespace: inventory.namespace },
  });
}

/** Destroys what an inventory owns, under its lock (a package whose directory is gone). */
export async function destroyInventory(
  client: ClusterClient,
  inventory: InventoryRef,
  options: RunOptions,
  emit: RunEventSink,
  signal?: AbortSignal,
): Promise<RunResult> {
  const lock = await takeLock(client, inventory, [], options, { signal });
  try {
    return await destroySteps({ client, inventory, options, emit, signal, dryRun: false });
  } finally {
    await lock.release();
  }
}
