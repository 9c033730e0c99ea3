import type { KubeObject } from '../common/kube-object.js';
import { idKey } from '../common/object-id.js';
import { KubeApiError } from '../kube/api-error.js';
import type { ClusterClient, ObjectRef } from '../kube/cluster-client.js';
import type { ResourceInfo } from '../kube/discovery.js';
import { isRetryable } from '../kube/retry.js';

/** What the watcher knows of one object: the live object, null when it does not exist, undefined before sync. */
export type Observed = KubeObject | null | undefined;

interface Feed {
  info: ResourceInfo;
  namespace: string | undefined;
  tracked: Set<string>;
  synced: Promise<void>;
  stop(): void;
}

/**
 * Keeps a cache of the objects a run cares about: one LIST + WATCH per kind and namespace (never
 * cluster-wide for namespaced kinds, so a namespace-scoped user works), re-listing when a watch ends,
 * and polling GETs when the credentials may not list or watch.
 */
export class ObjectWatcher {
  private readonly cache = new Map<string, KubeObject | null>();
  private readonly feeds = new Map<string, Feed>();
  private readonly listeners = new Set<(key: string) => void>();
  private stopped = false;

  constructor(
    /** The run's cluster client (fail-fast lists pods through it). */
    readonly client: ClusterClient,
    private readonly options: { pollMs?: number } = {},
  ) {}

  get(ref: ObjectRef): Observed {
    const key = idKey(ref);
    return this.cache.has(key) ? this.cache.get(key) : undefined;
  }

