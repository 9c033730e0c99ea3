import { Annotations } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import { type ObjectId, shortName } from '../common/object-id.js';
import type { OwnershipDecision } from '../inventory/field-owners.js';
import { UnknownKindError } from '../kube/cluster-client.js';
import type { ResourceInfo } from '../kube/discovery.js';
import { explainApplyError, isUnanswered } from './apply-error.js';
import { isNoOpApply } from './no-op-apply.js';
import { type SkipReason, skipMessage } from './skip-reason.js';
import { immutableFields, type UpdateStrategy } from './update-strategy.js';

/**
 * What a run does (or, as a dry run, would do) with one object: a package object is created, configured,
 * left unchanged, replaced, skipped or refused; an inventory object no longer in the package (in a destroy,
 * every inventory object) is pruned, skipped, or orphaned (forgotten, left in the cluster).
 */
export type DecidedAction =
  | 'create'
  | 'configure'
  | 'unchanged'
  | 'replace'
  | 'skip'
  | 'error'
  | 'prune'
  | 'orphan';

/**
 * The one decision for one package object, recorded by the run (`RunState.decisions`). The preview, the PR
 * comment, the plan digest, `--dry-run`, drift and the exit codes are views of it; apply carries it out.
 */
export interface Decision {
  action: DecidedAction;
  /**
   * The object as the server answered the dry-run apply (what apply leaves in the cluster); the live object
   * for a strategy skip and for an unchanged object proven without asking the server.
   */
  object?: KubeObject;
  /** False when the server did not judge it: its Namespace or CRD comes with this package, or it was not asked. */
  validated: boolean;
  /** Why: skip reason, the server's refusal, replace cause, ownership move, why it was not validated. */
  reason?: string;
  /** A skip the user did not choose: a dependency failed or was skipped, or the inventory policy refused it. */
  blocked?: boolean;
  skip?: SkipReason;
  /** An error the server never judged (what retries could not get through: network, 429, 5xx). */
  unanswered?: boolean;
  /** The client-side apply managers whose fields move to our field manager before the apply. */
  takenOver?: string[];
  /**
   * The ownership rule's verdict on the fields other managers hold (field-owners.ts): what is taken back
   * from a hand edit, released by a previous owner, or a conflict; and what apply writes to move them.
   */
  ownership?: OwnershipDecision;
  /** Discovery's answer for its kind (undefined: not served yet, its CRD comes with this package). */
  info?: ResourceInfo;
}

/** What is known about an object before the server is asked (gathered by decide-object.ts). */
export interface ObjectFacts {
  id: ObjectId;
  manifest: KubeObject;
  live?: KubeObject;
  info?: ResourceInfo;
  /** Why it may not be applied now (dependency, inventory policy). */
  skip?: SkipReason;
  /** A Namespace or CRD this package creates and that does not exist yet: the server cannot judge it now. */
  prerequisite?: ObjectId;
  /** Its kind is not served, but a CRD of its group comes with this package. */
  crdInPackage: boolean;
  /** Its update strategy, or why the annotation is invalid. */
  strategy: UpdateStrategy | Error;
  takenOver?: string[];
  /** What our own last apply left in place proves the apply is a no-op (provenNoOp). */
  provenUnchanged: boolean;
  fieldManager: string;
}

/**
 * The decision that needs no answer from the server, or undefined when only the server can tell (then the
 * run asks for a dry-run, or leaves it to the write: `unjudged`). In order: a skip (dependency, inventory
 * policy), an object the server cannot judge yet, an unknown kind, an invalid strategy, an object being
 * deleted, `update-strategy: skip`/`always-replace`, an unchanged object proven from its managed fields.
 */
