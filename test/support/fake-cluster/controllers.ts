import { isDeepStrictEqual } from 'node:util';
import { type ApiServer, metaOf } from './api-server.js';
import { CrdCleanup, controllerDelete } from './deletion.js';
import type { Json, StoredObject } from './store.js';
import { updateObject } from './writes.js';

/**
 * What kube-controller-manager and the apiextensions controller do, reduced to what an apply engine
 * observes: CRDs become Established and serve their kinds, the garbage collector follows ownerReferences
 * and the Foreground/Orphan finalizers, a deleted Namespace takes its content with it, and the test's own
 * reconcilers write status (a Deployment becoming available). They run after every request, or when the
 * test calls `runControllers()` (FakeCluster option `controllers: 'manual'`).
 */

/** Returns the status a controller would write for `object`, or undefined to leave it. */
export type Reconciler = (object: Json) => Json | undefined;

export function runControllers(server: ApiServer, reconcilers: Reconciler[]): void {
  server.controllerRuns++;
  for (let pass = 0; pass < 50; pass++) {
    const before = server.store.resourceVersion;
    crds(server);
    garbageCollector(server);
    namespaces(server);
    reconcile(server, reconcilers);
    if (server.store.resourceVersion === before) return;
  }
  throw new Error('fake cluster: the controllers did not settle in 50 passes');
}

const crdGroup = 'apiextensions.k8s.io';

function crds(server: ApiServer): void {
  const live = server.store.list(crdGroup, 'CustomResourceDefinition');
  for (const crd of live) {
    if (metaOf(crd.object).deletionTimestamp) {
      // the cleanup finalizer: custom resources first, then the CRD
      const kinds = new Map(server.discovery.crdKinds(crd.name).map((k) => [k.kind, k]));
      const left = [...kinds.values()].flatMap((k) => server.store.list(k.group, k.kind));
      for (const s of left) if (!metaOf(s.object).deletionTimestamp) controllerDelete(server, s);
      if (left.length === 0) dropFinalizer(server, crd, CrdCleanup);
      continue;
    }
    server.discovery.addCrd(crd.object);
    const status = crd.object.status as { conditions?: unknown[] } | undefined;
    if (status?.conditions?.length) continue;
    const spec = crd.object.spec as { names: Json; versions?: { name: string; storage?: boolean }[] };
    const at = server.timestamp();
    const condition = (type: string, reason: string, message: string) => ({
      type,
      status: 'True',
      lastTransitionTime: at,
      reason,
      message,
    });
    writeStatus(server, crd, 'kube-apiserver', {
      conditions: [
        condition('NamesAccepted', 'NoConflicts', 'no conflicts found'),
        condition('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
      ],
      acceptedNames: spec.names,
      storedVersions: (spec.versions ?? []).filter((v) => v.storage).map((v) => v.name),
    });
  }
  const names = new Set(live.map((c) => c.name));
  for (const name of server.discovery.crdNames()) if (!names.has(name)) server.discovery.removeCrd(name);
}

/**
 * Whether a deletion the controllers handle may proceed now: not in the run that first sees it, so the
 * request after a delete still finds the object pending (Terminating), as on a real cluster.
 */
function due(server: ApiServer, s: StoredObject): boolean {
  const uid = metaOf(s.object).uid ?? '';
  const seen = server.deletionSeen.get(uid);
  if (seen === undefined) server.deletionSeen.set(uid, server.controllerRuns);
  return seen !== undefined && seen < server.controllerRuns;
}

function garbageCollector(server: ApiServer): void {
  const all = server.store.all();
  const uids = new Set(all.map((s) => metaOf(s.object).uid));
  for (const s of all) {
    const m = metaOf(s.object);
    const owners = m.ownerReferences ?? [];
    if (owners.length > 0 && owners.every((o) => !uids.has(o.uid)) && !m.deletionTimestamp)
      controllerDelete(server, s);
  }
  for (const s of server.store.all()) {
    const m = metaOf(s.object);
    if (!m.deletionTimestamp || !due(server, s)) continue;
    const dependents = server.store
      .all()
      .filter((d) => (metaOf(d.object).ownerReferences ?? []).some((o) => o.uid === m.uid));
    if (m.finalizers?.includes('foregroundDeletion')) {
      const waiting = dependents.filter((d) => !metaOf(d.object).deletionTimestamp);
      for (const d of waiting) controllerDelete(server, d);
      if (dependents.length === 0) dropFinalizer(server, s, 'foregroundDeletion');
    }
    if (m.finalizers?.includes('orphan')) {
      for (const d of dependents) {
        const next = structuredClone(d.object);
        const dm = metaOf(next);
        dm.ownerReferences = (dm.ownerReferences ?? []).filter((o) => o.uid !== m.uid);
        if (dm.ownerReferences.length === 0) delete dm.ownerReferences;
        commitStored(server, d, next);
      }
      dropFinalizer(server, s, 'orphan');
    }
  }
}

function namespaces(server: ApiServer): void {
  for (const ns of server.store.list('', 'Namespace')) {
    if (!metaOf(ns.object).deletionTimestamp || !due(server, ns)) continue;
    const content = server.store.all().filter((s) => s.namespace === ns.name);
    for (const s of content) if (!metaOf(s.object).deletionTimestamp) controllerDelete(server, s);
    if (content.length === 0) server.store.remove(ns);
  }
}

function reconcile(server: ApiServer, reconcilers: Reconciler[]): void {
  for (const s of server.store.all())
    for (const r of reconcilers) {
      const status = r(structuredClone(s.object));
      if (status !== undefined && !isDeepStrictEqual(status, s.object.status))
        writeStatus(
          server,
          server.store.get(s.group, s.kind, s.namespace, s.name)!,
          'kube-controller-manager',
          status,
        );
    }
}

/** A controller's status write (through `/status` where the kind has it). */
function writeStatus(server: ApiServer, s: StoredObject, manager: string, status: Json): void {
  const kind = kindFor(server, s);
  if (!kind) return;
  updateObject(server, {
    kind,
    version: kind.version,
    namespace: s.namespace,
    name: s.name,
    subresource: kind.hasStatus ? 'status' : undefined,
    fieldManager: manager,
    next: (live) => ({ ...live, status }),
  });
}

function dropFinalizer(server: ApiServer, s: StoredObject, finalizer: string): void {
  const next = structuredClone(s.object);
  const m = metaOf(next);
  m.finalizers = (m.finalizers ?? []).filter((f) => f !== finalizer);
  if (m.finalizers.length === 0) delete m.finalizers;
  commitStored(server, s, next);
}

function commitStored(server: ApiServer, s: StoredObject, next: Json): void {
  const kind = kindFor(server, s);
  if (kind) server.commit(kind, s.object, next, false);
  else server.store.remove(s);
}

const kindFor = (server: ApiServer, s: StoredObject) => server.discovery.preferred(s.group, s.kind);
