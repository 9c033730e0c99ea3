import { cloneJson, type KubeObject } from '../common/kube-object.js';
import {
  type FieldPath,
  type ManagedFieldsEntry,
  ownedPaths,
  setAtPath,
} from '../inventory/managed-fields.js';

/**
 * What a dry-run cannot show by itself about apply's client-side takeover. Apply first moves the fields of
 * the client-side managers (`kubectl`, `kubectl-client-side-apply`) to our manager, then applies; fields we
 * then own and no longer apply are removed by the server (and defaulted again where the schema has a
 * default). A dry-run cannot carry the takeover, so the decision dry-runs the apply (forcing only the
 * conflicts the takeover absorbs), then removes from that answer the fields the takeover would have given
 * us and nobody keeps, and has the server default and validate the result with a second dry-run.
 */

const isPrefix = (p: FieldPath, q: FieldPath) => p.length <= q.length && p.every((x, i) => x === q[i]);

/**
 * The fields the takeover gives us that the apply answered in `dryRun` leaves to the client-side managers
 * only: after a real takeover nobody would own them, so the server removes them. `status` is never ours.
 */
export function takeoverRemovals(dryRun: KubeObject, absorbed: Set<string>): FieldPath[] {
  const entries = (dryRun.metadata.managedFields ?? []) as ManagedFieldsEntry[];
  const isAbsorbed = (e: ManagedFieldsEntry) =>
    e.operation === 'Update' && !e.subresource && absorbed.has(e.manager ?? '');
  const candidates = entries.filter(isAbsorbed).flatMap((e) => ownedPaths(e.fieldsV1));
  // ours (the fields this apply sets) and every other manager's
  const kept = entries.filter((e) => !isAbsorbed(e)).flatMap((e) => ownedPaths(e.fieldsV1));
  const removals: FieldPath[] = [];
  for (const p of candidates) {
    if (p[0] === 'f:status') continue;
    // kept when someone else owns it, or something inside it
    if (kept.some((k) => isPrefix(p, k))) continue;
    if (removals.some((r) => isPrefix(r, p))) continue;
    removals.push(p);
  }
  return removals;
}

/** `dryRun` without the fields the takeover removes. */
export function withoutPaths(dryRun: KubeObject, paths: FieldPath[]): KubeObject {
  const copy = cloneJson(dryRun);
  for (const p of paths) setAtPath(copy, p, undefined);
  return copy;
}

const pointer = (...parts: string[]) =>
  parts.map((p) => `/${p.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/**
 * A JSON patch that turns `live` into `target` for everything a user owns (top-level fields but
 * `metadata` and `status`; labels and annotations): sent as a dry-run, the server defaults and validates
 * the result as it would after the apply.
 */
export function patchTowards(live: KubeObject, target: KubeObject): unknown[] {
  const ops: unknown[] = [];
  const skip = new Set(['apiVersion', 'kind', 'metadata', 'status']);
  const keys = new Set([...Object.keys(live), ...Object.keys(target)].filter((k) => !skip.has(k)));
  const put = (path: string, had: boolean, value: unknown) => {
    if (value !== undefined) ops.push({ op: 'add', path, value });
    else if (had) ops.push({ op: 'remove', path });
  };
  for (const k of keys) put(pointer(k), k in live, (target as Record<string, unknown>)[k]);
  for (const k of ['labels', 'annotations'] as const) {
    put(pointer('metadata', k), live.metadata[k] !== undefined, target.metadata[k]);
  }
  return ops;
}
