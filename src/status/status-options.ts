import type { KubeObject } from '../common/kube-object.js';
import type { FailFastThresholds } from './rollout/thresholds.js';
import type { StatusResult } from './types.js';

/** Switches that change kstatus' answer; all off by default so kpt's semantics hold unless asked. */
export interface StatusOptions {
  /**
   * Wait for a Job to finish (kapp's rule): Current only on `Complete=True`. kpt calls a started Job
   * Current, which lets a run succeed while its migration Job is still running.
   */
  waitForJobs?: boolean;
  /**
   * "Now" in epoch milliseconds, for the Pod schedule window (an unschedulable Pod turns Failed 15 s after
   * its creation). Defaults to `Date.now()`; tests pass it so the result depends only on the input.
   */
  now?: number;
  /**
   * Fail-fast (on by default in a run, off here so kpt's semantics hold unless asked): while waiting, a
   * Deployment, StatefulSet or DaemonSet whose new pods cannot succeed is Failed with the pod's reason, and a
   * Job failed under `waitForJobs` names why. Needs the waiter's pod feeds: computeStatus alone ignores it.
   */
  failFast?: boolean;
  /** Fail-fast's thresholds, when not the documented defaults (tests, benches). */
  failFastThresholds?: Partial<FailFastThresholds>;
}

/** One kind's rule: the object's status from its own fields, after the generic rules found nothing. */
export type KindRule = (obj: KubeObject, options: StatusOptions) => StatusResult;
