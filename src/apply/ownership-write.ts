import { jsonEqual } from '../common/json-equal.js';
import type { KubeObject } from '../common/kube-object.js';
import { idKey, idOf, type ObjectId } from '../common/object-id.js';
import { decideOwnership } from '../inventory/field-owners.js';
import { conflictsTaken, managedFieldsOf, ownedPaths } from '../inventory/managed-fields.js';
import { ownershipPatch } from '../inventory/ownership-rewrite.js';
import { KubeApiError } from '../kube/api-error.js';
import { fieldConflicts } from './apply-error.js';
import { ownerContext } from './ask-server.js';
import { decideObject } from './decide-object.js';
import type { Decision } from './decision.js';
import type { RunState } from './run-state.js';

/** How many times a write is sent, each time decided again on a fresh read, before its failure is the object's. */
export const WriteAttempts = 5;

/** What the write loop ends with: the object as written, or a decision that needs no write after all. */
export type Written = { written: KubeObject; decision: Decision } | { decided: Decision };

/**
 * Writes a create or configure the way its decision says (field-owners.ts): the managedFields rewrite that
 * moves the released and taken-over fields first (a JSON patch that tests the resourceVersion the decision
 * was made on), then the server-side apply, forced when the decision takes fields, carrying that
 * resourceVersion, so only the fields decided on move. When the object changed in between (a controller
 * writes a Deployment's status, a person edits it), the patch's test fails (422), the pinned apply answers
 * 409, or an unforced apply meets a new conflict: the object is read again and decided again, up to
 * WriteAttempts times.
 */
export async function writeDecided(state: RunState, id: ObjectId, first: Decision): Promise<Written> {
  const manifest = state.manifests.get(idKey(id))!;
  const ref = { ...idOf(manifest), apiVersion: manifest.apiVersion };
  let decision = first;
  let live = state.live.get(idKey(id)) ?? undefined;
  for (let attempt = 1; ; attempt++) {
    const o = decision.ownership;
    const pinned = !!live && (!!o?.managedFields || !!o?.force);
    try {
      let resourceVersion = live?.metadata.resourceVersion;
      if (live && o?.managedFields)
        resourceVersion = (await state.client.jsonPatch(ref, ownershipPatch(live, o.managedFields))).metadata
          .resourceVersion;
      const body = pinned ? { ...manifest, metadata: { ...manifest.metadata, resourceVersion } } : manifest;
      const written = await state.client.apply(body, {
        fieldManager: state.options.fieldManager,
        force: !!o?.force || state.options.forceConflicts,
        dryRun: false,
      });
      return { written, decision };
    } catch (err) {
      if (!(err instanceof KubeApiError) || (err.code !== 409 && err.code !== 422)) throw err;
      const fresh = (await state.client.get(ref)) ?? null;
      const moved = fresh?.metadata.resourceVersion !== live?.metadata.resourceVersion;
      // a refusal of the object as it was (invalid, a conflict the decision did not know of when nothing moved)
      if (!moved && !(err.code === 409 && fieldConflicts(err))) throw err;
      if (attempt >= WriteAttempts)
        throw new KubeApiError(
          409,
          'Conflict',
          `${ref.kind} ${ref.name} changed under each of ${WriteAttempts} attempts to write it as decided ` +
            '(another writer updates it all the time): apply again',
        );
      // a controller's status write is the usual reason: nothing the decision rests on moved, so it is
      // worked out again on the fresh object without another dry-run (the write follows one read)
      const again =
        fresh && live && sameButStatus(live, fresh) ? redecided(state, decision, fresh) : undefined;
      live = fresh ?? undefined;
      decision = again ?? (await decideObject(state, id, fresh));
      if (decision.action !== 'create' && decision.action !== 'configure') return { decided: decision };
    }
  }
}

/**
 * The decision again on a fresh read that differs only in status (and its writers' managed fields): the
 * ownership rule over the same dry-run answer. Undefined when it cannot be (a takeover simulated on the
 * answer, or the rule now refuses): then the server is asked again.
 */
function redecided(state: RunState, d: Decision, fresh: KubeObject): Decision | undefined {
  if (!d.object || !d.ownership || d.takenOver) return undefined;
  const manifest = state.manifests.get(idKey(idOf(fresh)));
  if (!manifest) return undefined;
  const ownership = decideOwnership({
    live: fresh,
    conflicts: conflictsTaken(fresh, d.object, state.options.fieldManager),
    answer: d.object,
    context: ownerContext(state, manifest, fresh),
  });
  return ownership.error ? undefined : { ...d, ownership };
}

/** The object without what status writes change: status, resourceVersion, and status writers' entries. */
function sameButStatus(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { status: _s, ...rest } = o as KubeObject & { status?: unknown };
    const entries = managedFieldsOf(o)
      .filter((e) => e.subresource !== 'status' && !ownedPaths(e.fieldsV1).every((p) => p[0] === 'f:status'))
      .map(({ time: _t, ...e }) => e);
    return { ...rest, metadata: { ...o.metadata, resourceVersion: undefined, managedFields: entries } };
  };
  return jsonEqual(strip(a), strip(b));
}
