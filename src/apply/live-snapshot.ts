import type { KubeObject } from '../common/kube-object.js';
import { idKey } from '../common/object-id.js';
import { KubeApiError } from '../kube/api-error.js';
import type { ClusterClient, ObjectRef } from '../kube/cluster-client.js';
import type { ResourceInfo } from '../kube/discovery.js';

/** Live objects by idKey: the object, null when absent, missing from the map when its kind is unknown. */
export type LiveSnapshot = Map<string, KubeObject | null>;

/**
 * Reads the live state of many objects cheaply: one LIST per kind and namespace (metadata only unless
 * `full`) instead of a GET per object; GETs where there are only a few objects of a kind, or when the
 * credentials may not list.
 */
export async function readLiveSnapshot(
  client: ClusterClient,
  refs: ObjectRef[],
  options: LiveReadOptions = {},
): Promise<LiveSnapshot> {
  return new LiveReader(client, options).read(refs);
}

export interface LiveReadOptions {
  full?: boolean;
  listThreshold?: number;
  concurrency?: number;
}

/**
 * readLiveSnapshot in steps: a kind and namespace listed once is not listed again, so a run can read the
 * package's objects while the inventory is read, then only what the inventory adds.
 */
export class LiveReader {
  private readonly listed = new Map<string, Map<string, KubeObject>>();
  private readonly snapshot: LiveSnapshot = new Map();

  constructor(
    private readonly client: ClusterClient,
    private readonly options: LiveReadOptions = {},
  ) {}

  /** The live state of `refs` (and of everything read before). */
  async read(refs: ObjectRef[]): Promise<LiveSnapshot> {
    const { client, options, snapshot } = this;
    const groups = new Map<string, { info: ResourceInfo; namespace?: string; refs: ObjectRef[] }>();
    for (const ref of refs) {
      if (snapshot.has(idKey(ref))) continue;
      const info = await client.resolveId(ref);
      if (!info) continue;
      const ns = info.namespaced ? ref.namespace : undefined;
      const key = `${info.group}/${info.kind}/${ns ?? ''}`;
      const found = this.listed.get(key);
      if (found) {
        snapshot.set(idKey(ref), found.get(idKey(ref)) ?? null);
        continue;
      }
      let g = groups.get(key);
      if (!g) {
        g = { info, namespace: ns, refs: [] };
        groups.set(key, g);
      }
      g.refs.push(ref);
    }
    const threshold = options.listThreshold ?? 3;
    const getOne = async (ref: ObjectRef) => void snapshot.set(idKey(ref), (await client.get(ref)) ?? null);
    const tasks: (() => Promise<void>)[] = [];
    for (const [key, g] of groups) {
      if (g.refs.length < threshold) {
        for (const ref of g.refs) tasks.push(() => getOne(ref));
        continue;
      }
      tasks.push(async () => {
        try {
          const list = await client.list(g.info, g.namespace, { metadataOnly: !options.full });
          const found = new Map<string, KubeObject>();
          for (const item of list.items) {
            const obj = withType(item, g.info);
            found.set(
              idKey({
                group: g.info.group,
                kind: g.info.kind,
                namespace: obj.metadata.namespace ?? '',
                name: obj.metadata.name,
              }),
              obj,
            );
          }
          this.listed.set(key, found);
          for (const ref of g.refs) snapshot.set(idKey(ref), found.get(idKey(ref)) ?? null);
        } catch (err) {
          if (!(err instanceof KubeApiError && err.forbidden)) throw err;
          await Promise.all(g.refs.map(getOne));
        }
      });
    }
    // bounded parallelism over the LISTs and GETs
    const limit = options.concurrency ?? 8;
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(limit, tasks.length) }, async () => {
        while (next < tasks.length) await tasks[next++]();
      }),
    );
    return snapshot;
  }
}

/** PartialObjectMetadata items carry meta.k8s.io's type: put the real apiVersion and kind back. */
function withType(item: KubeObject, info: ResourceInfo): KubeObject {
  return {
    ...item,
    apiVersion: info.group ? `${info.group}/${info.version}` : info.version,
    kind: info.kind,
  };
}