  subscribe(listener: (key: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Starts watching these objects; resolves once each one's kind and namespace has been listed, with the
   * refs whose kind and namespace were already watched before this call: their cached state may predate a
   * write the caller just made (refresh them). The others come from a LIST made after this call began.
   */
  async track(refs: ObjectRef[]): Promise<ObjectRef[]> {
    const waits: Promise<void>[] = [];
    const known: ObjectRef[] = [];
    const started = new Set<Feed>();
    for (const ref of refs) {
      const info = await this.client.resolveId(ref);
      if (!info) {
        this.set(idKey(ref), null);
        continue;
      }
      const ns = info.namespaced ? ref.namespace : undefined;
      const feedKey = `${info.group}/${info.kind}/${ns ?? ''}`;
      let feed = this.feeds.get(feedKey);
      if (!feed) {
        feed = this.startFeed(info, ns);
        this.feeds.set(feedKey, feed);
        started.add(feed);
      }
      if (!started.has(feed)) known.push(ref);
      feed.tracked.add(idKey(ref));
      waits.push(feed.synced);
    }
    await Promise.all(waits);
    // an object that the list did not return does not exist (yet)
    for (const ref of refs) if (!this.cache.has(idKey(ref))) this.set(idKey(ref), null);
    return known;
  }

  /**
   * Fetches these objects again right now (after a write), so a wait never reads a stale answer: one LIST
   * per kind and namespace where three or more share one, else a GET each.
   */
  async refresh(refs: ObjectRef[]): Promise<void> {
    // several objects of one kind and namespace: one LIST instead of a GET each (a prune wave of many)
    const groups = new Map<string, { info: ResourceInfo; namespace?: string; refs: ObjectRef[] }>();
    const gets: ObjectRef[] = [];
    for (const ref of refs) {
      const info = await this.client.resolveId(ref);
      if (!info) {
        gets.push(ref);
        continue;
      }
      const namespace = info.namespaced ? ref.namespace : undefined;
      const key = `${info.group}/${info.kind}/${namespace ?? ''}`;
      const g = groups.get(key) ?? { info, namespace, refs: [] };
      g.refs.push(ref);
      groups.set(key, g);
    }
    const byGet = (list: ObjectRef[]) =>
      Promise.all(list.map(async (ref) => this.set(idKey(ref), (await this.client.get(ref)) ?? null)));
    const lists = [...groups.values()].map(async (g) => {
      if (g.refs.length < 3) return byGet(g.refs);
      let items: KubeObject[];
      try {
        items = (await this.client.list(g.info, g.namespace)).items;
      } catch (err) {
        if (err instanceof KubeApiError && err.forbidden) return byGet(g.refs);
        throw err;
      }
      const wanted = new Set(g.refs.map((r) => idKey(r)));
      const found = new Set<string>();
      for (const item of items) {
        const key = this.keyOf(g.info, item);
        if (!wanted.has(key)) continue;
        item.apiVersion ??= g.info.group ? `${g.info.group}/${g.info.version}` : g.info.version;
        item.kind ??= g.info.kind;
        found.add(key);
        this.set(key, item);
      }
      for (const key of wanted) if (!found.has(key)) this.set(key, null);
    });
    await Promise.all([...lists, byGet(gets)]);
  }

  stop(): void {
    this.stopped = true;
    for (const f of this.feeds.values()) f.stop();
    this.listeners.clear();
  }

  private set(key: string, obj: KubeObject | null): void {
    this.cache.set(key, obj);
    for (const l of this.listeners) l(key);
  }

  private keyOf(info: ResourceInfo, obj: KubeObject): string {
    return idKey({
      group: info.group,
      kind: info.kind,
      namespace: obj.metadata.namespace ?? '',
      name: obj.metadata.name,
    });
  }

  private startFeed(info: ResourceInfo, namespace: string | undefined): Feed {
    const tracked = new Set<string>();
    let handle: { stop(): void } | undefined;
    let pollTimer: NodeJS.Timeout | undefined;
    let feedStopped = false;
    let resolveSynced!: () => void;
    let rejectSynced!: (err: Error) => void;
    const synced = new Promise<void>((res, rej) => {
      resolveSynced = res;
      rejectSynced = rej;
    });
    let firstSync = true;

    const poll = async () => {
      if (feedStopped || this.stopped) return;
      for (const key of tracked) {
        const ref = refFromKey(key, info);
        try {
          this.set(key, (await this.client.get(ref)) ?? null);
        } catch {
          // keep the last answer; try again next round
        }
      }
      if (firstSync) {
        firstSync = false;
        resolveSynced();
      }
      pollTimer = setTimeout(() => void poll(), this.options.pollMs ?? 1000);
    };

    // consecutive failures: the delay before the next LIST grows (100 ms … 5 s) and resets on a good LIST
    let failures = 0;
    const again = () => {
      if (feedStopped || this.stopped) return;
      const delay = Math.min(5000, 100 * 2 ** Math.min(failures, 6));
      failures++;
      setTimeout(() => void listAndWatch(), delay);
    };

    const listAndWatch = async (): Promise<void> => {
      if (feedStopped || this.stopped) return;
      try {
        const list = await this.client.list(info, namespace);
        if (feedStopped || this.stopped) return;
        failures = 0;
        const seen = new Set<string>();
        for (const item of list.items) {
          item.apiVersion ??= info.group ? `${info.group}/${info.version}` : info.version;
          item.kind ??= info.kind;
          const key = this.keyOf(info, item);
          seen.add(key);
          if (tracked.has(key)) this.set(key, item);
        }
        for (const key of tracked) if (!seen.has(key)) this.set(key, null);
        if (firstSync) {
          firstSync = false;
          resolveSynced();
        }
        handle = await this.client.watch(
          info,
          namespace,
          list.resourceVersion,
          (ev) => {
            // an ERROR event (410 Expired, ...) is followed by the server closing the stream: we re-list then
            if (ev.type === 'BOOKMARK' || ev.type === 'ERROR') return;
            const obj = ev.object as unknown as KubeObject;
            const key = this.keyOf(info, obj);
            if (!tracked.has(key)) return;
            this.set(key, ev.type === 'DELETED' ? null : obj);
          },
          (err) => {
            if (feedStopped || this.stopped) return;
            if (err instanceof KubeApiError && err.forbidden) {
              void poll(); // may list but not watch: poll instead
              return;
            }
            // the stream ended or dropped: re-list (events in between are in the new list) and watch again
            if (err) again();
            else setTimeout(() => void listAndWatch(), 100);
          },
        );
        if (feedStopped || this.stopped) handle.stop();
      } catch (err) {
        if (err instanceof KubeApiError && err.forbidden) {
          // may not list/watch here: fall back to polling each object
          void poll();
          return;
        }
        if (firstSync && !isRetryable(err)) {
          rejectSynced(err as Error);
          return;
        }
        again();
      }
    };

    void listAndWatch();
    return {
      info,
      namespace,
      tracked,
      synced,
      stop() {
        feedStopped = true;
        handle?.stop();
        if (pollTimer) clearTimeout(pollTimer);
      },
    };
  }
}

function refFromKey(key: string, info: ResourceInfo): ObjectRef {
  // key = `${ns}_${name}_${group}_${kind}`; names never contain `_`
  const [namespace, name] = key.split('_');
  return {
    apiVersion: info.group ? `${info.group}/${info.version}` : info.version,
    group: info.group,
    kind: info.kind,
    namespace,
    name,
  };
}
