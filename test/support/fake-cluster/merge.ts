import { splitPath } from './field-set.js';
import { itemKey, nodeType, type SchemaContext } from './schema.js';
import type { Json } from './store.js';

/**
 * The value side of server-side apply: merging an applied configuration into the live object, and removing
 * the fields an applier gave up. List order: live items keep their places, new items are appended.
 */
const isMap = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const sameKey = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b);

/** `config` merged over `live`: maps field by field, keyed lists item by item, sets as a union. */
export function mergeValues(ctx: SchemaContext, live: Json, config: Json): Json {
  const merge = (a: unknown, b: unknown, names: string[]): unknown => {
    if (b === undefined) return a;
    const t = nodeType(ctx, names, b);
    if (t.kind === 'leaf') return structuredClone(b);
    if (t.kind === 'map') return mergeMap(isMap(a) ? a : {}, b as Json, names);
    const out = Array.isArray(a) ? structuredClone(a) : [];
    for (const item of b as unknown[]) {
      if (t.kind === 'set') {
        if (!out.some((x) => JSON.stringify(x) === JSON.stringify(item))) out.push(structuredClone(item));
        continue;
      }
      const key = itemKey(t, item);
      const at = out.findIndex((x) => sameKey(itemKey(t, x), key));
      if (at < 0) out.push(structuredClone(item));
      else out[at] = mergeMap(isMap(out[at]) ? (out[at] as Json) : {}, item as Json, names);
    }
    return out;
  };
  const mergeMap = (a: Json, b: Json, names: string[]): Json => {
    const out: Json = { ...a };
    for (const [k, v] of Object.entries(b)) if (v !== undefined) out[k] = merge(a[k], v, [...names, k]);
    return out;
  };
  return mergeMap(live, config, []);
}

/** Where `path` (a FieldsV1 path) is in `obj`: its container and the key or index in it. */
function locate(
  ctx: SchemaContext,
  obj: Json,
  path: string,
): { parent: Json | unknown[]; at: string | number } | undefined {
  const elements = splitPath(path);
  let parent: unknown = obj;
  let names: string[] = [];
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i];
    let at: string | number;
    if (el.startsWith('f:')) {
      if (!isMap(parent)) return undefined;
      at = el.slice(2);
      if (!(at in parent)) return undefined;
      names = [...names, at];
    } else {
      if (!Array.isArray(parent)) return undefined;
      const t = nodeType(ctx, names, parent);
      at =
        el.startsWith('v:') || t.kind !== 'keyed'
          ? parent.findIndex((x) => `v:${JSON.stringify(x)}` === el)
          : parent.findIndex((x) => `k:${JSON.stringify(itemKey(t, x))}` === el);
      if (at < 0) return undefined;
    }
    if (i === elements.length - 1) return { parent: parent as Json | unknown[], at };
    parent = (parent as Record<string | number, unknown>)[at];
  }
  return undefined;
}

export function valueAt(ctx: SchemaContext, obj: Json, path: string): unknown {
  const loc = locate(ctx, obj, path);
  return loc ? (loc.parent as Record<string | number, unknown>)[loc.at] : undefined;
}

/** Removes the value at `path` from `obj` in place; absent paths are ignored. */
export function removePath(ctx: SchemaContext, obj: Json, path: string): void {
  const loc = locate(ctx, obj, path);
  if (!loc) return;
  if (Array.isArray(loc.parent)) loc.parent.splice(loc.at as number, 1);
  else delete loc.parent[loc.at as string];
}
