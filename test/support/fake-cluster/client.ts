import type { KubeObject } from '../../../src/common/kube-object.js';
import { type ClusterClient, type ObjectRef, UnknownKindError } from '../../../src/kube/cluster-client.js';
import { type ResourceInfo, resourcePath } from '../../../src/kube/discovery.js';
import { ClientDiscovery } from './client-discovery.js';
import { deleteObject } from './deletion.js';
import { type ClusterParts, label, query, requestSender } from './request-sender.js';
import type { Json } from './store.js';
import { applyObject, createObject, patchObject, updateObject } from './writes.js';

/**
 * A `ClusterClient` on a fake cluster: the same methods, paths, error messages (`KubeApiError` with the
 * server's code, reason, message and causes) and return values as `createClusterClient` on a real server,
 * with discovery cached per client as the real one caches it (`resetDiscovery()` shows new CRD kinds).
 * The real client's retries and read-backs after a lost answer are not modelled: a fault reaches the caller.
 */
export function fakeClusterClient(parts: ClusterParts): ClusterClient {
  const { server } = parts;

  const send = requestSender(parts);

  const discovery = new ClientDiscovery(server, (path, what, serve) =>
    send(
      { op: 'discovery', method: 'GET', path, group: '', version: '', kind: '', namespace: '', name: '' },
      what,
      serve,
    ),
  );

  const infoFor = async (ref: ObjectRef): Promise<ResourceInfo> => {
    const info = ref.apiVersion
      ? await discovery.resolve(ref.apiVersion, ref.kind)
      : await discovery.resolveGroupKind(ref.group, ref.kind);
    if (!info) throw new UnknownKindError(ref.apiVersion ?? (ref.group || 'v1'), ref.kind);
    return info;
  };
  const infoForObject = (obj: KubeObject) =>
    infoFor({
      apiVersion: obj.apiVersion,
      group: '',
      kind: obj.kind,
      namespace: '',
      name: obj.metadata.name,
    });
  const target = (info: ResourceInfo, namespace: string | undefined, name: string) => ({
    group: info.group,
    version: info.version,
    kind: info.kind,
    namespace: info.namespaced ? (namespace ?? '') : '',
    name,
  });
  const served = (info: ResourceInfo) => server.kindOf(info.group, info.version, info.kind);

  return {
    server: parts.url,
    resolve: (apiVersion, kind) => discovery.resolve(apiVersion, kind),
    resolveId: (ref) =>
      ref.apiVersion
        ? discovery.resolve(ref.apiVersion, ref.kind)
        : discovery.resolveGroupKind(ref.group, ref.kind),
    resetDiscovery: () => discovery.reset(),
    namespacedResources: () => discovery.namespacedResources(),

    async get(ref) {
      const info = await infoFor(ref);
      const path = resourcePath(info, ref.namespace, ref.name);
      try {
        return (await send(
          { op: 'get', method: 'GET', path, ...target(info, ref.namespace, ref.name) },
          `get ${label(info, ref.name)}`,
          () => server.get(served(info), info.version, ref.namespace, ref.name),
        )) as KubeObject;
      } catch (err) {
        if ((err as { code?: number }).code === 404) return undefined;
        throw err;
      }
    },

    async list(info, namespace, options = {}) {
      const { labelSelector, fieldSelector } = options;
      const path = resourcePath(info, namespace) + query({ labelSelector, fieldSelector });
      const what = `list ${label(info)}${namespace ? ` in ${namespace}` : ''}`;
      const res = await send({ op: 'list', method: 'GET', path, ...target(info, namespace, '') }, what, () =>
        server.list(served(info), info.version, namespace, { labelSelector, fieldSelector }),
      );
      const items = options.metadataOnly
        ? res.items.map((o) => ({
            apiVersion: 'meta.k8s.io/v1',
            kind: 'PartialObjectMetadata',
            metadata: o.metadata,
          }))
        : res.items;
      return { items: items as KubeObject[], resourceVersion: res.resourceVersion };
    },

    async apply(obj, options) {
      const info = await infoForObject(obj);
      const path =
        resourcePath(info, obj.metadata.namespace, obj.metadata.name) +
        query({
          fieldManager: options.fieldManager,
          force: options.force ? 'true' : undefined,
          dryRun: options.dryRun ? 'All' : undefined,
        });
      const fields = {
        op: 'apply' as const,
        method: 'PATCH' as const,
        path,
        ...target(info, obj.metadata.namespace, obj.metadata.name),
      };
      const res = await send(
        { ...fields, dryRun: options.dryRun, fieldManager: options.fieldManager, force: !!options.force },
        `apply ${label(info, obj.metadata.name)}`,
        () => applyObject(server, served(info), info.version, obj as Json, options),
        (r) => r.created,
      );
      return res.object as KubeObject;
    },

    async create(obj, options = {}) {
      const info = await infoForObject(obj);
      const path =
        resourcePath(info, obj.metadata.namespace) +
        query({ fieldManager: options.fieldManager, dryRun: options.dryRun ? 'All' : undefined });
      const fields = {
        op: 'create' as const,
        method: 'POST' as const,
        path,
        ...target(info, obj.metadata.namespace, obj.metadata.name ?? ''),
      };
      return (await send(
        { ...fields, dryRun: options.dryRun, fieldManager: options.fieldManager },
        `create ${label(info, obj.metadata.name)}`,
        () => createObject(server, served(info), info.version, obj as Json, options),
        () => true,
      )) as KubeObject;
    },

    async replace(obj, options = {}) {
      const info = await infoForObject(obj);
      const { namespace, name } = obj.metadata;
      const path = resourcePath(info, namespace, name) + query({ fieldManager: options.fieldManager });
      return (await send(
        {
          op: 'replace',
          method: 'PUT',
          path,
          ...target(info, namespace, name),
          fieldManager: options.fieldManager,
        },
        `update ${label(info, name)}`,
        () =>
          updateObject(server, {
            kind: served(info),
            version: info.version,
            namespace: namespace ?? '',
            name,
            fieldManager: options.fieldManager,
            next: () => structuredClone(obj as Json),
          }),
      )) as KubeObject;
    },

    async replaceStatus(obj) {
      const info = await infoForObject(obj);
      const { namespace, name } = obj.metadata;
      const path = `${resourcePath(info, namespace, name)}/status`;
      return (await send(
        { op: 'replaceStatus', method: 'PUT', path, ...target(info, namespace, name) },
        `update status of ${label(info, name)}`,
        () =>
          updateObject(server, {
            kind: served(info),
            version: info.version,
            namespace: namespace ?? '',
            name,
            subresource: 'status',
            next: () => structuredClone(obj as Json),
          }),
      )) as KubeObject;
    },

    async jsonPatch(ref, ops, options = {}) {
      const info = await infoFor(ref);
      const path =
        resourcePath(info, ref.namespace, ref.name) +
        query({ fieldManager: options.fieldManager, dryRun: options.dryRun ? 'All' : undefined });
      return (await send(
        {
          op: 'jsonPatch',
          method: 'PATCH',
          path,
          ...target(info, ref.namespace, ref.name),
          dryRun: options.dryRun,
          fieldManager: options.fieldManager,
        },
        `patch ${label(info, ref.name)}`,
        () =>
          patchObject(server, {
            kind: served(info),
            version: info.version,
            namespace: ref.namespace,
            name: ref.name,
            ops,
            fieldManager: options.fieldManager,
            dryRun: options.dryRun,
          }),
      )) as KubeObject;
    },

    async delete(ref, options = {}) {
      const info = await infoFor(ref);
      const path = resourcePath(info, ref.namespace, ref.name);
      try {
        const answer = await send(
          {
            op: 'delete',
            method: 'DELETE',
            path,
            ...target(info, ref.namespace, ref.name),
            dryRun: options.dryRun,
          },
          `delete ${label(info, ref.name)}`,
          () => deleteObject(server, served(info), info.version, ref.namespace, ref.name, options),
        );
        return answer.gone && !options.dryRun ? 'gone' : 'pending';
      } catch (err) {
        if ((err as { code?: number }).code === 404) return 'notfound';
        throw err;
      }
    },

    async watch(info, namespace, resourceVersion, onEvent, onEnd, options = {}) {
      const { labelSelector, fieldSelector } = options;
      const path =
        resourcePath(info, namespace) +
        query({
          labelSelector,
          fieldSelector,
          watch: 'true',
          resourceVersion,
          allowWatchBookmarks: 'true',
          timeoutSeconds: '300',
        });
      const stop = await send(
        { op: 'watch', method: 'GET', path, ...target(info, namespace, '') },
        `watch ${label(info)}`,
        () =>
          server.store.watch(
            {
              group: info.group,
              kind: info.kind,
              namespace: info.namespaced ? namespace : undefined,
              version: info.version,
              accept: server.selection(options),
              send: onEvent,
              end: onEnd,
            },
            resourceVersion,
          ),
      );
      return { stop };
    },

    close: () => {},
  };
}
