import { isDeepStrictEqual } from 'node:util';
import {
  compareObjects,
  difference,
  type FieldSet,
  fieldSetOf,
  fromFieldsV1,
  hasDescendant,
  intersection,
  joinPath,
  pathString,
  splitPath,
  stripIgnored,
  toFieldsV1,
  union,
} from './field-set.js';
import { mergeValues, removePath, valueAt } from './merge.js';
import type { SchemaContext } from './schema.js';
import type { Json } from './store.js';

/**
 * managedFields as the API server keeps them: one entry per manager, operation (Apply or Update), apiVersion
 * (Update only) and subresource, each owning a field set. Server-side apply and ordinary writes (create,
 * update, JSON patch, status) change them by the rules of structured-merge-diff.
 */
const isMap = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface ManagerEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  subresource?: string;
  time?: string;
  set: FieldSet;
}

/** Which fields of the object a write may touch: the main resource leaves `status` alone, `/status` the rest. */
export interface WriteScope {
  ctx: SchemaContext;
  /** First path element kept (`f:status` for a status write); the others are reset to the live values. */
  keep: (first: string) => boolean;
}

const sameManager = (a: Omit<ManagerEntry, 'set'>, b: Omit<ManagerEntry, 'set'>) =>
  a.manager === b.manager &&
  a.operation === b.operation &&
  (a.operation === 'Apply' || a.apiVersion === b.apiVersion) &&
  (a.subresource ?? '') === (b.subresource ?? '');

export function decodeManagedFields(list: unknown): ManagerEntry[] {
  if (!Array.isArray(list)) return [];
  return list
    .filter((e): e is Json => !!e && typeof e === 'object' && typeof (e as Json).manager === 'string')
    .map((e) => ({
      manager: e.manager as string,
      operation: e.operation === 'Apply' ? 'Apply' : 'Update',
      apiVersion: String(e.apiVersion ?? ''),
      ...(e.subresource ? { subresource: String(e.subresource) } : {}),
      ...(e.time ? { time: String(e.time) } : {}),
      set: fromFieldsV1(e.fieldsV1),
    }));
}

/** The entries as the server writes them: Apply before Update, then by time, manager, apiVersion. */
export function encodeManagedFields(entries: ManagerEntry[]): Json[] {
  const sorted = entries
    .filter((e) => e.set.size > 0)
    .sort(
      (p, q) =>
        cmp(p.operation, q.operation) ||
        cmp(p.time ?? '', q.time ?? '') ||
        cmp(p.manager, q.manager) ||
        cmp(p.apiVersion, q.apiVersion) ||
        cmp(p.subresource ?? '', q.subresource ?? ''),
    );
  return sorted.map((e) => ({
    manager: e.manager,
    operation: e.operation,
    apiVersion: e.apiVersion,
    ...(e.time ? { time: e.time } : {}),
    fieldsType: 'FieldsV1',
    fieldsV1: toFieldsV1(e.set),
    ...(e.subresource ? { subresource: e.subresource } : {}),
  }));
}
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A field another manager owns that an apply would change. */
export interface Conflict {
  entry: ManagerEntry;
  path: string;
}

export class ApplyConflict extends Error {
  constructor(readonly conflicts: Conflict[]) {
    super(conflictMessage(conflicts));
  }
  causes() {
    return this.conflicts.map((c) => ({
      reason: 'FieldManagerConflict',
      message: `conflict with ${printManager(c.entry)}`,
      field: pathString(c.path),
    }));
  }
}

/** The manager as the API server names it in a conflict: `"kubectl-patch" using v1`. */
function printManager(e: ManagerEntry): string {
  const sub = e.subresource ? ` with subresource "${e.subresource}"` : '';
  const using = e.operation === 'Update' ? ` using ${e.apiVersion}` : '';
  return `${JSON.stringify(e.manager)}${sub}${using}`;
}

