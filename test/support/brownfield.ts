import { isDeepStrictEqual } from 'node:util';
import type { RestClient } from '../../scripts/control-plane/rest.js';
import { Annotations, Labels } from '../../src/common/constants.js';
import type { KubeObject } from '../../src/common/kube-object.js';
import { resourceGroupCrd } from '../../src/inventory/install-crd.js';
import type { InventoryRef } from '../../src/inventory/inventory-types.js';
import type { Obj } from './harness/obj.js';

/**
 * The states real tools leave on a cluster, made with the requests those tools send (field manager,
 * operation, annotations), so brownfield tests need neither kubectl nor kpt. What each helper sends was
 * compared by hand with the real tool (kubectl 1.33 and kpt 1.0.0-beta.56 against the test control plane,
 * `kubectl get -o json --show-managed-fields`): the same managedFields entries (manager, operation,
 * subresource) and the same annotations; see docs/reliability.md ("Brownfield clusters").
 */

const plurals: Record<string, string> = {
  ConfigMap: 'configmaps',
  Secret: 'secrets',
  Service: 'services',
  Deployment: 'deployments',
  ResourceGroup: 'resourcegroups',
  CustomResourceDefinition: 'customresourcedefinitions',
  Namespace: 'namespaces',
};

/** The collection path of an object's kind (`/api/v1/namespaces/x/configmaps`); `plural` for CRD kinds. */
export function collectionPath(obj: Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'>, plural?: string) {
  const p = plural ?? plurals[obj.kind] ?? `${obj.kind.toLowerCase()}s`;
  const prefix = obj.apiVersion.includes('/') ? `/apis/${obj.apiVersion}` : `/api/${obj.apiVersion}`;
  const ns = obj.metadata.namespace ? `/namespaces/${obj.metadata.namespace}` : '';
  return `${prefix}${ns}/${p}`;
}

export function objectPath(obj: Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'>, plural?: string) {
  return `${collectionPath(obj, plural)}/${obj.metadata.name}`;
}

async function ok<T>(what: string, res: Promise<{ status: number; body: T }>): Promise<T> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: HTTP ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

