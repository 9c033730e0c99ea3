import { isDeepStrictEqual } from 'node:util';
import { isRecord, type KubeObject } from '../common/kube-object.js';

/**
 * `metadata.managedFields` as the API server writes it, and the FieldsV1 trees in it: who owns which
 * field of an object. Pure data helpers for the ownership rule (field-owners.ts) and its rewrite.
 */

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

/** One field a server-side apply would take from another manager: one cause of a 409, as the server names it. */
export interface FieldConflict {
  /** `.spec.replicas`, `.spec.template.spec.containers[name="web"].image`. */
  field: string;
  manager: string;
  /** Set when that manager wrote the field through a subresource (`scale`, `status`). */
  subresource?: string;
  operation: 'Update' | 'Apply';
}

/** A path in a FieldsV1 tree: `f:spec`, `k:{"name":"web"}`, `v:"x"`, `i:0`, as the server writes them. */
export type FieldPath = string[];

export function managedFieldsOf(obj: Pick<KubeObject, 'metadata'>): ManagedFieldsEntry[] {
  const mf = obj.metadata.managedFields;
  return Array.isArray(mf) ? (mf as ManagedFieldsEntry[]) : [];
}

/** The entry a server-side apply by `fieldManager` wrote (the fields the package sets), if any. */
export function appliedEntry(obj: Pick<KubeObject, 'metadata'>, fieldManager: string) {
  return managedFieldsOf(obj).find(
    (e) => e.manager === fieldManager && e.operation === 'Apply' && !e.subresource,
  );
}

/** Every path a FieldsV1 tree owns: its leaves and the nodes marked `.` (a list item, as a whole). */
export function ownedPaths(tree: Record<string, unknown> | undefined, prefix: FieldPath = []): FieldPath[] {
  if (!tree) return [];
  const out: FieldPath[] = [];
  for (const [key, child] of Object.entries(tree)) {
    if (key === '.') {
      out.push(prefix);
      continue;
    }
    const path = [...prefix, key];
    if (isRecord(child) && Object.keys(child).length > 0) out.push(...ownedPaths(child, path));
    else out.push(path);
  }
  return out;
}

