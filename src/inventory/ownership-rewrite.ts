import type { KubeObject } from '../common/kube-object.js';
import {
  type FieldPath,
  fieldSetOf,
  type ManagedFieldsEntry,
  managedFieldsOf,
  mergeFieldSets,
  ownedPaths,
  withoutFieldPaths,
} from './managed-fields.js';
import { type ManagerRef, sameRef } from './owner-class.js';

/**
 * The one write that moves field ownership which a server-side apply cannot move by itself: fields another
 * manager holds with the value the package sets (shared ownership is no conflict, so a forced apply leaves
 * them shared) and whole client-side apply entries (kubectl's csaupgrade). The moved fields go to our
 * manager's Apply entry, so the apply that follows owns them alone: a field later dropped from the package
 * is then removed from the object. Sent as a JSON patch of `metadata.managedFields` that tests the
 * resourceVersion the decision was made on; the API server keeps managedFields a request rewrites.
 */

/** Fields to move from one manager's entry to ours: some paths, or the whole entry. */
export interface FieldMove {
  from: ManagerRef;
  paths: readonly FieldPath[] | 'all';
}

const refOf = (e: ManagedFieldsEntry): ManagerRef => ({
  manager: e.manager ?? '',
  operation: e.operation ?? '',
  ...(e.subresource ? { subresource: e.subresource } : {}),
});

const pathKey = (p: FieldPath) => JSON.stringify(p);

/**
 * `live`'s managedFields with `moves` done: the moved fields merged into our Apply entry (made with
 * `apiVersion` when there is none yet), the rest of each entry kept, an entry left empty dropped.
 * Undefined when nothing moves (no move matches an entry that holds one of its paths).
 */
export function movedManagedFields(
  live: Pick<KubeObject, 'metadata'>,
  moves: readonly FieldMove[],
  fieldManager: string,
  apiVersion: string,
  now = new Date(),
): ManagedFieldsEntry[] | undefined {
  const entries = managedFieldsOf(live);
  const ours = entries.find((e) => e.manager === fieldManager && e.operation === 'Apply' && !e.subresource);
  let fields: Record<string, unknown> = ours?.fieldsV1 ?? {};
  let moved = false;
  const kept: ManagedFieldsEntry[] = [];
  for (const e of entries) {
    if (e === ours) continue;
    const move = moves.find((m) => sameRef(m.from, refOf(e)));
    if (!move) {
      kept.push(e);
      continue;
    }
    if (move.paths === 'all') {
      fields = mergeFieldSets(fields, e.fieldsV1 ?? {});
      moved = true;
      continue;
    }
    const want = new Set(move.paths.map(pathKey));
    const taking = ownedPaths(e.fieldsV1).filter((p) => want.has(pathKey(p)));
    if (taking.length === 0) {
      kept.push(e);
      continue;
    }
    moved = true;
    fields = mergeFieldSets(fields, fieldSetOf(taking));
    const rest = withoutFieldPaths(e.fieldsV1 ?? {}, taking);
    if (Object.keys(rest).length > 0) kept.push({ ...e, fieldsV1: rest });
  }
  if (!moved) return undefined;
  const merged: ManagedFieldsEntry = {
    manager: fieldManager,
    operation: 'Apply',
    apiVersion: ours?.apiVersion ?? apiVersion,
    time: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    fieldsType: 'FieldsV1',
    fieldsV1: fields,
  };
  return [...kept, merged];
}

/**
 * The JSON patch that writes `managedFields`, only onto the object as it was read: a write in between (a
 * controller's status, an autoscaler) changes the resourceVersion and the server answers 422 (a failed
 * test); then read again and decide again.
 */
export function ownershipPatch(live: Pick<KubeObject, 'metadata'>, managedFields: ManagedFieldsEntry[]) {
  return [
    { op: 'test', path: '/metadata/resourceVersion', value: live.metadata.resourceVersion },
    { op: 'replace', path: '/metadata/managedFields', value: managedFields },
  ];
}
