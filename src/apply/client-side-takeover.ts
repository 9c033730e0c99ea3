import { Annotations } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import type { ManagedFieldsEntry } from '../inventory/managed-fields.js';

/** Field managers that client-side `kubectl apply` and `kpt live apply` (client-side) write as. */
export const ClientSideManagers = new Set(['kubectl-client-side-apply', 'kubectl', 'kpt']);

/** Entries of a client-side apply manager that the takeover moves to us (Update, no subresource). */
function takeoverEntries(live: KubeObject): ManagedFieldsEntry[] {
  if (live.metadata.annotations?.[Annotations.LastApplied] === undefined) return [];
  const entries = (live.metadata.managedFields ?? []) as ManagedFieldsEntry[];
  return entries.filter(
    (e) =>
      e.operation === 'Update' &&
      !e.subresource &&
      e.manager !== undefined &&
      ClientSideManagers.has(e.manager),
  );
}

/**
 * The managers whose fields apply's takeover moves to our field manager before it applies (empty when
 * there is nothing to take over): a conflict with one of them (as an Update, not through a subresource) is
 * one apply will not meet.
 */
export function takeoverManagers(live: KubeObject | undefined): Set<string> {
  return new Set(live ? takeoverEntries(live).map((e) => e.manager!) : []);
}
