import { isDeepStrictEqual } from 'node:util';
import { type ApiServer, metaOf } from './api-server.js';
import type { ServedKind } from './discovery-table.js';
import { applyJsonPatch, JsonPatchError } from './json-patch.js';
import {
  ApplyConflict,
  decodeManagedFields,
  encodeManagedFields,
  type ManagerEntry,
  serverSideApply,
  updateManagedFields,
} from './managed-fields.js';
import {
  alreadyExists,
  invalid,
  modified,
  notFound,
  preconditionFailed,
  statusError,
} from './status-errors.js';
import type { Json } from './store.js';
import { validateName, validateUpdate } from './validation.js';

/**
 * Creates, server-side applies, updates (PUT, `/status`) and JSON patches, with the managedFields each
 * leaves. The manager of a write without `fieldManager` is the client's user agent up to its `/`, as the
 * real server derives it: the product's client sends `kpt-live-action/<version>`.
 */
export const DefaultManager = 'kpt-live-action';

export interface WriteOptions {
  fieldManager?: string;
  dryRun?: boolean;
}

const systemFields = ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'selfLink'];
const systemFieldsOnUpdate = [...systemFields, 'deletionTimestamp', 'deletionGracePeriodSeconds'];

function withoutManagedFields(o: Json): Json {
  const out = structuredClone(o);
  delete metaOf(out).managedFields;
  return out;
}

function setManagedFields(o: Json, entries: ManagerEntry[]): void {
  const encoded = encodeManagedFields(entries);
  if (encoded.length > 0) metaOf(o).managedFields = encoded;
  else delete metaOf(o).managedFields;
}

/** Namespaced objects get the request's namespace; cluster-scoped ones none. */
function placed(kind: ServedKind, body: Json): Json {
  const obj = structuredClone(body);
  obj.metadata = { ...((obj.metadata as Json | undefined) ?? {}) };
  if (!kind.namespaced) delete metaOf(obj).namespace;
  return obj;
}

/** What the server sets on every new object: uid, creationTimestamp, generation, a kind's defaults. */
function newObjectFields(server: ApiServer, kind: ServedKind, obj: Json): void {
  const m = metaOf(obj);
  m.uid = server.newUid();
  m.creationTimestamp = server.timestamp();
  if (kind.generation) m.generation = 1;
  if (kind.builtIn && kind.kind === 'Namespace') {
    obj.spec = { finalizers: ['kubernetes'], ...((obj.spec as Json | undefined) ?? {}) };
    // 1.21 and later label every Namespace with its name
    m.labels = { ...(m.labels ?? {}), 'kubernetes.io/metadata.name': m.name };
    obj.status = { phase: 'Active' };
  } else if (kind.hasStatus && kind.builtIn) obj.status = {};
  else if (kind.hasStatus) delete obj.status;
}

export function createObject(
  server: ApiServer,
  kind: ServedKind,
  version: string,
  body: Json,
  opts: WriteOptions,
) {
  const obj = placed(kind, body);
  const m = metaOf(obj);
  if (!m.name && typeof m.generateName === 'string') m.name = `${m.generateName}${server.nameSuffix()}`;
  if (!m.name)
    throw invalid(kind.kind, kind.group, '', [
      {
        reason: 'FieldValueRequired',
        field: 'metadata.name',
        message: 'Required value: name or generateName is required',
      },
    ]);
  server.requireNamespace(kind, m.namespace ?? '', m.name, true);
  const bad = validateName(kind, m.name);
  if (bad) throw bad;
  if (server.lookup(kind, m.namespace ?? '', m.name)) throw alreadyExists(kind, m.name);
  const given = decodeManagedFields(m.managedFields);
  for (const f of [...systemFields, 'managedFields']) delete m[f];
  newObjectFields(server, kind, obj);
  const entries = updateManagedFields({
    scope: server.scope(kind),
    before: {},
    after: obj,
    entries: given,
    manager: opts.fieldManager ?? DefaultManager,
    apiVersion: String(body.apiVersion),
    now: server.timestamp(),
  });
  setManagedFields(obj, entries);
  return server.readOut(server.commit(kind, undefined, obj, !!opts.dryRun), kind, version);
}