/** A FieldsV1 tree that owns exactly `paths` (a path with owned paths below it is marked `.`). */
export function fieldSetOf(paths: readonly FieldPath[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const nodes: Record<string, unknown>[] = [];
  for (const path of paths) {
    let node = root;
    for (const step of path) {
      if (!isRecord(node[step])) node[step] = {};
      node = node[step] as Record<string, unknown>;
    }
    if (path.length > 0) nodes.push(node);
  }
  for (const node of nodes) if (Object.keys(node).some((k) => k !== '.')) node['.'] = {};
  return root;
}

/**
 * Union of two FieldsV1 trees. A node one tree owns as a leaf and the other has fields under keeps its own
 * ownership (`.`), as the server writes it.
 */
export function mergeFieldSets(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): Record<string, unknown> {
  return fieldSetOf([...ownedPaths(a), ...ownedPaths(b)]);
}

const isBelow = (p: FieldPath, q: FieldPath) => q.length > p.length && p.every((x, i) => x === q[i]);

/**
 * `tree` without `paths` (leaves, or nodes marked `.`). A node owned with fields under it (a labels map, a
 * ports list) whose fields all go is dropped too: owning it alone reads as owning the whole node, and a
 * 1.20 API server then gives the manager every field under it again (seen on 1.20.2).
 */
export function withoutFieldPaths(
  tree: Record<string, unknown>,
  paths: readonly FieldPath[],
): Record<string, unknown> {
  const drop = new Set(paths.map((p) => JSON.stringify(p)));
  const all = ownedPaths(tree);
  const kept = all.filter((p) => !drop.has(JSON.stringify(p)));
  const emptied = (p: FieldPath) => all.some((q) => isBelow(p, q)) && !kept.some((q) => isBelow(p, q));
  return fieldSetOf(kept.filter((p) => !emptied(p)));
}

export const samePath = (a: FieldPath, b: FieldPath) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** A value as the server prints it in a field path (structured-merge-diff's value.ToString). */
function valueText(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(valueText).join(',')}]`;
  if (isRecord(v))
    return Object.entries(v)
      .map(([k, x]) => `${k}=${valueText(x)}`)
      .join('');
  return String(v);
}

/**
 * A FieldsV1 path as the server names a field in a conflict: `.spec.template.spec.containers[name="web"].image`,
 * `.spec.ports[port=80,protocol="TCP"]`, `.metadata.finalizers[="x"]`, `[0]`.
 */
export function fieldName(path: FieldPath): string {
  return path
    .map((step) => {
      const [kind, raw] = [step.slice(0, 2), step.slice(2)];
      if (kind === 'f:') return `.${raw}`;
      if (kind === 'i:') return `[${raw}]`;
      try {
        const v = JSON.parse(raw) as unknown;
        if (kind === 'k:' && isRecord(v))
          return `[${Object.entries(v)
            .map(([k, x]) => `${k}=${valueText(x)}`)
            .join(',')}]`;
        if (kind === 'v:') return `[=${valueText(v)}]`;
      } catch {
        // not JSON: shown as it is
      }
      return `[${step}]`;
    })
    .join('');
}

/** Whether a list item is the one a `k:` or `v:` step names. */
function matchesStep(item: unknown, step: string): boolean {
  const [kind, raw] = [step.slice(0, 2), step.slice(2)];
  try {
    if (kind === 'k:') {
      const want = JSON.parse(raw) as Record<string, unknown>;
      return isRecord(item) && Object.entries(want).every(([k, v]) => isDeepStrictEqual(item[k], v));
    }
    if (kind === 'v:') return isDeepStrictEqual(item, JSON.parse(raw));
  } catch {
    return false;
  }
  return false;
}

/** The value a FieldsV1 path names in an object (undefined when it is not there). */
export function valueAtPath(obj: unknown, path: FieldPath): unknown {
  let node: unknown = obj;
  for (const step of path) {
    if (step.startsWith('f:')) node = isRecord(node) ? node[step.slice(2)] : undefined;
    else if (!Array.isArray(node)) return undefined;
    else if (step.startsWith('i:')) node = node[Number(step.slice(2))];
    else node = node.find((item) => matchesStep(item, step));
    if (node === undefined) return undefined;
  }
  return node;
}

/**
 * Sets the value a FieldsV1 path names in a plain object, in place (nothing when its parent is not there;
 * `undefined` removes the field or list item).
 */
export function setAtPath(obj: unknown, path: FieldPath, value: unknown): void {
  if (path.length === 0) return;
  const parent = valueAtPath(obj, path.slice(0, -1));
  const step = path[path.length - 1];
  if (step.startsWith('f:') && isRecord(parent)) {
    if (value === undefined) delete parent[step.slice(2)];
    else parent[step.slice(2)] = value;
    return;
  }
  if (!Array.isArray(parent)) return;
  const at = step.startsWith('i:')
    ? Number(step.slice(2))
    : parent.findIndex((item) => matchesStep(item, step));
  if (at < 0 || at >= parent.length) return;
  if (value === undefined) parent.splice(at, 1);
  else parent[at] = value;
}

/**
 * The fields a forced server-side apply took from other managers: what an entry of `live` owned that the same
 * entry (manager, operation, subresource) no longer owns in the forced answer. The server moves a field a forced
 * apply sets to another value away from its old owner and leaves one set to the same value shared, so these are
 * the conflicts an unforced apply would have answered with a 409, one per field and manager, found without it.
 */
export function conflictsTaken(
  live: Pick<KubeObject, 'metadata'>,
  forced: Pick<KubeObject, 'metadata'>,
  fieldManager: string,
): FieldConflict[] {
  const key = (e: ManagedFieldsEntry) =>
    `${e.manager ?? ''}\u0000${e.operation ?? ''}\u0000${e.subresource ?? ''}`;
  const after = new Map(
    managedFieldsOf(forced).map((e) => [key(e), ownedPaths(e.fieldsV1).map((p) => JSON.stringify(p))]),
  );
  const out: FieldConflict[] = [];
  for (const e of managedFieldsOf(live)) {
    if (e.manager === fieldManager || (e.operation !== 'Update' && e.operation !== 'Apply')) continue;
    const kept = new Set(after.get(key(e)) ?? []);
    for (const p of ownedPaths(e.fieldsV1)) {
      // an apply of the package never takes status (a status writer's entry may change meanwhile)
      if (p.length === 0 || p[0] === 'f:status' || kept.has(JSON.stringify(p))) continue;
      out.push({
        field: fieldName(p),
        manager: e.manager ?? '',
        operation: e.operation,
        ...(e.subresource ? { subresource: e.subresource } : {}),
      });
    }
  }
  return out;
}
