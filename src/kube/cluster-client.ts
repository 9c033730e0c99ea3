import type { KubeObject } from '../common/kube-object.js';
import type { ObjectId } from '../common/object-id.js';
import { type JsonPatchOp, patchHolds, writeLanded, writeOnce } from './ambiguous-write.js';
import { isNotFound } from './api-error.js';
import { Discovery, type ResourceInfo, resourcePath } from './discovery.js';
import type { HttpClient, WatchEvent } from './http-client.js';

/** An object reference; apiVersion is optional (inventory entries carry only group and kind). */
export type ObjectRef = ObjectId & { apiVersion?: string };

export interface ApplyOptions {
  fieldManager: string;
  force?: boolean;
  dryRun?: boolean;
}

export interface DeleteOptions {
  /** Delete only the object with this UID (never a newer object of the same name). */
  uid?: string;
  /** Delete only this version of the object (a lock we still hold). */
  resourceVersion?: string;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  dryRun?: boolean;
}

/** Which objects a LIST or WATCH returns (the API's `labelSelector` and `fieldSelector`). */
export interface SelectorOptions {
  labelSelector?: string;
  fieldSelector?: string;
}

export interface ListOptions extends SelectorOptions {
  /** Ask for PartialObjectMetadata only (names, labels, annotations, uid): much smaller answers. */
  metadataOnly?: boolean;
}

export interface ObjectList {
  items: KubeObject[];
  resourceVersion: string;
}

/** The only way the rest of the code talks to a cluster. */
export interface ClusterClient {
  readonly server: string;
  /** Discovery: REST mapping, cached for the run. */
  resolve(apiVersion: string, kind: string): Promise<ResourceInfo | undefined>;
  resolveId(ref: ObjectRef): Promise<ResourceInfo | undefined>;
  resetDiscovery(): void;
  /** Every namespaced kind the server serves that can be listed (preferred versions). */
  namespacedResources(): Promise<ResourceInfo[]>;
  get(ref: ObjectRef): Promise<KubeObject | undefined>;
  list(info: ResourceInfo, namespace: string | undefined, options?: ListOptions): Promise<ObjectList>;
  apply(obj: KubeObject, options: ApplyOptions): Promise<KubeObject>;
  create(obj: KubeObject, options?: { fieldManager?: string; dryRun?: boolean }): Promise<KubeObject>;
  replace(obj: KubeObject, options?: { fieldManager?: string }): Promise<KubeObject>;
  replaceStatus(obj: KubeObject): Promise<KubeObject>;
  /** A JSON patch (RFC 6902) on one object. */
  jsonPatch(
    ref: ObjectRef,
    ops: unknown[],
    options?: { fieldManager?: string; dryRun?: boolean },
  ): Promise<KubeObject>;
  /**
   * `gone`: the server removed it with this request (it answered with a `Status` of Success); `pending`: the
   * deletion started but the object is still there (finalizers, graceful deletion); `notfound`: it was not there.
   */
  delete(ref: ObjectRef, options?: DeleteOptions): Promise<'gone' | 'pending' | 'notfound'>;
  watch(
    info: ResourceInfo,
    namespace: string | undefined,
    resourceVersion: string,
    onEvent: (event: WatchEvent) => void,
    onEnd: (err?: Error) => void,
    options?: SelectorOptions,
  ): Promise<{ stop(): void }>;
  close(): void;
}

/** A kind the server does not serve. */
export class UnknownKindError extends Error {
  constructor(
    readonly apiVersion: string,
    readonly kind: string,
  ) {
    super(
      `unknown kind ${kind} (${apiVersion}): the server does not serve it and no CRD in the package defines it`,
    );
    this.name = 'UnknownKindError';
  }
}

