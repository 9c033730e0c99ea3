import { jsonEqual } from '../common/json-equal.js';
import { isRecord, type KubeObject } from '../common/kube-object.js';

type Fields = Record<string, unknown>;

/**
 * Whether applying `manifest` is certain to change nothing, from the live object alone: our field manager's
 * one Apply entry (FieldsV1, same apiVersion, no subresource) owns exactly the fields the manifest sets, and
 * the live object holds the manifest's value in each of them. Then a server-side apply would own the same
 * fields with the same values: a no-op, which the pre-flight need not ask the server about. Anything this
 * cannot read for certain (null values, empty maps, list items it cannot match one to one, a granular
 * list or map the server may have reordered or defaulted, values the server normalised) answers false,
 * and the dry-run decides as before: a false "changed" costs one request, a false "unchanged" would lose
 * a change, so every doubt goes to the server.
 *
 * What the entry proves: another writer that changed or removed one of our fields took it from our entry
 * (an update takes the fields it changes; an apply must force them), so an entry that still lists the
 * field, with the manifest's value live, was not changed under us.
 */
export function provenNoOp(live: KubeObject, manifest: KubeObject, fieldManager: string): boolean {
  const ours = ((live.metadata.managedFields as Fields[] | undefined) ?? []).filter(
    (e) => e.manager === fieldManager,
  );
  if (ours.length !== 1) return false;
  const entry = ours[0];
  if (
    entry.operation !== 'Apply' ||
    entry.subresource ||
    entry.fieldsType !== 'FieldsV1' ||
    entry.apiVersion !== manifest.apiVersion ||
    !isRecord(entry.fieldsV1) ||
    live.metadata.deletionTimestamp
  )
    return false;
  return sameMap(entry.fieldsV1, ownedPart(manifest), ownedPart(live));
}

/** What field sets track: not apiVersion and kind (the entry's own), nor metadata.name and namespace. */
function ownedPart(obj: KubeObject): Fields {
  const { apiVersion: _v, kind: _k, metadata, ...rest } = obj;
  const { name: _n, namespace: _ns, ...meta } = metadata;
  return Object.keys(meta).length > 0 ? { ...rest, metadata: meta } : rest;
}

/** `set` owns exactly the keys of map `m`, and `live` holds each of their values. */
function sameMap(set: Fields, m: Fields, live: unknown): boolean {
  if (!isRecord(live)) return false;
  let owned = 0;
  for (const k in set) {
    if (k === '.') continue;
    if (!k.startsWith('f:') || !Object.hasOwn(m, k.slice(2))) return false;
    owned++;
  }
  if (Object.keys(m).length !== owned) return false;
  for (const key in m) {
    const child = set[`f:${key}`];
    if (!isRecord(child) || !sameField(child, m[key], live[key])) return false;
  }
  return true;
}

function sameField(set: Fields, value: unknown, live: unknown): boolean {
  if (value === null || value === undefined) return false;
  const leaf = Object.keys(set).length === 0;
  if (typeof value !== 'object') return leaf && value === live;
  // an atomic map or list (a selector, a Role's rules) is owned whole: it must be equal whole
  if (leaf) return jsonEqual(value, live);
  if (Array.isArray(value)) return sameList(set, value, live);
  if (Object.keys(value).length === 0) return false;
  return sameMap(set, value as Fields, live);
}

/** A list with merge keys (`k:{...}`) or a set (`v:...`): item for item, in the live list's order. */
function sameList(set: Fields, items: unknown[], live: unknown): boolean {
  if (!Array.isArray(live) || items.length === 0) return false;
  const keys = Object.keys(set).filter((k) => k !== '.');
  if (keys.length !== items.length) return false;
  if (keys.every((k) => k.startsWith('v:'))) return sameSet(keys, items, live);
  if (!keys.every((k) => k.startsWith('k:'))) return false;
  const parsed = keys.map((k) => ({ k, fields: parseKey(k) }));
  if (parsed.some((p) => !p.fields)) return false;
  const used = new Set<string>();
  let lastIndex = -1;
  for (const item of items) {
    if (!isRecord(item)) return false;
    // the merge key as the item gives it; a key field it leaves out (a port's protocol) is the default's
    const candidates = parsed.filter(
      (p) =>
        !used.has(p.k) &&
        Object.entries(p.fields!).every(([f, v]) => !Object.hasOwn(item, f) || jsonEqual(item[f], v)),
    );
    if (candidates.length !== 1) return false;
    const { k, fields } = candidates[0];
    used.add(k);
    const matches = live.flatMap((x, i) =>
      isRecord(x) && Object.entries(fields!).every(([f, v]) => jsonEqual(x[f], v)) ? [i] : [],
    );
    if (matches.length !== 1 || matches[0] <= lastIndex) return false;
    lastIndex = matches[0];
    const child = set[k];
    if (!isRecord(child) || !sameMap(child, item, live[lastIndex])) return false;
  }
  return true;
}

function sameSet(keys: string[], items: unknown[], live: unknown[]): boolean {
  const owned = new Set(keys);
  let lastIndex = -1;
  for (const item of items) {
    if (item === null || typeof item === 'object') return false;
    if (!owned.delete(`v:${JSON.stringify(item)}`)) return false;
    const i = live.indexOf(item);
    if (i <= lastIndex) return false;
    lastIndex = i;
  }
  return true;
}

function parseKey(k: string): Fields | undefined {
  try {
    const fields: unknown = JSON.parse(k.slice(2));
    return isRecord(fields) && Object.keys(fields).length > 0 ? fields : undefined;
  } catch {
    return undefined;
  }
}
