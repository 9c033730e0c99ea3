import type { WatchEvent } from '../../../src/kube/http-client.js';

/**
 * The fake cluster's storage, as etcd behind the API server: objects keyed by group, kind, namespace and
 * name (never the version), one resourceVersion counter for the whole cluster, and the history of changes
 * that watches replay from a resourceVersion.
 */
export type Json = Record<string, unknown>;

export interface StoredObject {
  group: string;
  kind: string;
  namespace: string;
  name: string;
  object: Json;
}

export interface StoreEvent {
  rv: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  stored: StoredObject;
}

export interface Watcher {
  group: string;
  kind: string;
  namespace?: string;
  version: string;
  /** The watch's label and field selectors. */
  accept?: (object: Json) => boolean;
  send(event: WatchEvent): void;
  end(err?: Error): void;
}

export const storeKey = (group: string, kind: string, namespace: string, name: string) =>
  `${group}/${kind}/${namespace}/${name}`;

const meta = (o: Json) => o.metadata as { name: string; namespace?: string; resourceVersion?: string };

export class ObjectStore {
  private readonly objects = new Map<string, StoredObject>();
  private readonly history: StoreEvent[] = [];
  /** Open watches, each with what it selects. */
  private readonly watchers = new Map<Watcher, (s: StoredObject) => boolean>();
  private revision: number;

  constructor(firstRevision = 1000) {
    this.revision = firstRevision;
  }

  /** The latest resourceVersion (what a list answers). */
  get resourceVersion(): string {
    return String(this.revision);
  }

  nextResourceVersion(): string {
    this.revision++;
    return String(this.revision);
  }

  get(group: string, kind: string, namespace: string, name: string): StoredObject | undefined {
    return this.objects.get(storeKey(group, kind, namespace, name));
  }

  all(): StoredObject[] {
    return [...this.objects.values()];
  }

  list(group: string, kind: string, namespace?: string): StoredObject[] {
    return this.all().filter(
      (s) => s.group === group && s.kind === kind && (namespace === undefined || s.namespace === namespace),
    );
  }

  /** Stores `object` (its resourceVersion already set) and tells the watches. */
  put(group: string, kind: string, object: Json): StoredObject {
    const m = meta(object);
    const stored = { group, kind, namespace: m.namespace ?? '', name: m.name, object };
    const key = storeKey(group, kind, stored.namespace, m.name);
    const type = this.objects.has(key) ? 'MODIFIED' : 'ADDED';
    this.objects.set(key, stored);
    this.record({ rv: Number(m.resourceVersion), type, stored });
    return stored;
  }

  /** Removes an object; the DELETED event carries it with a new resourceVersion, as the server sends it. */
  remove(stored: StoredObject): void {
    const key = storeKey(stored.group, stored.kind, stored.namespace, stored.name);
    if (!this.objects.delete(key)) return;
    const object = structuredClone(stored.object);
    meta(object).resourceVersion = this.nextResourceVersion();
    this.record({ rv: this.revision, type: 'DELETED', stored: { ...stored, object } });
  }

  /** Starts a watch: events after `resourceVersion` (or, for '' and '0', the current objects as ADDED). */
  watch(w: Watcher, resourceVersion: string): () => void {
    const matches = (s: StoredObject) =>
      s.group === w.group &&
      s.kind === w.kind &&
      (w.namespace === undefined || s.namespace === w.namespace) &&
      (w.accept?.(s.object) ?? true);
    const replay =
      resourceVersion === '' || resourceVersion === '0'
        ? this.all()
            .filter(matches)
            .map((stored) => ({ rv: 0, type: 'ADDED' as const, stored }))
        : this.history.filter((e) => e.rv > Number(resourceVersion) && matches(e.stored));
    const watcher: Watcher = {
      ...w,
      send: (event) => setImmediate(() => this.watchers.has(watcher) && w.send(event)),
    };
    this.watchers.set(watcher, matches);
    for (const e of replay) watcher.send(this.eventFor(e, w.version));
    return () => this.watchers.delete(watcher);
  }

  /** Ends every open watch (the server or a proxy closing the streams). */
  /** How many watches are open. */
  get openWatches(): number {
    return this.watchers.size;
  }

  endWatches(err?: Error): void {
    for (const w of [...this.watchers.keys()]) {
      this.watchers.delete(w);
      setImmediate(() => w.end(err));
    }
  }

  private record(event: StoreEvent): void {
    this.history.push(event);
    for (const [w, matches] of this.watchers)
      if (matches(event.stored)) w.send(this.eventFor(event, w.version));
  }

  private eventFor(e: StoreEvent, version: string): WatchEvent {
    const object = structuredClone(e.stored.object);
    object.apiVersion = e.stored.group ? `${e.stored.group}/${version}` : version;
    return { type: e.type, object };
  }
}
