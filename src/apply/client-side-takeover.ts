import { Annotations } from '../common/constants.js';
import { isRecord, type KubeObject } from '../common/kube-object.js';

/** Field managers that client-side `kubectl apply` and `kpt live apply` (client-side) write as. */
export const ClientSideManagers = new Set(['kubectl-client-side-apply', 'kubectl', 'kpt']);

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

/** Union of two FieldsV1 trees. */
export function mergeFieldSets(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] = isRecord(prev) && isRecord(v) ? mergeFieldSets(prev, v) : v;
  }
  return out;
}

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

/**
 * kubectl's client-side → server-side upgrade (csaupgrade): when an object was last applied client-side
 * (it has the last-applied annotation and fields owned by a client-side apply manager), move those fields to
 * our server-side apply manager, so that a field later removed from the package is removed from the object.
 * Returns the new managedFields, or undefined when there is nothing to take over.
 */
export function upgradedManagedFields(
  live: KubeObject,
  fieldManager: string,
  now = new Date(),
): ManagedFieldsEntry[] | undefined {
  const entries = (live.metadata.managedFields ?? []) as ManagedFieldsEntry[];
  const csa = takeoverEntries(live);
  if (csa.length === 0) return undefined;
  const ours = entries.find((e) => e.manager === fieldManager && e.operation === 'Apply' && !e.subresource);
  let fields: Record<string, unknown> = ours?.fieldsV1 ?? {};
  for (const e of csa) fields = mergeFieldSets(fields, e.fieldsV1 ?? {});
  const merged: ManagedFieldsEntry = {
    manager: fieldManager,
    operation: 'Apply',
    apiVersion: ours?.apiVersion ?? csa[0].apiVersion ?? live.apiVersion,
    time: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    fieldsType: 'FieldsV1',
    fieldsV1: fields,
  };
  return [...entries.filter((e) => e !== ours && !csa.includes(e)), merged];
}
