import { isDeepStrictEqual } from 'node:util';
import { DiscoveryTable, type ServedKind } from './discovery-table.js';
import { parseFieldSelector, parseLabelSelector } from './label-selector.js';
import type { WriteScope } from './managed-fields.js';
import { forbidden, notFound, statusError } from './status-errors.js';
import { type Json, ObjectStore, type StoredObject } from './store.js';

/**
 * The fake API server's state and the rules every request shares: storage, discovery, clocks and ids,
 * namespaces that must exist, and the commit of a write (resourceVersion and generation, no-op detection,
 * dry-run). The writes themselves are in writes.ts and deletion.ts.
 */
export interface ServerOptions {
  /** The clock for timestamps (creationTimestamp, deletionTimestamp, managedFields times). */
  now: () => Date;
}

export type Meta = {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  finalizers?: string[];
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  ownerReferences?: { uid: string }[];
  [k: string]: unknown;
};
export const metaOf = (o: Json) => o.metadata as Meta;

const metadataOrder = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (v === null || typeof v !== 'object') return v;
  const out: Json = {};
  for (const k of Object.keys(v).sort())
    if ((v as Json)[k] !== undefined) out[k] = sortedKeys((v as Json)[k]);
  return out;
}

export class ApiServer {
  readonly store = new ObjectStore();
  readonly discovery = new DiscoveryTable();
  /** Controller runs so far, and when each deletion was first seen: controllers finish it a run later. */
  controllerRuns = 0;
  readonly deletionSeen = new Map<string, number>();
  private ids = 0;

  constructor(private readonly options: ServerOptions) {}

  /** A timestamp as the API server writes one (RFC 3339, whole seconds). */
  timestamp(): string {
    return this.options
      .now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
  }

  /** A UID (UUID-shaped, deterministic: the n-th object of this fake cluster). */
  newUid(): string {
    const n = (++this.ids).toString(16).padStart(12, '0');
    return `00000000-0000-4000-8000-${n}`;
  }

  /** The five random characters a generateName gets (deterministic here). */
  nameSuffix(): string {
    return (++this.ids).toString(36).padStart(5, 'x').slice(-5);
  }

  kindOf(group: string, version: string, kind: string): ServedKind {
    const served = this.discovery.get(group, version, kind);
    if (!served) throw statusError(404, 'NotFound', 'the server could not find the requested resource');
    return served;
  }

  /** The fields a write to the main resource or to `/status` may change. */
  scope(kind: ServedKind, subresource?: 'status'): WriteScope {
    const keep =
      subresource === 'status'
        ? (first: string) => first === 'f:status'
        : (first: string) => !(kind.hasStatus && first === 'f:status');
    return { ctx: { builtIn: kind.builtIn, kind: kind.kind }, keep };
  }

  lookup(kind: ServedKind, namespace: string, name: string): StoredObject | undefined {
    return this.store.get(kind.group, kind.kind, kind.namespaced ? namespace : '', name);
  }

  namespace(name: string): StoredObject | undefined {
    return this.store.get('', 'Namespace', '', name);
  }

  /** A namespaced write needs its Namespace, and a Namespace being deleted takes no new objects. */
  requireNamespace(kind: ServedKind, namespace: string, name: string, creating: boolean): void {
    if (!kind.namespaced) return;
    if (!namespace) throw statusError(404, 'NotFound', 'the server could not find the requested resource');
    const ns = this.namespace(namespace);
    if (!ns) throw notFound({ resource: 'namespaces', group: '' }, namespace);
    if (creating && metaOf(ns.object).deletionTimestamp)
      throw forbidden(
        kind,
        name,
        `unable to create new content in namespace ${namespace} because it is being terminated`,
      );
  }

  /**
   * The object as a request for `version` reads it, its fields in the order the server writes them: Go
   * struct order for built-in kinds, sorted keys for custom resources (served as unstructured JSON).
   */
  readOut(object: Json, kind: ServedKind, version: string): Json {
    const { kind: k, apiVersion: _a, metadata, status, ...rest } = structuredClone(object);
    const apiVersion = kind.group ? `${kind.group}/${version}` : version;
    if (!kind.builtIn) return sortedKeys({ apiVersion, kind: k, metadata, ...rest, status }) as Json;
    const m = metadata as Json;
    const meta: Json = {};
    for (const f of [...metadataOrder, ...Object.keys(m)]) if (m[f] !== undefined) meta[f] = m[f];
    return { kind: k, apiVersion, metadata: meta, ...rest, ...(status === undefined ? {} : { status }) };
  }

  get(kind: ServedKind, version: string, namespace: string, name: string): Json {
    const stored = this.lookup(kind, namespace, name);
    if (!stored) throw notFound(kind, name);
    return this.readOut(stored.object, kind, version);
  }

  /** What `?labelSelector=` and `?fieldSelector=` select (400 when they cannot be read). */
  selection(selectors: { labelSelector?: string; fieldSelector?: string }): (object: Json) => boolean {
    try {
      const labels = selectors.labelSelector ? parseLabelSelector(selectors.labelSelector) : () => true;
      const fields = selectors.fieldSelector ? parseFieldSelector(selectors.fieldSelector) : () => true;
      return (o) => labels(metaOf(o).labels ?? {}) && fields(o);
    } catch (err) {
      throw statusError(400, 'BadRequest', (err as Error).message);
    }
  }

  list(
    kind: ServedKind,
    version: string,
    namespace: string | undefined,
    selectors: { labelSelector?: string; fieldSelector?: string } = {},
  ) {
    const matches = this.selection(selectors);
    const items = this.store
      .list(kind.group, kind.kind, kind.namespaced ? namespace : undefined)
      .filter((s) => matches(s.object))
      .sort((a, b) => (a.namespace + '/' + a.name < b.namespace + '/' + b.name ? -1 : 1))
      .map((s) => {
        const item = this.readOut(s.object, kind, version);
        // a typed list's items carry no apiVersion and kind; custom resources' do
        if (kind.builtIn) {
          delete item.apiVersion;
          delete item.kind;
        }
        return item;
      });
    return { items, resourceVersion: this.store.resourceVersion };
  }

  /**
   * Stores `after` in place of `before` (undefined: a create). Unchanged: nothing is written and the
   * resourceVersion stays, as the real server skips a no-op write. A dry-run answers the same object
   * without storing it (and without a new resourceVersion). Generation moves with anything but metadata
   * and status. An object being deleted whose last finalizer went away is removed.
   */
  commit(kind: ServedKind, before: Json | undefined, after: Json, dryRun: boolean): Json {
    const m = metaOf(after);
    if (before) {
      after.apiVersion = before.apiVersion;
      if (isDeepStrictEqual(before, after)) return structuredClone(before);
      const body = (o: Json) => {
        const { metadata: _m, status: _s, apiVersion: _a, ...rest } = o;
        return rest;
      };
      if (kind.generation && !isDeepStrictEqual(body(before), body(after)))
        m.generation = (metaOf(before).generation ?? 0) + 1;
    }
    if (dryRun) return structuredClone(after);
    m.resourceVersion = this.store.nextResourceVersion();
    const stored = this.store.put(kind.group, kind.kind, after);
    if (m.deletionTimestamp && !m.finalizers?.length && kind.kind !== 'Namespace') {
      this.store.remove(stored);
      // the answer is the object as it was deleted, with the resourceVersion it had before this write
      const gone = structuredClone(after);
      if (before) metaOf(gone).resourceVersion = metaOf(before).resourceVersion;
      return gone;
    }
    return structuredClone(after);
  }
}
