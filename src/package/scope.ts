import { getPath, type KubeObject, splitApiVersion } from '../common/kube-object.js';
import type { SourceRef } from '../common/source-ref.js';
import type { LoadedObject } from './loaded-object.js';

export type ResourceScope = 'Namespaced' | 'Cluster';

/**
 * Answers "is this type served, and how is it scoped?" for a group, version and kind. The real one comes
 * from cluster discovery; undefined means the cluster does not serve the type.
 */
export type ScopeLookup = (group: string, version: string, kind: string) => ResourceScope | undefined;

/** A CustomResourceDefinition in the package: which type it defines and with which scope. */
export interface PackageCrd {
  group: string;
  kind: string;
  versions: string[];
  scope: ResourceScope;
  source: SourceRef;
}

export function isCrd(obj: KubeObject): boolean {
  return (
    obj.kind === 'CustomResourceDefinition' &&
    splitApiVersion(obj.apiVersion).group === 'apiextensions.k8s.io'
  );
}

/**
 * The types defined by CRDs in the package (`spec.group`, `spec.names.kind`, `spec.versions[].name` or the
 * v1beta1 `spec.version`, `spec.scope`), so their custom resources can be validated before the CRD exists
 * in the cluster, as cli-utils' LookupResourceScope does.
 */
export function packageCrds(objects: readonly LoadedObject[]): PackageCrd[] {
  const crds: PackageCrd[] = [];
  for (const { object, source } of objects) {
    if (!isCrd(object)) continue;
    const group = getPath(object, ['spec', 'group']);
    const kind = getPath(object, ['spec', 'names', 'kind']);
    const scope = getPath(object, ['spec', 'scope']);
    if (typeof group !== 'string' || typeof kind !== 'string') continue;
    const versions: string[] = [];
    const list = getPath(object, ['spec', 'versions']);
    if (Array.isArray(list)) {
      for (const v of list) {
        const name = getPath(v, ['name']);
        if (typeof name === 'string') versions.push(name);
      }
    }
    const single = getPath(object, ['spec', 'version']);
    if (typeof single === 'string' && !versions.includes(single)) versions.push(single);
    crds.push({ group, kind, versions, scope: scope === 'Cluster' ? 'Cluster' : 'Namespaced', source });
  }
  return crds;
}

/**
 * The scope of an object's type: the cluster's answer first, else a CRD in the package that defines this
 * group, kind and version. Undefined means the type is unknown (an error before anything is sent).
 */
export function scopeOf(
  obj: Pick<KubeObject, 'apiVersion' | 'kind'>,
  lookup: ScopeLookup,
  crds: readonly PackageCrd[],
): ResourceScope | undefined {
  const { group, version } = splitApiVersion(obj.apiVersion);
  const served = lookup(group, version, obj.kind);
  if (served) return served;
  return crds.find((c) => c.group === group && c.kind === obj.kind && c.versions.includes(version))?.scope;
}
