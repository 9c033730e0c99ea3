import type { KubeObject } from '../common/kube-object.js';
import type { ObjectId } from '../common/object-id.js';
import type { RunOutcome } from '../common/run-outcome.js';
import type { SourceRef } from '../common/source-ref.js';
import type { Plan } from '../plan/plan.js';
import type { Decision } from './decision.js';
import type { ApplyOperation, WaitStatus } from './events.js';
import { isBlockingSkip, type SkipReason } from './skip-reason.js';

/**
 * Where an outcome keeps what the run decided for the object (a dry run's decision, or the one a real run
 * carried out) with the objects it was decided on. The preview, the plan digest and drift are views of it.
 * A symbol key: a result serialised as JSON never carries these objects, which hold Secret values.
 */
export const DecidedOn = Symbol('decidedOn');

export interface Decided {
  decision: Decision;
  /** The object as the package has it (owning-inventory added); absent for an inventory object left out of it. */
  manifest?: KubeObject;
  /** The object as the run found it (null: absent). */
  live: KubeObject | null;
}

/** What finally happened to one object in an apply, destroy or status run. */
export interface ObjectOutcome {
  id: ObjectId;
  source?: SourceRef;
  /** created/configured/unchanged (apply), pruned/deleted, abandoned (kept by annotation), skipped, failed. */
  action: ApplyOperation | 'pruned' | 'deleted' | 'abandoned' | 'skipped' | 'failed' | 'none';
  /** Reconcile result (kpt's wait status) when the run waited. */
  reconcile?: WaitStatus;
  /** Last kstatus seen and its message (`Deployment is available. Replicas: 1`), or the error / skip reason. */
  status?: string;
  message?: string;
  /** Why it was skipped (action `skipped` or `abandoned`), as data. */
  skip?: SkipReason;
  wave?: number;
  /** Milliseconds from the run's start until it was Current (or gone). */
  readyAfterMs?: number;
  /** What the run decided for it, and the objects it decided on: see `DecidedOn`. */
  [DecidedOn]?: Decided;
}

export interface RunResult {
  outcome: RunOutcome;
  /** The fatal error (outcome `error`): invalid package, rejected pre-flight, inventory problem, cancelled. */
  error?: string;
  objects: ObjectOutcome[];
  durationMs: number;
  /** Destroy deleted the inventory's own Namespace (and the deploy history in it). */
  namespaceDeleted?: string;
  /** A dry run: nothing in the cluster was changed; `objects` say what a real run would do. */
  dryRun?: boolean;
  /** The waves and edges the run walked (for the preview's graph). */
  plan?: Plan;
}

export function countOutcomes(objects: ObjectOutcome[]) {
  const count = (pred: (o: ObjectOutcome) => boolean) => objects.filter(pred).length;
  return {
    created: count((o) => o.action === 'created'),
    configured: count((o) => o.action === 'configured'),
    unchanged: count((o) => o.action === 'unchanged'),
    pruned: count((o) => o.action === 'pruned' || o.action === 'deleted'),
    skipped: count((o) => o.action === 'skipped' || o.action === 'abandoned'),
    failed: count((o) => failed(o, { allowSkipped: true })),
  };
}

/** An object whose apply or delete failed, or whose reconcile failed or timed out. */
export function isFailedOutcome(o: ObjectOutcome): boolean {
  return o.action === 'failed' || o.reconcile === 'Failed' || o.reconcile === 'Timeout';
}

/**
 * An object the run meant to apply or delete and did not, for a reason the user did not choose: the
 * inventory policy (another inventory owns it, or none does under strict), or a dependency that failed or
 * was itself blocked. Such objects fail the run (exit 3) unless allow-skipped.
 */
export function isBlockedOutcome(o: ObjectOutcome): boolean {
  return o.action === 'skipped' && isBlockingSkip(o.skip);
}

/**
 * Whether the run did not do what was asked for this object: its apply or delete failed, its reconcile
 * failed or timed out, or (unless `allowSkipped`) it was blocked (`isBlockedOutcome`). The one answer to
 * "did it fail" that the engine, the exit code, the deploy record and every report use.
 */
export function failed(o: ObjectOutcome, opts: { allowSkipped?: boolean } = {}): boolean {
  return isFailedOutcome(o) || (!opts.allowSkipped && isBlockedOutcome(o));
}

/** Whether a finished run failed: some object `failed`. */
export function runFailed(objects: readonly ObjectOutcome[], allowSkipped: boolean): boolean {
  return objects.some((o) => failed(o, { allowSkipped }));
}

/** The result of a run that got to the end (or was cancelled part-way and saved its inventory). */
export function finishedResult(
  objects: ObjectOutcome[],
  startedAt: number,
  cancelled: boolean,
  failed: boolean,
): RunResult {
  const durationMs = Date.now() - startedAt;
  if (cancelled)
    return {
      outcome: 'error',
      error: 'cancelled: stopped starting new work and saved the inventory',
      objects,
      durationMs,
    };
  return { outcome: failed ? 'failed' : 'success', objects, durationMs };
}

/** The result of a run stopped by a fatal error (reported once as an error event). */
export function fatalResult(
  emit: (e: { type: 'error'; error: string }) => void,
  err: unknown,
  objects: ObjectOutcome[],
  startedAt: number,
): RunResult {
  const message = (err as Error).message;
  emit({ type: 'error', error: message });
  return { outcome: 'error', error: message, objects, durationMs: Date.now() - startedAt };
}
