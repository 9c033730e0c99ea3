import type { KubeObject } from '../common/kube-object.js';
import { idKey } from '../common/object-id.js';
import type { ObjectRef } from '../kube/cluster-client.js';
import { computeStatus } from './compute-status.js';
import type { ObjectWatcher } from './object-watcher.js';
import { RolloutWatch } from './rollout/rollout-watch.js';
import { isStaleDeadline } from './stale-deadline.js';
import type { StatusOptions } from './status-options.js';
import type { KStatus, StatusResult, WaitStatus } from './types.js';
import { awaitingController } from './wait-for-controller.js';

/** One object a wave waits for. */
export interface WaitTarget {
  ref: ObjectRef;
  /** `metadata.generation` the apply returned: an older observation never counts. */
  appliedGeneration?: number;
  /** The UID we applied (Current) or deleted (NotFound). */
  uid?: string;
  /** wait-for-controller: whether its kind has a status subresource and this run changed it. */
  hasStatusSubresource?: boolean;
  touchedByRun?: boolean;
  /** When this run's apply changed it (server time): a Deployment's progress deadline passed before is stale. */
  appliedAt?: string;
}

export interface WaitOptions {
  condition: 'Current' | 'NotFound';
  /** 0 = no limit (kpt's default; ours is 5m). */
  timeoutMs: number;
  status?: StatusOptions;
  /** wait-for-controller grace period; 0 = off. */
  controllerGraceMs?: number;
  signal?: AbortSignal;
  /** Every status change of a target. */
  onStatus?: (ref: ObjectRef, result: StatusResult) => void;
  /** Each target's result as soon as it is known (already-met targets during the first pass). */
  onOutcome?: (outcome: WaitOutcome) => void;
  /** Targets not met at the start, in order (kpt prints `reconcile pending` only for those). */
  onPending?: (ref: ObjectRef) => void;
  /** Called at most every `progressEveryMs` with what is still pending and why. */
  onProgress?: (pending: { ref: ObjectRef; status: KStatus; message: string }[], elapsedMs: number) => void;
  progressEveryMs?: number;
  /** Something the user should know about the wait itself (fail-fast cannot read pods in a namespace). */
  onNotice?: (message: string) => void;
}

export interface WaitOutcome {
  ref: ObjectRef;
  status: Exclude<WaitStatus, 'Pending' | 'Skipped'>;
  /** The last status seen, for messages ("Ready: 0/2", "Progress deadline exceeded"). */
  last: StatusResult;
}

/** True when the watcher's copy predates the generation the apply returned (the cache lags the write). */
function olderThanApplied(target: WaitTarget, obj: KubeObject): boolean {
  const gen = obj.metadata.generation;
  return target.appliedGeneration !== undefined && typeof gen === 'number' && gen < target.appliedGeneration;
}

/** The status of one observation with respect to a target, before the condition is checked. */
export function observe(
  target: WaitTarget,
  obj: KubeObject | null | undefined,
  opts: WaitOptions,
  elapsedMs: number,
): StatusResult {
  if (obj === undefined) return { status: 'Unknown', message: 'resource not cached' };
  if (obj === null) return { status: 'NotFound', message: 'Resource not found' };
  if (opts.condition === 'Current') {
    if (target.uid && obj.metadata.uid && obj.metadata.uid !== target.uid) {
      return { status: 'Failed', message: `object was replaced (UID changed from ${target.uid})` };
    }
    if (olderThanApplied(target, obj)) {
      return {
        status: 'InProgress',
        message: `waiting for generation ${target.appliedGeneration} to be observed`,
      };
    }
    const held = awaitingController(obj, {
      hasStatusSubresource: !!target.hasStatusSubresource,
      touchedByRun: !!target.touchedByRun,
      elapsedMs,
      graceMs: opts.controllerGraceMs ?? 0,
    });
    if (held) return held;
    const result = computeStatus(obj, opts.status);
    if (result.status === 'Failed' && isStaleDeadline(obj, target.appliedAt))
      return {
        status: 'InProgress',
        message: 'progress deadline exceeded by an earlier rollout: waiting for this one',
      };
    return result;
  }
  if (target.uid && obj.metadata.uid && obj.metadata.uid !== target.uid) {
    return { status: 'NotFound', message: 'Resource not found (a new object has the name)' };
  }
  return computeStatus(obj, opts.status);
}

