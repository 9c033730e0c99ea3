import { splitApiVersion } from '../../../src/common/kube-object.js';
import type { ResourceInfo } from '../../../src/kube/discovery.js';
import type { ApiServer } from './api-server.js';
import { ServerError, statusError } from './status-errors.js';

/**
 * A client's view of discovery, cached as the product's `Discovery` caches it: one request per
 * group-version (and one for `/apis`), remembered until `reset()`, so a kind whose CRD was established
 * after the first lookup stays unknown until then. The run lock's Lease resolves without a request, as in
 * the real client.
 */
type Send = <T>(path: string, what: string, serve: () => T) => Promise<T>;

const lease: ResourceInfo = {
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  resource: 'leases',
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  hasStatus: false,
};

const infoOf = (k: ResourceInfo): ResourceInfo => ({
  group: k.group,
  version: k.version,
  kind: k.kind,
  resource: k.resource,
  namespaced: k.namespaced,
  verbs: [...k.verbs],
  hasStatus: k.hasStatus,
});

export class ClientDiscovery {
  private readonly byGroupVersion = new Map<string, Promise<Map<string, ResourceInfo> | undefined>>();
  private groups?: Promise<{ name: string; versions: string[] }[]>;

  constructor(
    private readonly server: ApiServer,
    private readonly send: Send,
  ) {}

  reset(): void {
    this.byGroupVersion.clear();
    this.groups = undefined;
  }

  async resolve(apiVersion: string, kind: string): Promise<ResourceInfo | undefined> {
    if (apiVersion === 'coordination.k8s.io/v1' && kind === 'Lease') return { ...lease };
    return (await this.groupVersion(apiVersion))?.get(kind);
  }

  async resolveGroupKind(group: string, kind: string): Promise<ResourceInfo | undefined> {
    if (group === '') return this.resolve('v1', kind);
    const g = (await this.groupList()).find((x) => x.name === group);
    for (const v of g?.versions ?? []) {
      const info = await this.resolve(`${group}/${v}`, kind);
      if (info) return info;
    }
    return undefined;
  }

  async namespacedResources(): Promise<ResourceInfo[]> {
    const groups = await this.groupList();
    const versions = ['v1', ...groups.map((g) => `${g.name}/${g.versions[0]}`)];
    const maps = await Promise.all(versions.map((v) => this.groupVersion(v)));
    return maps.flatMap((m) =>
      [...(m?.values() ?? [])].filter((i) => i.namespaced && i.verbs.includes('list')),
    );
  }

  private groupList() {
    if (!this.groups) {
      const table = this.server.discovery;
      const groups = this.send('/apis', 'discovery /apis', () =>
        table.groups().map((name) => ({ name, versions: table.versionsOf(name) })),
      );
      groups.catch(() => {
        if (this.groups === groups) this.groups = undefined;
      });
      this.groups = groups;
    }
    return this.groups;
  }

  private groupVersion(apiVersion: string) {
    let entry = this.byGroupVersion.get(apiVersion);
    if (!entry) {
      const { group, version } = splitApiVersion(apiVersion);
      const path = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
      entry = this.send(path, `discovery ${apiVersion}`, () => {
        const kinds = this.server.discovery.groupVersion(group, version);
        if (!kinds) throw statusError(404, 'NotFound', 'the server could not find the requested resource');
        return new Map(kinds.map((k) => [k.kind, infoOf(k)]));
      }).catch((err: unknown) => {
        if ((err as { code?: number }).code === 404 || (err instanceof ServerError && err.code === 404))
          return undefined;
        this.byGroupVersion.delete(apiVersion);
        throw err;
      });
      this.byGroupVersion.set(apiVersion, entry);
    }
    return entry;
  }
}
