import { type KubeObject, splitApiVersion } from './kube-object.js';

/**
 * An object's identity as cli-utils keeps it: group, kind, namespace and name, never the version.
 * `namespace` is '' for cluster-scoped objects; `group` is '' for the core group.
 */
export interface ObjectId {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

export function idOf(obj: KubeObject): ObjectId {
  return {
    group: splitApiVersion(obj.apiVersion).group,
    kind: obj.kind,
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name,
  };
}

export function sameId(a: ObjectId, b: ObjectId): boolean {
  return a.group === b.group && a.kind === b.kind && a.namespace === b.namespace && a.name === b.name;
}

/**
 * The inventory format `<namespace>_<name>_<group>_<kind>` (cli-utils ObjMetadata.String).
 * RBAC names transcode `:` to `__`. Also the key for maps and sets of ids.
 */
export function formatInventoryId(id: ObjectId): string {
  const name = id.group === RBAC_GROUP && RBAC_KINDS.has(id.kind) ? id.name.replaceAll(':', '__') : id.name;
  return `${id.namespace}_${name}_${id.group}_${id.kind}`;
}

/** An alias that reads better where the string is only used as a map key. */
export const idKey = formatInventoryId;

/** Parses `<namespace>_<name>_<group>_<kind>` with cli-utils' rules and messages. */
export function parseInventoryId(text: string): ObjectId {
  const first = text.indexOf('_');
  const last = text.lastIndexOf('_');
  if (first < 0 || last === first) throw new Error(`unable to parse stored object metadata: ${text}`);
  const kind = text.slice(last + 1);
  const rest = text.slice(first + 1, last);
  const groupSep = rest.lastIndexOf('_');
  if (groupSep < 0) throw new Error(`unable to parse stored object metadata: ${text}`);
  const group = rest.slice(groupSep + 1);
  let name = rest.slice(0, groupSep);
  if (group === RBAC_GROUP && RBAC_KINDS.has(kind)) name = name.replaceAll('__', ':');
  if (name.includes('_')) throw new Error(`too many fields within: ${text}`);
  if (name === '' || kind === '') throw new Error(`unable to parse stored object metadata: ${text}`);
  return { namespace: text.slice(0, first), name, group, kind };
}

/** The depends-on format: `<group>/namespaces/<ns>/<kind>/<name>` or `<group>/<kind>/<name>`. */
export function formatRef(id: ObjectId): string {
  return id.namespace
    ? `${id.group}/namespaces/${id.namespace}/${id.kind}/${id.name}`
    : `${id.group}/${id.kind}/${id.name}`;
}

/** Parses one depends-on reference; `index` is its position in the annotation, for kpt's message. */
export function parseRef(text: string, index = 0): ObjectId {
  const ref = text.trim();
  const parts = ref.split('/');
  if (parts.length === 3) return { group: parts[0], kind: parts[1], namespace: '', name: parts[2] };
  if (parts.length === 5) {
    if (parts[1] !== 'namespaces') {
      throw new Error(
        `failed to parse object reference (index: ${index}): missing "namespaces" field: "${ref}"`,
      );
    }
    return { group: parts[0], namespace: parts[2], kind: parts[3], name: parts[4] };
  }
  throw new Error(
    `failed to parse object reference (index: ${index}): expected 3 or 5 fields, found ${parts.length}: "${ref}"`,
  );
}

/** Parses a whole `config.kubernetes.io/depends-on` value (comma-separated references). */
export function parseDependsOn(value: string): ObjectId[] {
  if (value.trim() === '') return [];
  try {
    return value.split(',').map((ref, i) => parseRef(ref, i));
  } catch (err) {
    throw new Error(`invalid "config.kubernetes.io/depends-on" annotation: ${(err as Error).message}`);
  }
}

/** The events printer's name: `deployment.apps/web`, `configmap/cm` (lower-cased Kind.group). */
export function displayName(id: ObjectId): string {
  const gk = id.group ? `${id.kind}.${id.group}` : id.kind;
  return `${gk.toLowerCase()}/${id.name}`;
}

/** The short form people read in a PR: `Deployment/web`. */
export function shortName(id: ObjectId): string {
  return `${id.kind}/${id.name}`;
}

/**
 * A stable order: group, kind, namespace, name, each compared by code unit as Go compares strings (cli-utils'
 * order for the edges of a cyclic-dependency message), not by locale: the same on every machine whatever
 * its LANG, `B` before `a`, and no ICU collator to load (8-13 ms on the first call).
 */
export function compareIds(a: ObjectId, b: ObjectId): number {
  return (
    compareStrings(a.group, b.group) ||
    compareStrings(a.kind, b.kind) ||
    compareStrings(a.namespace, b.namespace) ||
    compareStrings(a.name, b.name)
  );
}

/** Strings in code-unit order, as Go's `<` on strings (not by locale). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