export function createClusterClient(http: HttpClient): ClusterClient {
  const discovery = new Discovery(http);

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
  const label = (info: ResourceInfo, name?: string) =>
    `${info.resource}${info.group ? `.${info.group}` : ''}${name ? ` ${name}` : ''}`;

  const readBack = async (info: ResourceInfo, obj: Pick<KubeObject, 'metadata'>) => {
    try {
      return await http.request<KubeObject>(
        'GET',
        resourcePath(info, obj.metadata.namespace, obj.metadata.name),
        { idempotent: true, what: `get ${label(info, obj.metadata.name)}` },
      );
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  };

  // built by hand: a URLSearchParams per request is a measurable share of a 1000-object run's CPU
  const query = (params: Record<string, string | undefined>) => {
    let s = '';
    for (const k in params) {
      const v = params[k];
      if (v !== undefined) s += `${s ? '&' : '?'}${k}=${encodeURIComponent(v)}`;
    }
    return s;
  };

  return {
    server: http.server,
    resolve: (apiVersion, kind) => discovery.resolve(apiVersion, kind),
    resolveId: (ref) =>
      ref.apiVersion
        ? discovery.resolve(ref.apiVersion, ref.kind)
        : discovery.resolveGroupKind(ref.group, ref.kind),
    resetDiscovery: () => discovery.reset(),
    namespacedResources: () => discovery.namespacedResources(),

    async get(ref) {
      const info = await infoFor(ref);
      try {
        return await http.request<KubeObject>('GET', resourcePath(info, ref.namespace, ref.name), {
          idempotent: true,
          what: `get ${label(info, ref.name)}`,
        });
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },

    async list(info, namespace, options = {}) {
      const accept = options.metadataOnly
        ? 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json'
        : undefined;
      const res = await http.request<{ items: KubeObject[]; metadata: { resourceVersion: string } }>(
        'GET',
        resourcePath(info, namespace) +
          query({ labelSelector: options.labelSelector, fieldSelector: options.fieldSelector }),
        { idempotent: true, accept, what: `list ${label(info)}${namespace ? ` in ${namespace}` : ''}` },
      );
      return { items: res.items ?? [], resourceVersion: res.metadata.resourceVersion };
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
      return http.request<KubeObject>('PATCH', path, {
        body: obj,
        contentType: 'application/apply-patch+yaml',
        idempotent: true,
        what: `apply ${label(info, obj.metadata.name)}`,
      });
    },

    async create(obj, options = {}) {
      const info = await infoForObject(obj);
      const path =
        resourcePath(info, obj.metadata.namespace) +
        query({ fieldManager: options.fieldManager, dryRun: options.dryRun ? 'All' : undefined });
      const send = () =>
        http.request<KubeObject>('POST', path, {
          body: obj,
          what: `create ${label(info, obj.metadata.name)}`,
        });
      // a generateName create has no name to read back: sent once (a lost answer is an error, never a duplicate)
      if (options.dryRun || !obj.metadata.name) return send();
      // a create whose answer was lost may have happened: read it back instead of failing on AlreadyExists
      return writeOnce(
        send,
        () => readBack(info, obj),
        (live) => writeLanded(obj, live, 'create'),
      );
    },

    async replace(obj, options = {}) {
      const info = await infoForObject(obj);
      const path =
        resourcePath(info, obj.metadata.namespace, obj.metadata.name) +
        query({ fieldManager: options.fieldManager });
      // a PUT carries resourceVersion when the caller set it: a lost race is a 409, not an overwrite
      const send = () =>
        http.request<KubeObject>('PUT', path, {
          body: obj,
          what: `update ${label(info, obj.metadata.name)}`,
        });
      if (!obj.metadata.resourceVersion) return send();
      return writeOnce(
        send,
        () => readBack(info, obj),
        (live) => writeLanded(obj, live, 'replace'),
      );
    },

    async replaceStatus(obj) {
      const info = await infoForObject(obj);
      const path = `${resourcePath(info, obj.metadata.namespace, obj.metadata.name)}/status`;
      const send = () =>
        http.request<KubeObject>('PUT', path, {
          body: obj,
          what: `update status of ${label(info, obj.metadata.name)}`,
        });
      if (!obj.metadata.resourceVersion) return send();
      return writeOnce(
        send,
        () => readBack(info, obj),
        (live) => writeLanded(obj, live, 'status'),
      );
    },

    async jsonPatch(ref, ops, options = {}) {
      const info = await infoFor(ref);
      const path =
        resourcePath(info, ref.namespace, ref.name) +
        query({ fieldManager: options.fieldManager, dryRun: options.dryRun ? 'All' : undefined });
      const send = () =>
        http.request<KubeObject>('PATCH', path, {
          body: ops,
          contentType: 'application/json-patch+json',
          // a dry-run changes nothing: sending it again is harmless
          idempotent: options.dryRun,
          what: `patch ${label(info, ref.name)}`,
        });
      if (options.dryRun) return send();
      const read = () => readBack(info, { metadata: { name: ref.name, namespace: ref.namespace } });
      return writeOnce(send, read, (live) => patchHolds(ops as JsonPatchOp[], live));
    },

    async delete(ref, options = {}) {
      const info = await infoFor(ref);
      const body = {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        propagationPolicy: options.propagationPolicy,
        preconditions:
          options.uid || options.resourceVersion
            ? { uid: options.uid, resourceVersion: options.resourceVersion }
            : undefined,
        dryRun: options.dryRun ? ['All'] : undefined,
      };
      try {
        const res = await http.request<{ kind?: string; status?: unknown }>(
          'DELETE',
          resourcePath(info, ref.namespace, ref.name),
          {
            body,
            // with a UID precondition a repeated DELETE can never hit a newer object
            idempotent: !!options.uid,
            what: `delete ${label(info, ref.name)}`,
          },
        );
        return res?.kind === 'Status' && res.status === 'Success' && !options.dryRun ? 'gone' : 'pending';
      } catch (err) {
        if (isNotFound(err)) return 'notfound';
        throw err;
      }
    },

    watch(info, namespace, resourceVersion, onEvent, onEnd, options = {}) {
      const path =
        resourcePath(info, namespace) +
        query({
          labelSelector: options.labelSelector,
          fieldSelector: options.fieldSelector,
          watch: 'true',
          resourceVersion,
          allowWatchBookmarks: 'true',
          timeoutSeconds: '300',
        });
      return http.watch(path, onEvent, onEnd);
    },

    close: () => http.close(),
  };
}