export function decideLocally(f: ObjectFacts): Decision | undefined {
  if (f.skip) return blockedBy(f.skip);
  if (f.prerequisite)
    return {
      action: 'create',
      validated: false,
      reason: `not validated: depends on ${shortName(f.prerequisite)} created by this package`,
    };
  if (!f.info) {
    if (f.crdInPackage)
      return { action: 'create', validated: false, reason: 'not validated: its CRD comes with this package' };
    const unknown = new UnknownKindError(f.manifest.apiVersion, f.manifest.kind);
    return { action: 'error', validated: false, reason: unknown.message };
  }
  const info = f.info;
  if (f.strategy instanceof Error)
    return { action: 'error', validated: false, reason: f.strategy.message, info };
  const live = f.live;
  if (live?.metadata.deletionTimestamp)
    return { action: 'error', validated: true, reason: beingDeleted(live), info };
  if (live && f.strategy === 'skip') {
    const reason = `${Annotations.KappUpdateStrategy}: skip (the live object is left as it is)`;
    return { action: 'skip', reason, object: live, validated: true, info };
  }
  if (live && f.strategy === 'always-replace')
    return {
      action: 'replace',
      validated: false,
      reason: `${Annotations.KappUpdateStrategy}: always-replace (deleted and created again)`,
      info,
    };
  if (live && f.provenUnchanged) return { action: 'unchanged', object: live, validated: true, info };
  return undefined;
}

/** A skip the user did not choose (a dependency, the inventory policy): the object is not applied now. */
export function blockedBy(skip: SkipReason): Decision {
  return { action: 'skip', reason: skipMessage(skip), blocked: true, skip, validated: false };
}

/** An object the server was not asked about: it is judged by its own write, as kpt and kubectl do. */
export function unjudged(f: ObjectFacts): Decision {
  return {
    action: f.live ? 'configure' : 'create',
    validated: false,
    reason: 'not dry-run: judged by its own write',
    info: f.info,
    ...(f.takenOver ? { takenOver: f.takenOver } : {}),
  };
}

/**
 * The server's answer to the dry-run of the apply (ask-server.ts: with the ownership rule applied and
 * apply's takeover simulated), or its refusal.
 */
export type ServerAnswer =
  | { object: KubeObject; ownership?: OwnershipDecision }
  | { error: unknown; ownership?: OwnershipDecision };

/**
 * The decision from the server's answer to the dry-run apply: a create, a configure, an unchanged object
 * (the dry-run returned the live object as it is), a replace (an immutable field changed and the strategy
 * allows it), or an error (a conflict, an invalid object, a refusal), explained.
 */
export function decideFromAnswer(f: ObjectFacts, answer: ServerAnswer): Decision {
  const info = f.info;
  if ('error' in answer) {
    const fields = immutableFields(answer.error);
    if (f.live && fields && f.strategy === 'fallback-on-replace') {
      const s = fields.length === 1 ? '' : 's';
      return {
        action: 'replace',
        validated: true,
        reason: `replace (immutable field${s} ${fields.join(', ') || 'changed'})`,
        info,
      };
    }
    return {
      action: 'error',
      validated: true,
      reason: explainApplyError(answer.error).message,
      unanswered: isUnanswered(answer.error),
      info,
      ...(answer.ownership ? { ownership: answer.ownership } : {}),
    };
  }
  const { object, ownership } = answer;
  if (!f.live) return { action: 'create', object, validated: true, info };
  const owned = ownership?.fields.length || ownership?.managedFields ? { ownership } : {};
  if (f.takenOver) {
    const reason = `field ownership moves from ${f.takenOver.join(', ')} (client-side apply) to ${f.fieldManager}`;
    return { action: 'configure', object, validated: true, takenOver: f.takenOver, reason, info, ...owned };
  }
  // a field released to us keeps its value: the write is the ownership's
  if (ownership?.managedFields)
    return {
      action: 'configure',
      object,
      validated: true,
      reason: ownershipReason(ownership),
      info,
      ...owned,
    };
  const same = isNoOpApply(f.live, object);
  return { action: same ? 'unchanged' : 'configure', object, validated: true, info, ...owned };
}

function ownershipReason(o: OwnershipDecision): string {
  const released = [...new Set(o.fields.filter((d) => d.outcome === 'release').map((d) => d.manager))];
  return released.length > 0
    ? `field ownership moves from ${released.join(', ')} to this package`
    : 'field ownership moves to this package';
}

/**
 * What a write did, from its answer: created, or unchanged when the server kept the resourceVersion (it
 * skips a no-op write), else configured. A takeover is a write of its own, so it never counts as unchanged.
 */
export function writeOutcome(
  live: KubeObject | undefined,
  written: KubeObject,
  takenOver: boolean,
): 'created' | 'configured' | 'unchanged' {
  if (!live) return 'created';
  if (takenOver) return 'configured';
  return written.metadata.resourceVersion === live.metadata.resourceVersion ? 'unchanged' : 'configured';
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
