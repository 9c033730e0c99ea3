import { objectConflictSettings } from '../common/conflict-settings.js';
import { cloneJson, type KubeObject } from '../common/kube-object.js';
import { idOf } from '../common/object-id.js';
import { decideOwnership, type OwnershipDecision } from '../inventory/field-owners.js';
import { conflictsTaken, setAtPath, valueAtPath } from '../inventory/managed-fields.js';
import { isAdoption, type OwnerContext } from '../inventory/owner-class.js';
import { KubeApiError } from '../kube/api-error.js';
import { ApplyRejection } from './apply-error.js';
import type { ServerAnswer } from './decision.js';
import type { RunState } from './run-state.js';
import { patchTowards, takeoverRemovals, withoutPaths } from './simulate-takeover.js';

/** Who the other field managers of `live` are to this package object (field-owners.ts's rule). */
export function ownerContext(state: RunState, manifest: KubeObject, live: KubeObject): OwnerContext {
  return {
    fieldManager: state.options.fieldManager,
    adopting: isAdoption(live, state.inventory.id, state.options.inventoryPolicy),
    // force-conflicts is `conflicts: force`; an object's annotation may still say otherwise
    settings: objectConflictSettings(
      state.options.forceConflicts ? { ...state.options.conflicts, mode: 'force' } : state.options.conflicts,
      manifest.metadata.annotations,
    ),
  };
}

/**
 * The server's answer to the dry-run of the apply, judged by the ownership rule (field-owners.ts): the fields a
 * forced dry-run takes from other managers are those they hold with another value; one a co-owner holds is a
 * conflict, and the object fails saying whose and the way out; the others are taken or released, and the
 * forced answer is the object as apply leaves it. A dry-run cannot carry apply's
 * managedFields rewrite: the fields that rewrite hands to us from client-side apply and that nobody keeps
 * are removed from the answer (simulate-takeover.ts).
 */
export async function askServer(
  state: RunState,
  manifest: KubeObject,
  live?: KubeObject,
): Promise<ServerAnswer> {
  try {
    if (!live) return { object: await dryRunApply(state, manifest, state.options.forceConflicts) };
    const context = ownerContext(state, manifest, live);
    // one forced dry-run: what it took from whom is what an unforced one would have refused (conflictsTaken)
    let object = await dryRunApply(state, manifest, true);
    const conflicts = conflictsTaken(live, object, state.options.fieldManager);
    const ownership = decideOwnership({ live, conflicts, answer: object, context });
    const keep = state.ask.kind === 'all' && !!state.ask.keepCoOwners;
    if (ownership.error && !keep) {
      const causes = conflicts.map((c) => ({
        type: 'FieldManagerConflict',
        field: c.field,
        message: c.manager,
      }));
      const refusal = new KubeApiError(409, 'Conflict', ownership.error, causes);
      return { error: new ApplyRejection(refusal, ownership.error, conflicts), ownership };
    }
    if (keep) object = withCoOwnersKept(object, live, ownership);
    const absorbed = new Set(ownership.absorbed.map((m) => m.manager));
    if (absorbed.size > 0) object = await afterTakeover(state, live, object, absorbed);
    return { object, ownership };
  } catch (error) {
    return { error };
  }
}

/** The forced answer with every field a co-owner holds put back to its live value (drift: not ours to change). */
function withCoOwnersKept(answer: KubeObject, live: KubeObject, o: OwnershipDecision): KubeObject {
  // a hand edit apply would stop at (`conflicts: fail`) still differs from the package: drift shows it
  const kept = o.blocking.filter((d) => d.path && d.class !== 'hand-edit');
  if (kept.length === 0) return answer;
  const copy = cloneJson(answer);
  for (const d of kept) setAtPath(copy, d.path!, cloneJson(valueAtPath(live, d.path!)));
  return copy;
}

function dryRunApply(state: RunState, manifest: KubeObject, force: boolean): Promise<KubeObject> {
  return state.client.apply(manifest, { fieldManager: state.options.fieldManager, force, dryRun: true });
}

/** The dry-run answer as apply will leave the object: taken-over fields it no longer sets removed, then defaulted. */
async function afterTakeover(
  state: RunState,
  live: KubeObject,
  dryRun: KubeObject,
  absorbed: Set<string>,
): Promise<KubeObject> {
  const removals = takeoverRemovals(dryRun, absorbed);
  if (removals.length === 0) return dryRun;
  const ops = patchTowards(live, withoutPaths(dryRun, removals));
  return state.client.jsonPatch({ ...idOf(live), apiVersion: dryRun.apiVersion }, ops, {
    dryRun: true,
    fieldManager: state.options.fieldManager,
  });
}