/**
 * Waits until every target meets the condition (Current, or NotFound for deletes). A target that turns
 * Failed stops blocking and is reported Failed; what is left when the timeout passes is reported Timeout.
 * With `status.failFast`, workloads whose new pods cannot succeed turn Failed too (RolloutWatch), from pod
 * feeds that live as long as this wait.
 */
export async function waitForObjects(
  watcher: ObjectWatcher,
  targets: WaitTarget[],
  opts: WaitOptions,
): Promise<WaitOutcome[]> {
  const start = Date.now();
  const outcomes = new Map<string, WaitOutcome>();
  const last = new Map<string, StatusResult>();
  const byKey = new Map(targets.map((t) => [idKey(t.ref), t]));
  if (targets.length === 0) return [];

  return new Promise<WaitOutcome[]>((resolve) => {
    const timers: NodeJS.Timeout[] = [];
    let done = false;
    let initial = true;
    const rollouts =
      opts.status?.failFast && opts.condition === 'Current'
        ? new RolloutWatch(
            watcher.client,
            {
              workloadsIn: (namespace) =>
                targets.flatMap((t) => {
                  const obj = t.ref.namespace === namespace ? watcher.get(t.ref) : undefined;
                  return obj ? [obj] : [];
                }),
              reevaluate: (keys) => {
                for (const key of keys) evaluate(key);
              },
              onNotice: opts.onNotice,
              run: watcher,
            },
            {
              waitForJobs: opts.status.waitForJobs,
              thresholds: opts.status.failFastThresholds,
            },
          )
        : undefined;
    const finish = () => {
      if (done) return;
      done = true;
      rollouts?.stop();
      unsubscribe();
      for (const t of timers) clearTimeout(t);
      clearInterval(progress);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve(targets.map((t) => outcomes.get(idKey(t.ref))!));
    };

    const evaluate = (key: string) => {
      const target = byKey.get(key);
      if (!target || outcomes.has(key) || done) return;
      const obj = watcher.get(target.ref);
      let result = observe(target, obj, opts, Date.now() - start);
      // never judge the pods of a cached object older than our write: they are the previous rollout's
      if (rollouts && obj && !olderThanApplied(target, obj)) result = rollouts.judge(key, obj, result);
      const prev = last.get(key);
      if (!prev || prev.status !== result.status || prev.message !== result.message) {
        last.set(key, result);
        opts.onStatus?.(target.ref, result);
      }
      const met = opts.condition === 'Current' ? result.status === 'Current' : result.status === 'NotFound';
      let outcome: WaitOutcome | undefined;
      if (met) outcome = { ref: target.ref, status: 'Successful', last: result };
      else if (result.status === 'Failed' && opts.condition === 'Current')
        outcome = { ref: target.ref, status: 'Failed', last: result };
      if (outcome) {
        outcomes.set(key, outcome);
        opts.onOutcome?.(outcome);
      } else if (initial) {
        opts.onPending?.(target.ref);
      }
      if (outcomes.size === targets.length) finish();
    };

    const timeOut = () => {
      for (const t of targets) {
        const key = idKey(t.ref);
        if (!outcomes.has(key)) {
          const outcome: WaitOutcome = {
            ref: t.ref,
            status: 'Timeout',
            last: last.get(key) ?? { status: 'Unknown', message: '' },
          };
          outcomes.set(key, outcome);
          opts.onOutcome?.(outcome);
        }
      }
      finish();
    };
    const onAbort = () => timeOut();

    const unsubscribe = watcher.subscribe(evaluate);
    if (opts.timeoutMs > 0) timers.push(setTimeout(timeOut, opts.timeoutMs));
    if (opts.controllerGraceMs)
      timers.push(
        setTimeout(() => {
          for (const k of byKey.keys()) evaluate(k);
        }, opts.controllerGraceMs + 5),
      );
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    // cancelled before the wait began: do not wait at all
    if (opts.signal?.aborted) onAbort();
    const progress = setInterval(() => {
      const pending = targets
        .filter((t) => !outcomes.has(idKey(t.ref)))
        .map((t) => {
          const r = last.get(idKey(t.ref)) ?? { status: 'Unknown' as KStatus, message: 'no status yet' };
          return { ref: t.ref, status: r.status, message: r.message };
        });
      if (pending.length) opts.onProgress?.(pending, Date.now() - start);
    }, opts.progressEveryMs ?? 10_000);
    progress.unref();
    for (const key of byKey.keys()) evaluate(key);
    initial = false;
  });
}
