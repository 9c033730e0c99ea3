/**
 * The part of the API server's OpenAPI schema that server-side apply needs, simplified to rules on field
 * names: which lists merge item by item (and on which key fields), which are sets, which maps are atomic.
 * Everything else follows the defaults of a structural schema: objects merge field by field, lists are
 * atomic (replaced whole). Custom resources get only the ObjectMeta rules, as their CRD schema would.
 */

/** How one node of an object merges and is owned. */
export type NodeType =
  | { kind: 'leaf' } // a scalar, or an atomic map or list: owned and replaced whole
  | { kind: 'map' } // granular: each field owned and merged on its own
  | { kind: 'keyed'; keys: string[]; defaults: Record<string, unknown> } // a list merged by key fields
  | { kind: 'set' }; // a list of scalars merged as a set

/** What the schema knows about the kind being written. */
export interface SchemaContext {
  /** A kind the API server compiles in (not a custom resource): the richer rules below apply. */
  builtIn: boolean;
  kind: string;
}

const containerLists = new Set(['containers', 'initContainers', 'ephemeralContainers']);
const byName = new Set([...containerLists, 'volumes', 'env', 'imagePullSecrets']);
const tcp = { protocol: 'TCP' };

/** Fields of the built-in kinds that Go declares as structs (always present, so never added as a whole). */
const structFields = new Set(['spec', 'template', 'strategy', 'updateStrategy', 'jobTemplate', 'status']);

/** The node type of the value at `names` (the field names from the root; list items add none). */
export function nodeType(ctx: SchemaContext, names: readonly string[], value: unknown): NodeType {
  const last = names[names.length - 1];
  if (Array.isArray(value)) return listType(ctx, names, last);
  if (value === null || typeof value !== 'object') return { kind: 'leaf' };
  if (ctx.builtIn && (last === 'selector' || last === 'nodeSelector') && names[0] === 'spec') {
    return { kind: 'leaf' };
  }
  return { kind: 'map' };
}

function listType(ctx: SchemaContext, names: readonly string[], last: string): NodeType {
  if (names.length === 2 && names[0] === 'metadata') {
    if (last === 'finalizers') return { kind: 'set' };
    if (last === 'ownerReferences') return { kind: 'keyed', keys: ['uid'], defaults: {} };
  }
  if (!ctx.builtIn) return { kind: 'leaf' };
  if (byName.has(last)) return { kind: 'keyed', keys: ['name'], defaults: {} };
  if (last === 'volumeMounts') return { kind: 'keyed', keys: ['mountPath'], defaults: {} };
  if (last === 'ports' && names.some((n) => containerLists.has(n)))
    return { kind: 'keyed', keys: ['containerPort', 'protocol'], defaults: tcp };
  if (last === 'ports' && ctx.kind === 'Service' && names.length === 2)
    return { kind: 'keyed', keys: ['port', 'protocol'], defaults: tcp };
  if (last === 'conditions' && names[0] === 'status') return { kind: 'keyed', keys: ['type'], defaults: {} };
  return { kind: 'leaf' };
}

/**
 * Whether an added map at `names` counts as owned itself (the `.` entry of an update's field set). The
 * server compares against an empty object of the Go type, where struct fields already exist: only maps,
 * pointers and the fields of custom resources are added whole.
 */
export function addedAsMember(ctx: SchemaContext, names: readonly string[]): boolean {
  if (names.length === 0 || (names.length === 1 && names[0] === 'metadata')) return false;
  return !(ctx.builtIn && structFields.has(names[names.length - 1]));
}

/**
 * Whether an added keyed list or set counts as owned itself in an update's field set: it does, except
 * where the Go type always has the field (a pod's `containers`, serialised even when empty).
 */
export function listAddedAsMember(ctx: SchemaContext, names: readonly string[]): boolean {
  return !(ctx.builtIn && names[names.length - 1] === 'containers');
}

/** The key fields of a keyed list item, defaults filled in (a port without protocol is TCP). */
export function itemKey(type: { keys: string[]; defaults: Record<string, unknown> }, item: unknown) {
  const rec = (item ?? {}) as Record<string, unknown>;
  const key: Record<string, unknown> = {};
  for (const k of [...type.keys].sort()) key[k] = rec[k] ?? type.defaults[k];
  return key;
}