const isRecord = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's encoding/json of a map: keys sorted, no spaces. */
function goJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  if (isRecord(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${goJson(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** kubectl's last-applied-configuration: the applied object (without that annotation) as JSON, plus a newline. */
export function lastAppliedOf(obj: KubeObject): string {
  const copy = structuredClone(obj) as Obj;
  // kubectl adds the annotation to the object, then serializes it without: an empty map stays
  const { [Annotations.LastApplied]: _self, ...rest } = copy.metadata.annotations ?? {};
  copy.metadata.annotations = rest;
  return `${goJson(copy)}\n`;
}

function withAnnotations(obj: KubeObject, extra: Record<string, string>): KubeObject {
  const copy = structuredClone(obj);
  copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}), ...extra };
  return copy;
}

/** kubectl's three-way patch: what changed from the live object, and null for what left the last-applied. */
function threeWay(original: Obj, modified: Obj, current: Obj): Obj {
  const patch: Obj = {};
  for (const [k, v] of Object.entries(modified)) {
    const cur = current[k];
    if (isRecord(v) && isRecord(cur)) {
      const sub = threeWay(isRecord(original[k]) ? original[k] : {}, v, cur);
      if (Object.keys(sub).length > 0) patch[k] = sub;
    } else if (!isDeepStrictEqual(v, cur)) patch[k] = v;
  }
  for (const k of Object.keys(original)) if (!(k in modified)) patch[k] = null;
  return patch;
}

/**
 * A client-side apply as kubectl's apply library sends it: the object with its last-applied annotation,
 * created with POST, or updated with a three-way strategic merge patch (merge patch for custom kinds);
 * an Update operation under `manager`.
 */
async function clientSideApply(api: RestClient, obj: KubeObject, manager: string, plural?: string) {
  const sent = withAnnotations(obj, { [Annotations.LastApplied]: lastAppliedOf(obj) });
  const q = `?fieldManager=${encodeURIComponent(manager)}`;
  const live = await api.request<Obj>('GET', objectPath(obj, plural));
  if (live.status === 404)
    return ok(
      `create ${obj.kind}/${obj.metadata.name}`,
      api.request<Obj>('POST', collectionPath(obj, plural) + q, sent),
    );
  const lastText = live.body.metadata?.annotations?.[Annotations.LastApplied];
  const original = lastText ? (JSON.parse(lastText) as Obj) : {};
  const patch = threeWay(original, sent as Obj, live.body);
  const builtIn = !!plurals[obj.kind] && obj.kind !== 'ResourceGroup';
  const type = builtIn ? 'application/strategic-merge-patch+json' : 'application/merge-patch+json';
  return ok(
    `patch ${obj.kind}/${obj.metadata.name}`,
    api.request<Obj>('PATCH', objectPath(obj, plural) + q, patch, type),
  );
}

/** `kubectl apply -f` (client-side, kubectl's default): manager `kubectl-client-side-apply`, Update. */
export function kubectlApply(api: RestClient, obj: KubeObject, plural?: string) {
  return clientSideApply(api, obj, 'kubectl-client-side-apply', plural);
}

/** `kubectl apply --server-side` (manager `kubectl`, Apply; conflicts fail unless `force`). */
export function kubectlApplyServerSide(
  api: RestClient,
  obj: KubeObject,
  opts: { force?: boolean; manager?: string } = {},
) {
  const q = `?fieldManager=${opts.manager ?? 'kubectl'}${opts.force ? '&force=true' : ''}`;
  return ok(
    `server-side apply ${obj.kind}/${obj.metadata.name}`,
    api.request<Obj>('PATCH', objectPath(obj) + q, obj, 'application/apply-patch+yaml'),
  );
}

async function ensureResourceGroupKind(api: RestClient) {
  const crd = await resourceGroupCrd();
  const res = await api.request('POST', collectionPath(crd), crd);
  if (res.status !== 201 && res.status !== 409) throw new Error(`ResourceGroup CRD: HTTP ${res.status}`);
  for (let i = 0; i < 100; i++) {
    const list = await api.request('GET', '/apis/kpt.dev/v1alpha1');
    if (list.status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const rgRef = (inv: InventoryRef): KubeObject => ({
  apiVersion: 'kpt.dev/v1alpha1',
  kind: 'ResourceGroup',
  metadata: { name: inv.name, namespace: inv.namespace },
});

/** kpt's inventory (a ResourceGroup listing the objects, labelled with the inventory id), created or replaced. */
export async function writeKptInventory(api: RestClient, inv: InventoryRef, objects: KubeObject[]) {
  await ensureResourceGroupKind(api);
  const resources = objects.map((o) => ({
    group: o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '',
    kind: o.kind,
    name: o.metadata.name,
    namespace: o.metadata.namespace ?? '',
  }));
  const live = await api.request<Obj>('GET', objectPath(rgRef(inv)));
  const rg = {
    ...rgRef(inv),
    metadata: {
      ...rgRef(inv).metadata,
      labels: { [Labels.InventoryId]: inv.id },
      ...(live.status === 200 ? { resourceVersion: live.body.metadata.resourceVersion } : {}),
    },
    spec: { resources },
  };
  const q = '?fieldManager=kubectl';
  if (live.status === 404) await ok('create inventory', api.request('POST', collectionPath(rg) + q, rg));
  else await ok('update inventory', api.request('PUT', objectPath(rg) + q, rg));
}

/**
 * `kpt live apply` (client-side, kpt's default): the inventory first (old ∪ new), each object as a
 * client-side apply by manager `kubectl` with the owning-inventory annotation; with `serverSide`, a
 * server-side apply by `kubectl` (and, only where the object already carried a last-applied annotation,
 * that annotation kept current by a metadata-only apply of manager `kubectl-last-applied`); then prune (objects the inventory listed that left the package), then the
 * inventory's final set.
 */
export async function kptLiveApply(
  api: RestClient,
  objects: KubeObject[],
  inv: InventoryRef,
  opts: { serverSide?: boolean; previous?: KubeObject[]; plural?: Record<string, string> } = {},
) {
  const previous = opts.previous ?? [];
  const key = (o: KubeObject) =>
    `${o.apiVersion.split('/')[0]}/${o.kind}/${o.metadata.namespace}/${o.metadata.name}`;
  const keys = new Set(objects.map(key));
  const gone = previous.filter((o) => !keys.has(key(o)));
  await writeKptInventory(api, inv, [...objects, ...gone]);
  for (const o of objects) {
    const obj = withAnnotations(o, { [Annotations.OwningInventory]: inv.id });
    const plural = opts.plural?.[o.kind];
    if (!opts.serverSide) {
      await clientSideApply(api, obj, 'kubectl', plural);
      continue;
    }
    const before = await api.request<Obj>('GET', objectPath(obj, plural));
    const hadLastApplied =
      before.status === 200 && !!before.body.metadata.annotations?.[Annotations.LastApplied];
    await ok(
      `kpt server-side apply ${o.kind}/${o.metadata.name}`,
      api.request(
        'PATCH',
        `${objectPath(obj, plural)}?fieldManager=kubectl`,
        obj,
        'application/apply-patch+yaml',
      ),
    );
    // kubectl's apply code keeps an existing last-applied annotation current (manager `kubectl-last-applied`)
    if (!hadLastApplied) continue;
    const meta = {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      metadata: {
        name: obj.metadata.name,
        namespace: obj.metadata.namespace,
        annotations: { [Annotations.LastApplied]: lastAppliedOf(obj) },
      },
    };
    await ok(
      `kpt last-applied ${o.kind}/${o.metadata.name}`,
      api.request(
        'PATCH',
        `${objectPath(obj, plural)}?fieldManager=kubectl-last-applied`,
        meta,
        'application/apply-patch+yaml',
      ),
    );
  }
  for (const o of gone) await api.request('DELETE', objectPath(o, opts.plural?.[o.kind]));
  await writeKptInventory(api, inv, objects);
}

/**
 * A Helm 3 install or upgrade of one object: manager `helm`, Update operations (POST, then a strategic
 * merge patch of the changed fields), Helm's ownership label and annotations, no last-applied annotation.
 */
export async function helmApply(api: RestClient, obj: KubeObject, release: string) {
  const marked = withAnnotations(obj, {
    'meta.helm.sh/release-name': release,
    'meta.helm.sh/release-namespace': obj.metadata.namespace ?? 'default',
  });
  marked.metadata.labels = { ...(marked.metadata.labels ?? {}), 'app.kubernetes.io/managed-by': 'Helm' };
  const live = await api.request<Obj>('GET', objectPath(obj));
  if (live.status === 404)
    return ok('helm install', api.request<Obj>('POST', `${collectionPath(obj)}?fieldManager=helm`, marked));
  const patch = threeWay({}, marked as Obj, live.body);
  return ok(
    'helm upgrade',
    api.request<Obj>(
      'PATCH',
      `${objectPath(obj)}?fieldManager=helm`,
      patch,
      'application/strategic-merge-patch+json',
    ),
  );
}

/**
 * A write of `spec.replicas` through the `scale` subresource, as a HorizontalPodAutoscaler (manager
 * `kube-controller-manager`) or `kubectl scale` (manager `kubectl`) sends it.
 */
export function scale(
  api: RestClient,
  deployment: KubeObject,
  replicas: number,
  manager = 'kube-controller-manager',
) {
  return ok(
    'scale',
    api.request(
      'PATCH',
      `${objectPath(deployment)}/scale?fieldManager=${manager}`,
      { spec: { replicas } },
      'application/merge-patch+json',
    ),
  );
}

/** The managedFields entries of a live object as `manager/operation[/subresource]`, sorted. */
export async function managers(api: RestClient, obj: KubeObject, plural?: string): Promise<string[]> {
  const live = await ok('get', api.request<Obj>('GET', objectPath(obj, plural)));
  return ((live.metadata.managedFields ?? []) as Obj[])
    .map((e) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}`)
    .sort();
}

/*
 * Checked by hand (2026-11-23, kubectl v1.32.4 and kpt 1.0.0-beta.56 against the Kubernetes 1.37.2 test control
 * plane): each tool and the matching helper were run on two namespaces with the same objects (a Deployment and
 * a ConfigMap), and compared with `--show-managed-fields`:
 * - `kubectl apply` (create, then a change): managers `kubectl-client-side-apply/Update` (plus the controller's
 *   status entry) on both; the last-applied annotations byte for byte equal (kubectl keeps `"annotations":{}`).
 * - `kubectl apply --server-side`: `kubectl/Apply` on both.
 * - `kpt live apply` (client-side; create, then a change): `kubectl/Update`, annotations owning-inventory and
 *   last-applied (byte for byte equal), the `kubectl` entries' fieldsV1 equal after both applies, and the
 *   ResourceGroup's spec and inventory-id label equal.
 * - `kpt live apply --server-side`: `kubectl/Apply` only, owning-inventory and no last-applied annotation on a
 *   fresh object (kubectl's `kubectl-last-applied` entry appears only where a last-applied annotation was
 *   there before), fieldsV1 equal, ResourceGroup equal.
 * - `kubectl scale`: `kubectl/Update/scale` on both (1.37 records the subresource; 1.20 records nothing).
 * Helm is not installed here: helmApply follows Helm 3's documented behaviour (field manager `helm`, Update
 * operations, its label and annotations) and was not compared with a real Helm.
 */
