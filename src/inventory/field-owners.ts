import { ConflictsAnnotation } from '../common/conflict-settings.js';
import type { KubeObject } from '../common/kube-object.js';
import {
  appliedEntry,
  type FieldConflict,
  type FieldPath,
  fieldName,
  type ManagedFieldsEntry,
  managedFieldsOf,
  ownedPaths,
  valueAtPath,
} from './managed-fields.js';
import {
  type ClassifiedManager,
  classifyManagedFields,
  classifyManager,
  type OwnerContext,
  sameRef,
} from './owner-class.js';
import { type FieldMove, movedManagedFields } from './ownership-rewrite.js';

/**
 * The ownership rule, per field the package sets, given the live object, the server's conflicts for an
 * unforced server-side apply of the package (the causes of its 409, or none) and the dry-run answer:
 * - held by a hand edit with another value: taken over (the apply is forced: the package's value wins);
 * - held by the previous owner at adoption, same value or not, or by a hand edit with the same value:
 *   released (ownership moves to our manager, so a later removal from the package removes the field);
 * - held by a co-owner with another value: a conflict, named with manager, field and the fix.
 * Fields the package does not set are never touched, whoever holds them. Pure: the caller reads, dry-runs
 * and writes (see OwnershipDecision for the order).
 */

/** What happens to one field another manager holds. */
export type FieldOutcome = 'take' | 'release' | 'conflict';

export interface FieldDecision extends ClassifiedManager {
  /** As the server names it: `.data.WORDPRESS_DEBUG`, `.spec.template.spec.containers[name="web"].image`. */
  field: string;
  /** The FieldsV1 path, when the manager's entry in the live object holds it. */
  path?: FieldPath;
  outcome: FieldOutcome;
  /** The manager left the value the package sets: only ownership changes. */
  sameValue: boolean;
  /** The live value and the package's (from the dry-run answer), where known. */
  live?: unknown;
  desired?: unknown;
  /** In words, for the preview and the events: "reverts an edit by kubectl-patch", or the conflict and its fix. */
  message: string;
}

export interface OwnershipInput {
  live: KubeObject;
  /** The conflicts of an unforced server-side apply (dry-run) of the package; empty when it had none. */
  conflicts: readonly FieldConflict[];
  /**
   * A dry-run answer of the package's apply (forced or not): its Apply entry for our manager is the set of
   * fields the package sets. Without it only the conflicting fields are decided.
   */
  answer?: KubeObject;
  context: OwnerContext;
  now?: Date;
}

/**
 * The decision for one object. To carry it out: when `managedFields` is set, write it first
 * (ownershipPatch, testing the live resourceVersion); then server-side apply the package with
 * `force: decision.force` and `metadata.resourceVersion` set to the object's current one (the patch's
 * answer, else the live one), so that only the fields decided on move. A 409 (stale resourceVersion) or
 * a 422 from the patch's test: read again, dry-run again, decide again (up to 5 times). A dry-run cannot
 * carry the rewrite: it forces when `force` or `absorbed` is non-empty and a conflict names an absorbed
 * manager.
 */
export interface OwnershipDecision {
  /** Every field another manager holds that this apply takes, releases or stops at. */
  fields: FieldDecision[];
  /** The conflicts that fail the object (empty when it may be applied). */
  blocking: FieldDecision[];
  /** The whole entries that move to our manager (client-side apply, class `ours`). */
  absorbed: ClassifiedManager[];
  /** The apply forces: every conflict the server named is taken or released (or conflicts is `force`). */
  force: boolean;
  /** The managedFields to write before the apply (released fields and absorbed entries moved to us). */
  managedFields?: ManagedFieldsEntry[];
  /** The object's error when `blocking` is not empty: each field with its manager, and the ways out. */
  error?: string;
}

const refOfConflict = (c: FieldConflict) => ({
  manager: c.manager,
  operation: c.operation,
  ...(c.subresource ? { subresource: c.subresource } : {}),
});

function pathOf(live: KubeObject, c: FieldConflict): FieldPath | undefined {
  const entry = managedFieldsOf(live).find((e) =>
    sameRef(
      { manager: e.manager ?? '', operation: e.operation ?? '', subresource: e.subresource },
      refOfConflict(c),
    ),
  );
  return ownedPaths(entry?.fieldsV1).find((p) => fieldName(p) === c.field);
}

/** How one conflicting field ends, by the class of its manager and the mode. */
function outcomeOf(m: ClassifiedManager, mode: OwnerContext['settings']['mode']): FieldOutcome {
  if (m.class === 'previous-owner' && mode !== 'fail') return 'release';
  if (mode === 'force') return 'take';
  if (mode === 'fail') return 'conflict';
  return m.class === 'hand-edit' ? 'take' : 'conflict';
}

function words(d: Omit<FieldDecision, 'message'>, fieldManager: string): string {
  if (d.outcome === 'take') return `reverts an edit by ${d.manager}`;
  if (d.class === 'previous-owner') return `released by ${d.manager}, its previous owner (${d.why})`;
  return `${d.manager} set the package's value: ownership moves to ${fieldManager}`;
}

/** Each way out of a conflict with this manager. */
function fixes(m: ClassifiedManager, mode: string): string[] {
  const out = ['remove the field from the package (the other manager keeps it)'];
  if (m.class === 'hand-edit' && mode === 'fail')
    out.push('set conflicts: take-hand-edits (--conflicts take-hand-edits) to revert the edit');
  else if (!m.subresource)
    out.push(
      `list "${m.manager}" in conflicts-take (--conflicts-take ${m.manager}), or annotate the object ${ConflictsAnnotation}: take=${m.manager}`,
    );
  out.push(
    `take every field with conflicts: force (--conflicts force, or the annotation ${ConflictsAnnotation}: force)`,
  );
  return out;
}

