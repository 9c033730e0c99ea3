import { splitApiVersion } from '../common/kube-object.js';
import { isNotFound } from './api-error.js';
import type { HttpClient } from './http-client.js';

/** How to reach one kind over REST. */
export interface ResourceInfo {
  group: string;
  version: string;
  kind: string;
  /** The plural resource name in URLs (`deployments`). */
  resource: string;
  namespaced: boolean;
  verbs: string[];
  /** True when the resource has a `/status` subresource. */
  hasStatus: boolean;
}

interface ApiResourceList {
  resources: { name: string; kind: string; namespaced: boolean; verbs?: string[] }[];
}

interface ApiGroupList {
  groups: { name: string; preferredVersion?: { version: string }; versions: { version: string }[] }[];
}

/**
 * Kinds every supported server (1.20 and later) serves the same way, resolved without a discovery request:
 * only the run lock's Lease (`coordination.k8s.io/v1` since 1.14), whose create is the first write of every
 * apply and destroy and would otherwise wait one discovery round trip for its path.
 */
const alwaysServed: ReadonlyMap<string, ResourceInfo> = new Map([
  [
    'coordination.k8s.io/v1/Lease',
    {
      group: 'coordination.k8s.io',
      version: 'v1',
      kind: 'Lease',
      resource: 'leases',
      namespaced: true,
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      hasStatus: false,
    },
  ],
]);

/**
 * Discovery, fetched lazily per group-version and cached for the run (one request per group-version
 * used). `reset()` after CRDs are established makes new kinds visible.
 */
export class Discovery {
  private readonly byGroupVersion = new Map<string, Promise<Map<string, ResourceInfo> | undefined>>();
  private groups?: Promise<ApiGroupList>;

  constructor(private readonly http: HttpClient) {}

  reset(): void {
    this.byGroupVersion.clear();
    this.groups = undefined;
  }

  /** The resource for apiVersion + kind, or undefined when the server does not serve it. */
  async resolve(apiVersion: string, kind: string): Promise<ResourceInfo | undefined> {
    const fixed = alwaysServed.get(`${apiVersion}/${kind}`);
    if (fixed) return fixed;
    const kinds = await this.groupVersion(apiVersion);
    return kinds?.get(kind);
  }

  /** For ids without a version (inventory entries): the group's preferred version. */
  async resolveGroupKind(group: string, kind: string): Promise<ResourceInfo | undefined> {
    if (group === '') return this.resolve('v1', kind);
    const list = await this.groupList();
    const g = list.groups.find((x) => x.name === group);
    if (!g) return undefined;
    const versions = [g.preferredVersion?.version, ...g.versions.map((v) => v.version)].filter(
      (v): v is string => !!v,
    );
    for (const v of new Set(versions)) {
      const info = await this.resolve(`${group}/${v}`, kind);
      if (info) return info;
    }
    return undefined;
  }

  /**
   * Every namespaced kind that can be listed, in each group's preferred version (what `kubectl api-resources
   * --namespaced --verbs=list` shows): to tell whether a Namespace still holds anything.
   */
  async namespacedResources(): Promise<ResourceInfo[]> {
    const list = await this.groupList();
    const versions = [
      'v1',
      ...list.groups.flatMap((g) => {
        const v = g.preferredVersion?.version ?? g.versions[0]?.version;
        return v ? [`${g.name}/${v}`] : [];
      }),
    ];
    const maps = await Promise.all(versions.map((v) => this.groupVersion(v)));
    return maps.flatMap((m) =>
      [...(m?.values() ?? [])].filter((info) => info.namespaced && info.verbs.includes('list')),
    );
  }

  private groupList(): Promise<ApiGroupList> {
    if (!this.groups) {
      const groups = this.http.request<ApiGroupList>('GET', '/apis', {
        idempotent: true,
        what: 'discovery /apis',
      });
      // a failure is not remembered: the next lookup asks again
      groups.catch(() => {
        if (this.groups === groups) this.groups = undefined;
      });
      this.groups = groups;
    }
    return this.groups;
  }

  private groupVersion(apiVersion: string): Promise<Map<string, ResourceInfo> | undefined> {
    let entry = this.byGroupVersion.get(apiVersion);
    if (!entry) {
      const { group, version } = splitApiVersion(apiVersion);
      const path = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
      entry = this.http
        .request<ApiResourceList>('GET', path, { idempotent: true, what: `discovery ${apiVersion}` })
        .then((list) => {
          const map = new Map<string, ResourceInfo>();
          const names = new Set(list.resources.map((r) => r.name));
          for (const r of list.resources) {
            if (r.name.includes('/')) continue;
            map.set(r.kind, {
              group,
              version,
              kind: r.kind,
              resource: r.name,
              namespaced: r.namespaced,
              verbs: r.verbs ?? [],
              hasStatus: names.has(`${r.name}/status`),
            });
          }
          return map;
        })
        .catch((err: unknown) => {
          if (isNotFound(err)) return undefined;
          this.byGroupVersion.delete(apiVersion);
          throw err;
        });
      this.byGroupVersion.set(apiVersion, entry);
    }
    return entry;
  }
}

/** The REST path of a collection or one object. */
export function resourcePath(info: ResourceInfo, namespace?: string, name?: string): string {
  const root = info.group === '' ? `/api/${info.version}` : `/apis/${info.group}/${info.version}`;
  const ns = info.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const tail = name ? `/${encodeURIComponent(name)}` : '';
  return `${root}${ns}/${info.resource}${tail}`;
}
