import type { KubeObject } from '../../../src/common/kube-object.js';
import type { ClusterClient } from '../../../src/kube/cluster-client.js';
import { ApiServer, metaOf } from './api-server.js';
import { fakeClusterClient } from './client.js';
import { type Reconciler, runControllers } from './controllers.js';
import type { ServedKind } from './discovery-table.js';
import { Faults, RequestLog } from './requests.js';
import type { Json } from './store.js';
import { applyObject, createObject, updateObject } from './writes.js';

/**
 * An in-memory Kubernetes API server for unit tests of code that takes a `ClusterClient`: objects with
 * uid, resourceVersion, generation, finalizers and managedFields; server-side apply with conflicts and
 * shared ownership; dry-runs; preconditions; discovery with CRDs; watches; a request log; faults.
 * test/integration/fake-cluster-parity.test.ts holds it to the real server's answers.
 *
 *   const fake = new FakeCluster();
 *   fake.seed(configMap, { manager: 'kubectl-client-side-apply' });   // state a tool left
 *   const client = fake.client();                                     // a ClusterClient
 *   fake.faults.fail({ op: 'apply', name: 'web', dryRun: false }, 409);
 *   ... run the code under test with `client` ...
 *   expect(fake.log.writes()).toEqual([]);                            // no write that is not a dry-run
 */
export interface FakeClusterOptions {
  /** The clock (timestamps); the real one by default. */
  now?: () => Date;
  /** Namespaces that exist from the start (default: default, kube-system, kube-public, kube-node-lease). */
  namespaces?: string[];
  /** `auto` (default): controllers run after every request; `manual`: only on `runControllers()`. */
  controllers?: 'auto' | 'manual';
  /** Status writers, e.g. `readyWorkloads` (controllers run them after every request). */
  reconcilers?: Reconciler[];
  /** The URL the clients report as `server`. */
  url?: string;
}

/** An object as tests name one: `apiVersion` or `group` (core: none), kind, namespace (none: cluster-scoped), name. */
export interface FakeRef {
  apiVersion?: string;
  group?: string;
  kind: string;
  namespace?: string;
  name: string;
}

export interface SeedOptions {
  /** The field manager that wrote it (default `kubectl-create`). */
  manager?: string;
  /** `Update` (default: kubectl create/replace/client-side apply) or `Apply` (a server-side apply). */
  operation?: 'Update' | 'Apply';
}

/** Metadata a seed may set that a write never could: kept as given. */
const seededMetadata = [
  'uid',
  'creationTimestamp',
  'generation',
  'deletionTimestamp',
  'finalizers',
  'managedFields',
];

export class FakeCluster {
  readonly log = new RequestLog();
  readonly faults = new Faults();
  private readonly api: ApiServer;
  private readonly reconcilers: Reconciler[];
  private readonly manual: boolean;
  private readonly url: string;

  constructor(options: FakeClusterOptions = {}) {
    this.api = new ApiServer({ now: options.now ?? (() => new Date()) });
    this.reconcilers = [...(options.reconcilers ?? [])];
    this.manual = options.controllers === 'manual';
    this.url = options.url ?? 'https://fake-cluster.invalid';
    for (const ns of options.namespaces ?? ['default', 'kube-system', 'kube-public', 'kube-node-lease'])
      this.seed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  }

  /** A new client (its own discovery cache) on this cluster. */
  client(): ClusterClient {
    return fakeClusterClient({
      server: this.api,
      log: this.log,
      faults: this.faults,
      url: this.url,
      afterRequest: () => {
        if (!this.manual) runControllers(this.api, this.reconcilers);
      },
    });
  }

  /**
   * Puts objects in the cluster as if `options.manager` had written them (never logged, never faulted).
   * A namespaced object's Namespace is created when missing. uid, creationTimestamp, generation,
   * deletionTimestamp, finalizers, status and managedFields given in the object are kept as given, so a
   * test can seed exactly what a tool or controller left. Returns the stored objects.
   */
  seed(...objects: (KubeObject | [KubeObject, SeedOptions])[]): KubeObject[] {
    return objects.map((entry) => {
      const [obj, opts] = Array.isArray(entry) ? entry : [entry, {}];
      return this.seedOne(obj as unknown as Json, opts);
    });
  }

