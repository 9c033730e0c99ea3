import { createHash } from 'node:crypto';
import { Annotations } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import { idKey, idOf, type ObjectId } from '../common/object-id.js';
import { isSecret } from './redact.js';
import type { FieldChange, PreviewAction, PreviewObject } from './types.js';

/**
 * A plan reduced to what a reviewer approved: per object, the action and a short hash of what changes.
 * The preview comment carries one (the reviewed plan); apply computes one from its pre-flight (the plan
 * about to be carried out); the two are compared (`plan-drift`). Nothing secret goes in: a configure is
 * hashed from its field changes, which are already redacted (Secret values appear as sizes only); a
 * create from the desired object with Secret values replaced by their sizes.
 */
export interface PlanEntry {
  /** `idKey` of the object (`<namespace>_<name>_<group>_<kind>`). */
  key: string;
  /** What happens to it; a configure that changes no value (field ownership only) counts as unchanged. */
  action: PreviewAction;
  /** 12 hex characters of SHA-256 over what changes; '' when the action says it all (prune, skip, ...). */
  hash: string;
}

const short = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** The hash of a configure: its field changes in path order (before/after are redacted renderings). */
export function changesHash(changes: readonly FieldChange[]): string {
  const rows = [...changes]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((c) => [
      c.path,
      c.op,
      c.before ?? null,
      c.after ?? null,
      c.beforeBytes ?? null,
      c.afterBytes ?? null,
    ]);
  return short(JSON.stringify(rows));
}

/** Keys sorted at every level, so the same object always serializes the same. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = canonical((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/**
 * The hash of a create: the desired object without what the engine adds (owning-inventory) or copies
 * (last-applied), and, for a Secret, each data/stringData value replaced by its length.
 */
export function manifestHash(obj: KubeObject): string {
  const annotations = { ...(obj.metadata.annotations ?? {}) };
  delete annotations[Annotations.OwningInventory];
  delete annotations[Annotations.LastApplied];
  const copy: Record<string, unknown> = { ...obj, metadata: { ...obj.metadata, annotations } };
  if (isSecret(obj)) {
    for (const field of ['data', 'stringData'] as const) {
      const values = obj[field];
      if (values && typeof values === 'object') {
        copy[field] = Object.fromEntries(
          Object.entries(values as Record<string, unknown>).map(([k, v]) => [k, String(v).length]),
        );
      }
    }
  }
  return short(JSON.stringify(canonical(copy)));
}

/** One entry from what the engine knows about an object; `changes` for a configure, `desired` for a create. */
export function planEntry(
  id: ObjectId,
  action: PreviewAction,
  detail: { changes?: readonly FieldChange[]; desired?: KubeObject } = {},
): PlanEntry {
  const key = idKey(id);
  if (action === 'configure') {
    const changes = detail.changes ?? [];
    return changes.length === 0
      ? { key, action: 'unchanged', hash: '' }
      : { key, action, hash: changesHash(changes) };
  }
  if (action === 'create' && detail.desired) return { key, action, hash: manifestHash(detail.desired) };
  return { key, action, hash: '' };
}

/**
 * The plan of a run's preview objects (a preview's, or a pre-flight's before the first write); `desired`
 * holds the package's objects (for the hash of a create).
 */
export function planOf(objects: readonly PreviewObject[], desired: readonly KubeObject[]): PlanEntry[] {
  const byKey = new Map(desired.map((o) => [idKey(idOf(o)), o]));
  return sortPlan(
    objects.map((o) => planEntry(o.id, o.action, { changes: o.changes, desired: byKey.get(idKey(o.id)) })),
  );
}

export function sortPlan(entries: PlanEntry[]): PlanEntry[] {
  return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** One hash over the whole plan (every entry, unchanged ones included). */
export function planHash(entries: readonly PlanEntry[]): string {
  return createHash('sha256')
    .update(
      sortPlan([...entries])
        .map((e) => `${e.action} ${e.hash} ${e.key}`)
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 16);
}

/** What the reviewer saw, as stored in the comment: the whole-plan hash and the entries that change. */
export interface ReviewedPlan {
  hash: string;
  /** How many objects the plan held (changed and unchanged). */
  objects: number;
  /** Entries that are not `unchanged`; absent when they did not fit in the comment. */
  changed?: PlanEntry[];
  /**
   * The package directory's git tree when it was reviewed: the apply compares it with the tree it applies
   * (a later merge into the same package changes it). Absent in comments of older versions.
   */
  tree?: string;
}

export function reviewedPlan(entries: readonly PlanEntry[], tree?: string): ReviewedPlan {
  return {
    hash: planHash(entries),
    objects: entries.length,
    changed: entries.filter((e) => e.action !== 'unchanged'),
    ...(tree ? { tree } : {}),
  };
}

/** An object whose plan differs between the review and now. */
export interface PlanDifference {
  key: string;
  /** `unchanged` also stands for "not in that plan". */
  reviewed: PreviewAction;
  now: PreviewAction;
  /** Same action, different changes. */
  changesDiffer: boolean;
}

export interface PlanComparison {
  same: boolean;
  differences: PlanDifference[];
  /** Set when the plans differ in a way no object can be named for (the unchanged set, a truncated digest). */
  note?: string;
}

/** Compares the plan about to be carried out with the reviewed one. */
export function comparePlans(reviewed: ReviewedPlan, now: readonly PlanEntry[]): PlanComparison {
  if (planHash(now) === reviewed.hash) return { same: true, differences: [] };
  if (!reviewed.changed) {
    return {
      same: false,
      differences: [],
      note: 'the reviewed plan was too large to list object by object in the comment; its hash differs',
    };
  }
  const before = new Map(reviewed.changed.map((e) => [e.key, e]));
  const differences: PlanDifference[] = [];
  for (const e of now) {
    const r = before.get(e.key);
    before.delete(e.key);
    const reviewedAction = r?.action ?? 'unchanged';
    if (reviewedAction !== e.action || (r && r.hash !== e.hash)) {
      differences.push({
        key: e.key,
        reviewed: reviewedAction,
        now: e.action,
        changesDiffer: reviewedAction === e.action,
      });
    }
  }
  for (const r of before.values())
    differences.push({ key: r.key, reviewed: r.action, now: 'unchanged', changesDiffer: false });
  const note =
    differences.length === 0
      ? `the set of unchanged objects differs (${reviewed.objects} objects reviewed, ${now.length} now)`
      : undefined;
  differences.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { same: false, differences, ...(note ? { note } : {}) };
}