function conflictMessage(conflicts: Conflict[]): string {
  if (conflicts.length === 1)
    return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0].entry)}: ${pathString(conflicts[0].path)}`;
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) {
    const who = printManager(c.entry);
    byManager.set(who, [...(byManager.get(who) ?? []), `- ${pathString(c.path)}`]);
  }
  const parts = [...byManager.keys()]
    .sort()
    .flatMap((who) => [`conflicts with ${who}:`, ...byManager.get(who)!]);
  return `Apply failed with ${conflicts.length} conflicts: ${parts.join('\n')}`;
}

export interface ApplyInput {
  scope: WriteScope;
  /** The live object's content (no managedFields); `{}` when the apply creates it. */
  live: Json;
  entries: ManagerEntry[];
  /** The applied configuration, without managedFields. */
  config: Json;
  manager: string;
  apiVersion: string;
  force: boolean;
  now: string;
}

/**
 * Server-side apply: merges the configuration, refuses (ApplyConflict) to change a field another manager
 * owns unless forced (then takes it), shares fields set to the value they already have, and removes the
 * fields this manager applied last time and no longer does, unless another manager still owns them.
 */
export function serverSideApply(input: ApplyInput): { object: Json; entries: ManagerEntry[] } {
  const { scope, live, manager, force, now } = input;
  const ctx = scope.ctx;
  const applied = stripIgnored(fieldSetOf(ctx, input.config), scope.keep);
  const merged = mergeValues(ctx, live, input.config);
  const c = compareObjects(ctx, live, merged);
  const changed = stripIgnored(union(c.added, c.modified), scope.keep);
  const entries = input.entries.map((e) => ({ ...e, set: new Set(e.set) }));
  const isOurs = (e: ManagerEntry) =>
    sameManager(e, { manager, operation: 'Apply', apiVersion: input.apiVersion });
  let ours = entries.find(isOurs);
  const lastSet = ours?.set ?? new Set<string>();

  const conflicts: Conflict[] = [];
  for (const e of entries) {
    if (e === ours) continue;
    for (const path of [...intersection(e.set, changed)].sort()) conflicts.push({ entry: e, path });
  }
  if (conflicts.length > 0 && !force) {
    conflicts.sort((a, b) => cmp(a.entry.manager, b.entry.manager));
    throw new ApplyConflict(conflicts);
  }
  for (const e of entries) {
    if (e === ours) continue;
    e.set = difference(difference(e.set, changed), c.removed);
  }
  if (!ours) {
    ours = { manager, operation: 'Apply', apiVersion: input.apiVersion, set: new Set() };
    entries.push(ours);
  }
  ours.set = applied;
  ours.apiVersion = input.apiVersion;

  const owned = union(...entries.map((e) => e.set));
  const given = [...difference(lastSet, owned)].sort((a, b) => splitPath(b).length - splitPath(a).length);
  for (const path of given) {
    if (hasDescendant(owned, path)) continue;
    removePath(ctx, merged, path);
    // a map or list the removal left empty goes too (labels: {} is not kept), unless someone owns it
    for (let up = splitPath(path).slice(0, -1); up.length > 0; up = up.slice(0, -1)) {
      const p = joinPath(up);
      const v = valueAt(ctx, merged, p);
      const empty = Array.isArray(v) ? v.length === 0 : isMap(v) && Object.keys(v).length === 0;
      if (!empty || owned.has(p)) break;
      removePath(ctx, merged, p);
    }
  }
  const valuesChanged = !isDeepStrictEqual(live, merged);
  if (valuesChanged || !ours.time) ours.time = now;
  return { object: merged, entries: entries.filter((e) => e.set.size > 0) };
}

export interface UpdateInput {
  scope: WriteScope;
  before: Json;
  after: Json;
  entries: ManagerEntry[];
  manager: string;
  apiVersion: string;
  subresource?: string;
  now: string;
}

/**
 * The managedFields after an ordinary write (create, update, JSON patch, status): the writer takes every
 * field it added or changed (from whoever owned it), nobody keeps a removed field, and a writer that changed
 * nothing gets no entry.
 */
export function updateManagedFields(input: UpdateInput): ManagerEntry[] {
  const { scope, manager, now } = input;
  const c = compareObjects(scope.ctx, input.before, input.after);
  const changed = stripIgnored(union(c.added, c.modified), scope.keep);
  const removed = stripIgnored(c.removed, scope.keep);
  const me = {
    manager,
    operation: 'Update' as const,
    apiVersion: input.apiVersion,
    subresource: input.subresource,
  };
  const entries = input.entries.map((e) => ({ ...e, set: new Set(e.set) }));
  for (const e of entries) if (!sameManager(e, me)) e.set = difference(difference(e.set, changed), removed);
  let ours = entries.find((e) => sameManager(e, me));
  if (changed.size > 0) {
    if (!ours) {
      ours = { ...me, set: new Set() };
      if (!me.subresource) delete ours.subresource;
      entries.push(ours);
    }
    ours.set = difference(union(ours.set, changed), removed);
    ours.time = now;
  } else if (ours) ours.set = difference(ours.set, removed);
  return entries.filter((e) => e.set.size > 0);
}
