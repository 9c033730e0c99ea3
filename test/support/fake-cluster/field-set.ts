import { isDeepStrictEqual } from 'node:util';
import { addedAsMember, itemKey, listAddedAsMember, nodeType, type SchemaContext } from './schema.js';
import type { Json } from './store.js';

/**
 * Field sets as server-side apply keeps them (structured-merge-diff): a set of paths, each a list of FieldsV1
 * elements (`f:data`, `k:{"name":"web"}`, `v:"x"`). A path is stored joined, so sets are plain `Set`s.
 */
export type FieldSet = Set<string>;

const SEP = '\u0001';
export const joinPath = (elements: readonly string[]) => elements.join(SEP);
export const splitPath = (path: string) => (path === '' ? [] : path.split(SEP));

const isMap = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const keyElement = (key: Json) => `k:${JSON.stringify(key)}`;

/** The paths an applied configuration sets: its leaves, atomic values and list items (the `.` members). */
export function fieldSetOf(ctx: SchemaContext, obj: Json): FieldSet {
  const out: FieldSet = new Set();
  const walk = (value: unknown, names: string[], path: string[]) => {
    const t = nodeType(ctx, names, value);
    if (t.kind === 'leaf') out.add(joinPath(path));
    else if (t.kind === 'map') walkMap(value as Json, names, path);
    else if (t.kind === 'set')
      for (const v of value as unknown[]) out.add(joinPath([...path, `v:${JSON.stringify(v)}`]));
    else
      for (const item of value as unknown[]) {
        const p = [...path, keyElement(itemKey(t, item))];
        out.add(joinPath(p));
        if (isMap(item)) walkMap(item, names, p);
      }
  };
  const walkMap = (m: Json, names: string[], path: string[]) => {
    for (const [k, v] of Object.entries(m)) if (v !== undefined) walk(v, [...names, k], [...path, `f:${k}`]);
  };
  walkMap(obj, [], []);
  return out;
}

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/** What changes from `before` to `after`, path by path (an added map or list item is itself added). */
export function compareObjects(ctx: SchemaContext, before: Json, after: Json): Comparison {
  const c: Comparison = { added: new Set(), modified: new Set(), removed: new Set() };
  const walk = (a: unknown, b: unknown, names: string[], path: string[]) => {
    if (a === undefined && b === undefined) return;
    const t = nodeType(ctx, names, b !== undefined ? b : a);
    const p = joinPath(path);
    if (t.kind === 'leaf') {
      if (a === undefined) c.added.add(p);
      else if (b === undefined) c.removed.add(p);
      else if (!isDeepStrictEqual(a, b)) c.modified.add(p);
      return;
    }
    if (t.kind === 'map') {
      if (a === undefined && addedAsMember(ctx, names)) c.added.add(p);
      if (b === undefined && path.length > 0) c.removed.add(p);
      walkMap(isMap(a) ? a : {}, isMap(b) ? b : {}, names, path);
      return;
    }
    const items = (v: unknown) => {
      const m = new Map<string, unknown>();
      for (const item of Array.isArray(v) ? v : [])
        m.set(t.kind === 'set' ? `v:${JSON.stringify(item)}` : keyElement(itemKey(t, item)), item);
      return m;
    };
    if (a === undefined && listAddedAsMember(ctx, names)) c.added.add(p);
    if (b === undefined) c.removed.add(p);
    const before = items(a);
    const after = items(b);
    for (const [el, item] of after) {
      const ip = [...path, el];
      if (!before.has(el)) c.added.add(joinPath(ip));
      if (t.kind === 'keyed')
        walkMap(isMap(before.get(el)) ? (before.get(el) as Json) : {}, item as Json, names, ip);
    }
    for (const [el, item] of before) {
      if (after.has(el)) continue;
      const ip = [...path, el];
      c.removed.add(joinPath(ip));
      if (t.kind === 'keyed' && isMap(item)) walkMap(item, {}, names, ip);
    }
  };
  const walkMap = (a: Json, b: Json, names: string[], path: string[]) => {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) walk(a[k], b[k], [...names, k], [...path, `f:${k}`]);
  };
  walkMap(before, after, [], []);
  return c;
}

/** Metadata the server sets itself: never part of a field set (structured-merge-diff strips them). */
const systemMetadata = new Set(
  [
    'name',
    'namespace',
    'generateName',
    'creationTimestamp',
    'selfLink',
    'uid',
    'generation',
    'managedFields',
    'resourceVersion',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
  ].map((f) => `f:${f}`),
);

/** The set without what the server never tracks (apiVersion, kind, system metadata), and `keep` applied. */
export function stripIgnored(set: FieldSet, keep: (first: string) => boolean = () => true): FieldSet {
  const out: FieldSet = new Set();
  for (const p of set) {
    const [first, second] = splitPath(p);
    if (first === 'f:apiVersion' || first === 'f:kind' || !keep(first)) continue;
    if (first === 'f:metadata' && (second === undefined || systemMetadata.has(second))) continue;
    out.add(p);
  }
  return out;
}

export const union = (...sets: FieldSet[]): FieldSet => new Set(sets.flatMap((s) => [...s]));
export const difference = (a: FieldSet, b: FieldSet): FieldSet => new Set([...a].filter((p) => !b.has(p)));
export const intersection = (a: FieldSet, b: FieldSet): FieldSet => new Set([...a].filter((p) => b.has(p)));

/** Whether `set` holds a path strictly below `path`. */
export function hasDescendant(set: FieldSet, path: string): boolean {
  const prefix = path === '' ? '' : path + SEP;
  for (const p of set) if (p.startsWith(prefix) && p !== path) return true;
  return false;
}

/** The set as a FieldsV1 tree (`{"f:data": {".": {}, "f:x": {}}}`), as managedFields carry it. */
export function toFieldsV1(set: FieldSet): Json {
  const root: Json = {};
  for (const p of [...set].sort()) {
    let node = root;
    for (const el of splitPath(p)) {
      node[el] ??= {};
      node = node[el] as Json;
    }
  }
  // a node that is both owned and a parent of owned fields carries `.`
  for (const p of set) {
    let node = root;
    for (const el of splitPath(p)) node = node[el] as Json;
    if (Object.keys(node).some((k) => k !== '.')) node['.'] = {};
  }
  return root;
}

/** The set a FieldsV1 tree holds: its leaves and the nodes marked `.`. */
export function fromFieldsV1(tree: unknown, path: string[] = [], out: FieldSet = new Set()): FieldSet {
  if (!isMap(tree)) return out;
  const keys = Object.keys(tree);
  if (path.length > 0 && (keys.length === 0 || keys.includes('.'))) out.add(joinPath(path));
  for (const k of keys) if (k !== '.') fromFieldsV1(tree[k], [...path, k], out);
  return out;
}

/** A path as the API server prints it in a conflict: `.spec.containers[name="web"].image`. */
export function pathString(path: string): string {
  return splitPath(path)
    .map((el) => {
      const body = el.slice(2);
      if (el.startsWith('f:')) return `.${body}`;
      if (el.startsWith('v:')) return `[=${body}]`;
      if (el.startsWith('i:')) return `[${body}]`;
      const key = JSON.parse(body) as Json;
      return `[${Object.entries(key)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(',')}]`;
    })
    .join('');
}
