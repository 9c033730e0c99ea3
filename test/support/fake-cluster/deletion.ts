import { type ApiServer, metaOf } from './api-server.js';
import type { ServedKind } from './discovery-table.js';
import { notFound, preconditionFailed } from './status-errors.js';
import type { Json, StoredObject } from './store.js';

/**
 * Deletion as the API server does it: preconditions (UID, resourceVersion), then either the object goes at
 * once, or, when something must happen first (finalizers, a Foreground or Orphan propagation, a Namespace's
 * content), it gets a deletionTimestamp and stays until the controllers (controllers.ts) finish.
 */
export const CrdCleanup = 'customresourcecleanup.apiextensions.k8s.io';

export interface DeleteRequest {
  uid?: string;
  resourceVersion?: string;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  dryRun?: boolean;
}

/** `gone`: removed by this request; otherwise the object as it now is (being deleted). */
export type DeleteAnswer = { gone: true } | { gone: false; object: Json };

export function deleteObject(
  server: ApiServer,
  kind: ServedKind,
  version: string,
  namespace: string,
  name: string,
  req: DeleteRequest,
): DeleteAnswer {
  const live = server.lookup(kind, namespace, name);
  if (!live) throw notFound(kind, name);
  const m = metaOf(live.object);
  if (req.uid !== undefined && req.uid !== m.uid)
    throw preconditionFailed(kind, name, 'UID', req.uid, m.uid ?? '');
  if (req.resourceVersion !== undefined && req.resourceVersion !== m.resourceVersion)
    throw preconditionFailed(kind, name, 'ResourceVersion', req.resourceVersion, m.resourceVersion ?? '');
  if (m.deletionTimestamp) return { gone: false, object: server.readOut(live.object, kind, version) };
  const finalizers = [...(m.finalizers ?? [])];
  const add = (f: string) => !finalizers.includes(f) && finalizers.push(f);
  if (req.propagationPolicy === 'Foreground') add('foregroundDeletion');
  if (req.propagationPolicy === 'Orphan') add('orphan');
  // the CRD registry holds a deleted CRD until its custom resources are gone
  if (kind.builtIn && kind.kind === 'CustomResourceDefinition') add(CrdCleanup);
  const isNamespace = kind.builtIn && kind.kind === 'Namespace';
  if (finalizers.length === 0 && !isNamespace) {
    if (!req.dryRun) server.store.remove(live);
    return { gone: true };
  }
  const next = structuredClone(live.object);
  const nm = metaOf(next);
  nm.deletionTimestamp = server.timestamp();
  nm.deletionGracePeriodSeconds = 0;
  if (finalizers.length > 0) nm.finalizers = finalizers;
  if (kind.generation) nm.generation = (nm.generation ?? 0) + 1;
  if (isNamespace) next.status = { ...((next.status as Json | undefined) ?? {}), phase: 'Terminating' };
  // generation is moved here (not by commit): a deletion is a metadata change that still counts
  const committed = server.commit(kind, live.object, next, !!req.dryRun);
  return { gone: false, object: server.readOut(committed, kind, version) };
}

/** Deletes an object for a controller (garbage collector, namespace controller): its finalizers still hold it. */
export function controllerDelete(server: ApiServer, stored: StoredObject): void {
  const kind = server.discovery.preferred(stored.group, stored.kind);
  if (!kind) {
    server.store.remove(stored);
    return;
  }
  deleteObject(server, kind, kind.version, stored.namespace, stored.name, {});
}
