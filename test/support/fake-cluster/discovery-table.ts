import type { ResourceInfo } from '../../../src/kube/discovery.js';

/**
 * What the fake cluster serves: the common built-in kinds (as a 1.2x+ server serves them) and the kinds of
 * the CRDs written to it. `generation` says whether the kind keeps metadata.generation (bumped when
 * anything but metadata and status changes).
 */
export interface ServedKind extends ResourceInfo {
  generation: boolean;
  builtIn: boolean;
}

const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

// [group/version, kind, plural, namespaced, has /status, keeps generation]
const builtIns: [string, string, string, boolean, boolean, boolean][] = [
  ['v1', 'ConfigMap', 'configmaps', true, false, false],
  ['v1', 'Secret', 'secrets', true, false, false],
  ['v1', 'Service', 'services', true, true, false],
  ['v1', 'ServiceAccount', 'serviceaccounts', true, false, false],
  ['v1', 'Pod', 'pods', true, true, false],
  ['v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true, true, false],
  ['v1', 'PersistentVolume', 'persistentvolumes', false, true, false],
  ['v1', 'Endpoints', 'endpoints', true, false, false],
  ['v1', 'Event', 'events', true, false, false],
  ['v1', 'LimitRange', 'limitranges', true, false, false],
  ['v1', 'ResourceQuota', 'resourcequotas', true, true, false],
  ['v1', 'Namespace', 'namespaces', false, true, false],
  ['apps/v1', 'Deployment', 'deployments', true, true, true],
  ['apps/v1', 'StatefulSet', 'statefulsets', true, true, true],
  ['apps/v1', 'DaemonSet', 'daemonsets', true, true, true],
  ['apps/v1', 'ReplicaSet', 'replicasets', true, true, true],
  ['batch/v1', 'Job', 'jobs', true, true, true],
  ['batch/v1', 'CronJob', 'cronjobs', true, true, true],
  ['rbac.authorization.k8s.io/v1', 'Role', 'roles', true, false, false],
  ['rbac.authorization.k8s.io/v1', 'RoleBinding', 'rolebindings', true, false, false],
  ['rbac.authorization.k8s.io/v1', 'ClusterRole', 'clusterroles', false, false, false],
  ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', 'clusterrolebindings', false, false, false],
  ['networking.k8s.io/v1', 'Ingress', 'ingresses', true, true, true],
  ['networking.k8s.io/v1', 'NetworkPolicy', 'networkpolicies', true, false, true],
  ['policy/v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true, true, true],
  ['autoscaling/v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', true, true, false],
  ['autoscaling/v1', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', true, true, false],
  ['coordination.k8s.io/v1', 'Lease', 'leases', true, false, false],
  ['storage.k8s.io/v1', 'StorageClass', 'storageclasses', false, false, false],
  ['scheduling.k8s.io/v1', 'PriorityClass', 'priorityclasses', false, false, false],
  ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'customresourcedefinitions', false, true, true],
];

function split(apiVersion: string) {
  const i = apiVersion.indexOf('/');
  return i < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/** Kubernetes' version priority: GA before beta before alpha, higher numbers first (v2 > v1 > v1beta1). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [0, 0, 0];
    return [m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1, Number(m[1]), Number(m[3] ?? 0)];
  };
  const [pa, pb] = [parse(a), parse(b)];
  // stability first, then major, then the pre-release number
  return pb[0] - pa[0] || pb[1] - pa[1] || pb[2] - pa[2] || (a < b ? -1 : a > b ? 1 : 0);
}

export class DiscoveryTable {
  private readonly kinds = new Map<string, ServedKind>();
  /** The CRD each custom kind came from (by CRD name), to remove them with it. */
  private readonly fromCrd = new Map<string, string[]>();

  constructor() {
    for (const [gv, kind, resource, namespaced, hasStatus, generation] of builtIns)
      this.add({ ...split(gv), kind, resource, namespaced, hasStatus, generation, verbs, builtIn: true });
  }

  add(kind: ServedKind): void {
    this.kinds.set(`${kind.group}/${kind.version}/${kind.kind}`, kind);
  }

  get(group: string, version: string, kind: string): ServedKind | undefined {
    return this.kinds.get(`${group}/${version}/${kind}`);
  }

  /** Every kind of one group-version (what `GET /apis/<group>/<version>` lists), or undefined when not served. */
  groupVersion(group: string, version: string): ServedKind[] | undefined {
    const out = [...this.kinds.values()].filter((k) => k.group === group && k.version === version);
    return out.length > 0 ? out : undefined;
  }

  /** The served versions of a group, preferred first. */
  versionsOf(group: string): string[] {
    const versions = new Set([...this.kinds.values()].filter((k) => k.group === group).map((k) => k.version));
    return [...versions].sort(compareVersions);
  }

  /** The kind in the preferred version of its group that serves it. */
  preferred(group: string, kind: string): ServedKind | undefined {
    for (const v of this.versionsOf(group)) {
      const k = this.get(group, v, kind);
      if (k) return k;
    }
    return undefined;
  }

  crdNames(): string[] {
    return [...this.fromCrd.keys()];
  }

  crdKinds(name: string): ServedKind[] {
    return (this.fromCrd.get(name) ?? []).flatMap((key) => this.kinds.get(key) ?? []);
  }

  groups(): string[] {
    return [...new Set([...this.kinds.values()].map((k) => k.group))].filter((g) => g !== '').sort();
  }

  /** Serves the kinds of an established CRD (every served version). */
  addCrd(crd: Record<string, unknown>): void {
    const name = (crd.metadata as { name: string }).name;
    this.removeCrd(name);
    const spec = (crd.spec ?? {}) as {
      group: string;
      scope?: string;
      names: { kind: string; plural: string };
      versions?: { name: string; served?: boolean; subresources?: { status?: unknown } }[];
    };
    const keys: string[] = [];
    for (const v of spec.versions ?? []) {
      if (v.served === false) continue;
      this.add({
        group: spec.group,
        version: v.name,
        kind: spec.names.kind,
        resource: spec.names.plural,
        namespaced: spec.scope !== 'Cluster',
        hasStatus: !!v.subresources?.status,
        verbs,
        generation: true,
        builtIn: false,
      });
      keys.push(`${spec.group}/${v.name}/${spec.names.kind}`);
    }
    this.fromCrd.set(name, keys);
  }

  removeCrd(name: string): void {
    for (const key of this.fromCrd.get(name) ?? []) this.kinds.delete(key);
    this.fromCrd.delete(name);
  }
}