  private seedOne(obj: Json, opts: SeedOptions): KubeObject {
    const kind = this.kind(obj.apiVersion as string, obj.kind as string);
    const m = metaOf(obj);
    if (kind.namespaced && m.namespace && !this.api.namespace(m.namespace))
      this.seed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: m.namespace } });
    const manager = opts.manager ?? 'kubectl-create';
    const body = structuredClone(obj);
    for (const f of [...seededMetadata, 'resourceVersion']) delete metaOf(body)[f];
    const live = this.api.lookup(kind, m.namespace ?? '', m.name);
    if (opts.operation === 'Apply')
      applyObject(this.api, kind, kind.version, body, { fieldManager: manager, force: true });
    else if (live)
      updateObject(this.api, {
        kind,
        version: kind.version,
        namespace: m.namespace ?? '',
        name: m.name,
        fieldManager: manager,
        next: () => body,
      });
    else createObject(this.api, kind, kind.version, body, { fieldManager: manager });
    const stored = this.api.lookup(kind, m.namespace ?? '', m.name)!;
    const given = seededMetadata.filter((f) => m[f] !== undefined);
    if (given.length > 0 || obj.status !== undefined) {
      const next = structuredClone(stored.object);
      for (const f of given) metaOf(next)[f] = structuredClone(m[f]);
      if (obj.status !== undefined) next.status = structuredClone(obj.status);
      metaOf(next).resourceVersion = this.api.store.nextResourceVersion();
      this.api.store.put(kind.group, kind.kind, next);
    }
    if (!this.manual) runControllers(this.api, this.reconcilers);
    return this.object({
      apiVersion: obj.apiVersion as string,
      kind: kind.kind,
      namespace: m.namespace,
      name: m.name,
    })!;
  }

  /** The object as it is stored now (in `apiVersion`, else its group's preferred version), or undefined. */
  object(ref: FakeRef): KubeObject | undefined {
    const kind = this.kindOfRef(ref);
    const stored = kind && this.api.lookup(kind, ref.namespace ?? '', ref.name);
    return stored ? (this.api.readOut(stored.object, kind, kind.version) as KubeObject) : undefined;
  }

  /** Every stored object (optionally only those `filter` accepts), in their preferred versions. */
  objects(filter: (o: KubeObject) => boolean = () => true): KubeObject[] {
    return this.api.store
      .all()
      .flatMap((s) => {
        const kind = this.api.discovery.preferred(s.group, s.kind);
        return kind ? [this.api.readOut(s.object, kind, kind.version) as KubeObject] : [];
      })
      .filter(filter);
  }

  /** Writes `status` as a controller would (`/status`, manager kube-controller-manager; never logged). */
  setStatus(ref: FakeRef, status: Record<string, unknown>): KubeObject {
    const kind = this.kindOfRef(ref);
    if (!kind) throw new Error(`fake cluster: ${ref.kind} is not served`);
    const out = updateObject(this.api, {
      kind,
      version: kind.version,
      namespace: ref.namespace ?? '',
      name: ref.name,
      subresource: kind.hasStatus ? 'status' : undefined,
      fieldManager: 'kube-controller-manager',
      next: (live) => ({ ...live, status }),
    });
    if (!this.manual) this.runControllers();
    return out as KubeObject;
  }

  addReconciler(reconciler: Reconciler): void {
    this.reconcilers.push(reconciler);
  }

  /**
   * Runs the controllers (CRDs, garbage collector, namespace deletion, reconcilers) until they settle. A
   * deletion they handle finishes in the run after the one that first sees it (so the request after a
   * delete finds the object pending): this runs them twice.
   */
  runControllers(): void {
    runControllers(this.api, this.reconcilers);
    runControllers(this.api, this.reconcilers);
  }

  /** How many watches are open (a finished run must leave none). */
  openWatches(): number {
    return this.api.store.openWatches;
  }

  /** Ends every open watch (as a server restart or a proxy timeout would), with `err` or cleanly. */
  endWatches(err?: Error): void {
    this.api.store.endWatches(err);
  }

  /** Drops held (`hang`) requests and ends the watches. */
  close(): void {
    this.faults.dropHeld();
    this.endWatches();
  }

  /** The resourceVersion the next list would answer. */
  get resourceVersion(): string {
    return this.api.store.resourceVersion;
  }

  private kind(apiVersion: string, kind: string): ServedKind {
    const i = apiVersion.indexOf('/');
    const [group, version] = i < 0 ? ['', apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
    const served = this.api.discovery.get(group, version, kind);
    if (!served) throw new Error(`fake cluster: ${kind} (${apiVersion}) is not served: seed its CRD first`);
    return served;
  }

  private kindOfRef(ref: FakeRef): ServedKind | undefined {
    if (ref.apiVersion) return this.kind(ref.apiVersion, ref.kind);
    return this.api.discovery.preferred(ref.group ?? '', ref.kind);
  }
}