export function applyObject(
  server: ApiServer,
  kind: ServedKind,
  version: string,
  body: Json,
  opts: WriteOptions & { force?: boolean },
): { object: Json; created: boolean } {
  const config = placed(kind, body);
  const m = metaOf(config);
  if (!opts.fieldManager)
    throw invalid(kind.kind, kind.group, m.name, [
      {
        reason: 'FieldValueRequired',
        field: 'fieldManager',
        message: 'Required value: is required for apply patch',
      },
    ]);
  const live = server.lookup(kind, m.namespace ?? '', m.name);
  server.requireNamespace(kind, m.namespace ?? '', m.name, !live);
  if (live && m.resourceVersion !== undefined && m.resourceVersion !== metaOf(live.object).resourceVersion)
    throw modified(kind, m.name);
  if (m.managedFields !== undefined)
    throw statusError(400, 'BadRequest', 'metadata.managedFields must be nil');
  for (const f of systemFieldsOnUpdate) delete m[f];
  if (kind.hasStatus) delete config.status;
  let result: { object: Json; entries: ManagerEntry[] };
  try {
    result = serverSideApply({
      scope: server.scope(kind),
      live: live ? withoutManagedFields(live.object) : {},
      entries: decodeManagedFields(live ? metaOf(live.object).managedFields : undefined),
      config,
      manager: opts.fieldManager,
      apiVersion: String(body.apiVersion),
      force: !!opts.force,
      now: server.timestamp(),
    });
  } catch (err) {
    if (!(err instanceof ApplyConflict)) throw err;
    throw statusError(409, 'Conflict', err.message, { causes: err.causes() });
  }
  const obj = result.object;
  if (!live) {
    const bad = validateName(kind, m.name);
    if (bad) throw bad;
    newObjectFields(server, kind, obj);
  } else {
    const bad = validateUpdate(kind, live.object, obj);
    if (bad) throw bad;
  }
  setManagedFields(obj, result.entries);
  const committed = server.commit(kind, live?.object, obj, !!opts.dryRun);
  return { object: server.readOut(committed, kind, version), created: !live };
}

export interface UpdateRequest extends WriteOptions {
  kind: ServedKind;
  version: string;
  namespace: string;
  name: string;
  subresource?: 'status';
  /** The object the write asks for, from the live one (a PUT's body, a patched copy). */
  next: (live: Json) => Json;
}

/** An update (PUT, PUT /status, JSON patch): preconditions, the fields the subresource may change, managedFields. */
export function updateObject(server: ApiServer, req: UpdateRequest): Json {
  const { kind, subresource } = req;
  const live = server.lookup(kind, req.namespace, req.name);
  if (!live) throw notFound(kind, req.name);
  const liveMeta = metaOf(live.object);
  let next: Json;
  try {
    next = placed(kind, req.next(structuredClone(live.object)));
  } catch (err) {
    if (!(err instanceof JsonPatchError)) throw err;
    // the server's answer says no more than this (the patcher's own message is not sent)
    throw statusError(422, 'Invalid', 'the server rejected our request due to an error in our request');
  }
  const nm = metaOf(next);
  if (nm.resourceVersion !== undefined && nm.resourceVersion !== liveMeta.resourceVersion)
    throw modified(kind, req.name);
  if (nm.uid !== undefined && nm.uid !== liveMeta.uid)
    throw preconditionFailed(kind, req.name, 'UID', nm.uid, liveMeta.uid ?? '');
  let result: Json;
  if (subresource === 'status') {
    result = structuredClone(live.object);
    if (next.status === undefined) delete result.status;
    else result.status = next.status;
  } else {
    result = next;
    for (const f of systemFieldsOnUpdate) {
      if (liveMeta[f] === undefined) delete nm[f];
      else nm[f] = liveMeta[f];
    }
    nm.name = liveMeta.name;
    if (kind.hasStatus) {
      if (live.object.status === undefined) delete result.status;
      else result.status = structuredClone(live.object.status);
    }
  }
  const asked = nm.managedFields;
  const takeGiven =
    !subresource &&
    Array.isArray(asked) &&
    asked.length > 0 &&
    !isDeepStrictEqual(asked, liveMeta.managedFields);
  const entries = updateManagedFields({
    scope: server.scope(kind, subresource),
    before: withoutManagedFields(live.object),
    after: withoutManagedFields(result),
    entries: decodeManagedFields(takeGiven ? asked : liveMeta.managedFields),
    manager: req.fieldManager ?? DefaultManager,
    apiVersion: kind.group ? `${kind.group}/${req.version}` : req.version,
    subresource,
    now: server.timestamp(),
  });
  if (!subresource) {
    const bad = validateUpdate(kind, live.object, result);
    if (bad) throw bad;
  }
  setManagedFields(result, entries);
  return server.readOut(server.commit(kind, live.object, result, !!req.dryRun), kind, req.version);
}

/** A JSON patch: the ops run on the live object (a failed `test` is a 422), then it is an update. */
export function patchObject(server: ApiServer, req: Omit<UpdateRequest, 'next'> & { ops: unknown[] }): Json {
  return updateObject(server, { ...req, next: (live) => applyJsonPatch(live, req.ops) });
}
