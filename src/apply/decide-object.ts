import { Annotations } from '../common/constants.js';
import { type KubeObject, splitApiVersion } from '../common/kube-object.js';
import { idKey, idOf, type ObjectId, shortName } from '../common/object-id.js';
import { applyBlockedBy } from '../inventory/ownership.js';
import type { KubeApiError } from '../kube/api-error.js';
import { UnknownKindError } from '../kube/cluster-client.js';
import type { ResourceInfo } from '../kube/discovery.js';
import { dependenciesOf } from '../plan/plan.js';
import {
  ApplyRejection,
  conflictMessage,
  explainApplyError,
  fieldConflicts,
  isUnanswered,
} from './apply-error.js';
import { takeoverManagers } from './client-side-takeover.js';
import { isNoOpApply } from './no-op-apply.js';
import { provenNoOp } from './proven-no-op.js';
import type { RunState } from './run-state.js';
import { patchTowards, takeoverRemovals, withoutPaths } from './simulate-takeover.js';
import { type SkipReason, skipMessage } from './skip-reason.js';
import { takeOverClientSideFields } from './takeover-patch.js';
import { deleteForReplace, immutableFields, updateStrategyOf } from './update-strategy.js';

/** What apply does (or, as a dry-run, will do) with one package object. */
export type DecidedAction = 'create' | 'configure' | 'unchanged' | 'replace' | 'skip' | 'error';

export interface ObjectDecision {
  action: DecidedAction;
  /**
   * The object as the server answered the apply (or its dry-run); for a strategy skip, and for an unchanged
   * object proven without a dry-run (provenNoOp), the live object.
   */
  object?: KubeObject;
  /** False when the server could not judge it yet (its Namespace or CRD comes with this package). */
  validated?: boolean;
  /** Why: skip reason, the server's refusal, replace cause, ownership move. */
  reason?: string;
  /** A skip the user did not choose: a dependency failed or was skipped, or the inventory policy. */
  blocked?: boolean;
  /** That skip, as data. */
  skip?: SkipReason;
  /** An error the server never judged (what retries could not get through: network, 429, 5xx). */
  unanswered?: boolean;
  /** The client-side apply managers whose fields move to our field manager first. */
  takenOver?: string[];
  info?: ResourceInfo;
}

/**
 * Why an object may not be applied now (kpt's DependencyFilter and InventoryPolicyApplyFilter), if so,
 * as data (the owner's ResourceGroup is not looked up yet: `withOwner`).
 */
export function applySkip(state: RunState, id: ObjectId): SkipReason | undefined {
  for (const dep of dependenciesOf(state.plan, id)) {
    const depKey = idKey(dep);
    if (!state.manifests.has(depKey))
      return { type: 'dependency', dependency: dep, cause: 'scheduled for delete' };
    const why = state.blocked.get(depKey);
    if (why) return { type: 'dependency', dependency: dep, cause: why };
  }
  const live = state.live.get(idKey(id));
  const refused = applyBlockedBy(live ?? undefined, state.inventory.id, state.options.inventoryPolicy);
  if (!refused) return undefined;
  return {
    type: 'inventory-policy',
    strategy: 'Apply',
    match: refused.match,
    policy: state.options.inventoryPolicy,
    ...(refused.owner ? { owner: { id: refused.owner } } : {}),
  };
}

/**
 * The Namespace or CRD that this package creates and that does not exist yet, which a server-side dry-run
 * of `id` would trip over; undefined when the dry-run can be trusted now.
 */
export function missingPrerequisite(state: RunState, id: ObjectId): ObjectId | undefined {
  for (const dep of dependenciesOf(state.plan, id)) {
    const isNamespace = dep.group === '' && dep.kind === 'Namespace';
    const isCrd = dep.group === 'apiextensions.k8s.io' && dep.kind === 'CustomResourceDefinition';
    if ((isNamespace || isCrd) && state.manifests.has(idKey(dep)) && !state.live.get(idKey(dep))) return dep;
  }
  return undefined;
}

/**
 * The one decision for one object, taken by the preview, the pre-flight (`write: false`: server-side
 * dry-runs only) and the apply (`write: true`), with the same steps: dependency and inventory-policy
 * skips, update strategy, an object being deleted, the client-side takeover, the server-side apply, and
 * a conflict or an immutable field. Never throws: a failure is an `error` decision.
 */
export async function decideObject(
  state: RunState,
  id: ObjectId,
  mode: { write: boolean },
): Promise<ObjectDecision> {
  try {
    return await decide(state, id, mode.write);
  } catch (err) {
    return { action: 'error', reason: explainApplyError(err).message, unanswered: isUnanswered(err) };
  }
}