function conflictText(d: FieldDecision, mode: string): string {
  const via = d.subresource
    ? ` through the ${d.subresource} subresource${d.subresource === 'scale' ? ' (an autoscaler or `kubectl scale`)' : ''}`
    : d.operation === 'Update'
      ? ' (an update)'
      : ' (a server-side apply)';
  return `${d.field} is owned by field manager "${d.manager}"${via}: ${fixes(d, mode).join('; or ')}`;
}

function errorText(blocking: FieldDecision[], mode: string): string {
  const n = blocking.length;
  return `conflict: ${n} field${n === 1 ? '' : 's'} of the package ${n === 1 ? 'is' : 'are'} owned by another field manager: ${blocking.map((d) => conflictText(d, mode)).join('. ')}`;
}

/** The per-field decision for one object (see OwnershipDecision for how to carry it out). */
export function decideOwnership(input: OwnershipInput): OwnershipDecision {
  const { live, answer, context: ctx } = input;
  const { mode } = ctx.settings;
  const fields: FieldDecision[] = [];
  for (const c of input.conflicts) {
    const m = classifyManager(refOfConflict(c), live, ctx);
    // a client-side apply manager's fields all move to us before the apply (`absorbed`): no conflict then
    if (m.class === 'ours') continue;
    const path = pathOf(live, c);
    const base = {
      ...m,
      field: c.field,
      ...(path ? { path, live: valueAtPath(live, path) } : {}),
      ...(path && answer ? { desired: valueAtPath(answer, path) } : {}),
      outcome: outcomeOf(m, mode),
      sameValue: false,
    };
    fields.push({ ...base, message: base.outcome === 'conflict' ? '' : words(base, ctx.fieldManager) });
  }
  for (const d of fields) if (d.outcome === 'conflict') d.message = conflictText(d, mode);

  const classified = classifyManagedFields(live, ctx);
  const absorbed = classified.filter((m) => m.class === 'ours' && m.manager !== ctx.fieldManager);
  const moves: FieldMove[] = absorbed.map((m) => ({ from: m, paths: 'all' }));

  // fields the package sets that a hand edit or the previous owner holds with the same value: released
  const ours = answer ? appliedEntry(answer, ctx.fieldManager) : undefined;
  const packageSets = new Set(ownedPaths(ours?.fieldsV1).map((p) => JSON.stringify(p)));
  for (const m of mode === 'fail' ? [] : classified) {
    if (m.class !== 'hand-edit' && m.class !== 'previous-owner') continue;
    const shared = ownedPaths(m.entry.fieldsV1).filter((p) => packageSets.has(JSON.stringify(p)));
    const released = shared.filter((p) => !fields.some((d) => sameRef(d, m) && d.field === fieldName(p)));
    if (released.length === 0) continue;
    moves.push({ from: m, paths: released });
    // no conflict on them: the server found the package's value there (a list item or a map as a whole
    // is owned for being there, whatever its fields hold)
    const { entry: _entry, ...who } = m;
    for (const p of released) {
      const base = { ...who, field: fieldName(p), path: p, live: valueAtPath(live, p) };
      const d = { ...base, desired: valueAtPath(answer, p), outcome: 'release' as const, sameValue: true };
      fields.push({ ...d, message: words(d, ctx.fieldManager) });
    }
  }

  const blocking = fields.filter((d) => d.outcome === 'conflict');
  const managedFields =
    blocking.length === 0
      ? movedManagedFields(live, moves, ctx.fieldManager, answer?.apiVersion ?? live.apiVersion, input.now)
      : undefined;
  return {
    fields,
    blocking,
    absorbed: absorbed.map(({ entry: _entry, ...m }) => m),
    force: mode === 'force' || (input.conflicts.length > 0 && blocking.length === 0),
    ...(managedFields ? { managedFields } : {}),
    ...(blocking.length > 0 ? { error: errorText(blocking, mode) } : {}),
  };
}

/**
 * The fields the package sets that a hand edit changed: drift, with the manager who made it (whatever the
 * mode: with `fail` the next apply stops at them, but they differ from the package all the same). A
 * co-owner's field, or one the package does not set, is not drift.
 */
export function handEditDrift(decision: OwnershipDecision): FieldDecision[] {
  return decision.fields.filter((d) => d.class === 'hand-edit' && !d.sameValue);
}

/**
 * Whether a field our last apply set is also held by a hand edit or a previous owner (with the same value:
 * another value would have taken it from us): such a field is released by the next apply that asks the
 * server, so that a later removal from the package removes it; an object proven unchanged from its managed
 * fields alone would never be asked.
 */
export function sharesWithHandEdits(live: KubeObject, context: OwnerContext): boolean {
  const ours = appliedEntry(live, context.fieldManager);
  if (!ours) return false;
  const set = new Set(ownedPaths(ours.fieldsV1).map((p) => JSON.stringify(p)));
  return classifyManagedFields(live, context).some(
    (m) =>
      (m.class === 'hand-edit' || m.class === 'previous-owner') &&
      ownedPaths(m.entry.fieldsV1).some((p) => set.has(JSON.stringify(p))),
  );
}