async function decide(state: RunState, id: ObjectId, write: boolean): Promise<ObjectDecision> {
  const key = idKey(id);
  const manifest = state.manifests.get(key)!;
  const skip = applySkip(state, id);
  if (skip) return { action: 'skip', reason: skipMessage(skip), blocked: true, skip };
  const live = state.live.get(key) ?? undefined;
  if (!write) {
    const prerequisite = missingPrerequisite(state, id);
    if (prerequisite)
      return {
        action: 'create',
        validated: false,
        reason: `not validated: depends on ${shortName(prerequisite)} created by this package`,
      };
  }
  const info = write
    ? await resolveNewKind(state, manifest)
    : await state.client.resolve(manifest.apiVersion, manifest.kind);
  if (!info) {
    if (!write && crdInPackage(state, manifest))
      return { action: 'create', validated: false, reason: 'not validated: its CRD comes with this package' };
    throw new UnknownKindError(manifest.apiVersion, manifest.kind);
  }
  const strategy = updateStrategyOf(manifest, state.options.defaultUpdateStrategy);
  if (live?.metadata.deletionTimestamp) return { action: 'error', reason: beingDeleted(live), info };
  if (live && strategy === 'skip') {
    const reason = `${Annotations.KappUpdateStrategy}: skip (the live object is left as it is)`;
    return { action: 'skip', reason, object: live, info };
  }
  const replace = async (reason: string): Promise<ObjectDecision> => {
    if (!write) return { action: 'replace', reason, info };
    await deleteForReplace(state.client, live!, state.options.pruneTimeoutMs);
    return { action: 'replace', reason, object: await ssa(state, manifest, false), info };
  };
  if (live && strategy === 'always-replace')
    return replace(`${Annotations.KappUpdateStrategy}: always-replace (deleted and created again)`);
  const answer = write && live ? state.preflight.get(key) : undefined;
  const unchanged = answer?.unchanged ? answer.object : undefined;
  // the pre-flight dry-run already showed this apply changes nothing: no second request
  if (unchanged) return { action: 'unchanged', object: unchanged, validated: true, info };

  const absorbed = takeoverManagers(live);
  const takenOver = absorbed.size > 0 ? [...absorbed].sort() : undefined;
  // what our own last apply left in place needs no dry-run to be known unchanged (preflight: all asks the
  // server about every object all the same)
  const proofTaken = !write && live && !takenOver && state.options.preflight !== 'all';
  if (proofTaken && provenNoOp(live, manifest, state.options.fieldManager))
    return { action: 'unchanged', object: live, validated: true, info };
  let object: KubeObject;
  try {
    if (write && live && takenOver) {
      const ref = { ...idOf(manifest), apiVersion: manifest.apiVersion };
      await takeOverClientSideFields(state.client, ref, live, state.options.fieldManager);
    }
    const sent = write
      ? ssa(state, manifest, false)
      : (state.early?.take(key, manifest) ?? ssa(state, manifest, true));
    object = await sent.catch((err: unknown) => {
      // a dry-run cannot carry the takeover: the conflicts it absorbs are forced, the others are apply's too
      const conflicts = fieldConflicts(err);
      if (write || !conflicts || absorbed.size === 0) throw err;
      const left = conflicts.filter(
        (c) => c.operation !== 'Update' || !!c.subresource || !absorbed.has(c.manager),
      );
      if (left.length > 0) throw new ApplyRejection(err as KubeApiError, conflictMessage(left), left);
      return ssa(state, manifest, true, true);
    });
  } catch (err) {
    const fields = immutableFields(err);
    if (live && fields && strategy === 'fallback-on-replace') {
      const s = fields.length === 1 ? '' : 's';
      return replace(`replace (immutable field${s} ${fields.join(', ') || 'changed'})`);
    }
    throw err;
  }
  if (!live) return { action: 'create', object, validated: true, info };
  if (write) {
    // the server skips a no-op write (same resourceVersion); a takeover is a write of its own
    const same = object.metadata.resourceVersion === live.metadata.resourceVersion;
    return { action: same ? 'unchanged' : 'configure', object, validated: true, takenOver, info };
  }
  if (takenOver) {
    object = await afterTakeover(state, live, object, absorbed);
    const reason = `field ownership moves from ${takenOver.join(', ')} (client-side apply) to ${state.options.fieldManager}`;
    return { action: 'configure', object, validated: true, takenOver, reason, info };
  }
  const same = isNoOpApply(live, object, state.options.fieldManager);
  return { action: same ? 'unchanged' : 'configure', object, validated: true, info };
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

function ssa(state: RunState, manifest: KubeObject, dryRun: boolean, force = false) {
  return state.client.apply(manifest, {
    fieldManager: state.options.fieldManager,
    force: force || state.options.forceConflicts,
    dryRun,
  });
}

function beingDeleted(live: KubeObject): string {
  const finalizers = (live.metadata.finalizers as string[] | undefined) ?? [];
  const waiting =
    finalizers.length > 0
      ? ` (waiting on finalizer${finalizers.length === 1 ? '' : 's'} ${finalizers.join(', ')})`
      : '';
  return (
    `being deleted since ${live.metadata.deletionTimestamp}${waiting}: an apply would not stop the deletion. ` +
    'Let the deletion finish (or remove the finalizers) and apply again'
  );
}

function crdInPackage(state: RunState, manifest: KubeObject): boolean {
  const { group } = splitApiVersion(manifest.apiVersion);
  return [...state.manifests.values()].some(
    (m) =>
      m.kind === 'CustomResourceDefinition' && (m.spec as { group?: string } | undefined)?.group === group,
  );
}

/**
 * Discovery for a kind whose CRD this run just established can lag for a moment: look again (refreshing
 * discovery) for up to 15 s before the apply reports the kind as unknown.
 */
async function resolveNewKind(state: RunState, manifest: KubeObject) {
  const deadline = Date.now() + 15_000;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    const info = await state.client.resolve(manifest.apiVersion, manifest.kind);
    if (info) return info; // nearly always: looking through what was applied is for the rare miss
    const crdApplied = [...state.applied.keys()].some((k) =>
      k.endsWith('_apiextensions.k8s.io_CustomResourceDefinition'),
    );
    if (!crdApplied || Date.now() > deadline) return info;
    await new Promise((r) => setTimeout(r, delay));
    state.client.resetDiscovery();
  }
}
