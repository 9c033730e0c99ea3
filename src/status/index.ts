/** Reconcile status as kpt computes it (kstatus), plus the opt-in rules beyond it. Pure functions only. */
export { aggregateStatus, isDisabledWait } from './aggregate.js';
export { computeStatus, hasKindRule, kindKey } from './compute-status.js';
export { isConfigConnector } from './kinds/config-connector.js';
export { SCHEDULE_WINDOW_MS } from './kinds/pod.js';
export { isPodController, isPodUnschedulable, withFailedPods } from './pod-controller.js';
export { describeProblem, type PodProblem, podProblems } from './rollout/pod-problem.js';
export { type RolloutSnapshot, type RolloutVerdict, rolloutVerdict } from './rollout/rollout-verdict.js';
export { DefaultFailFastThresholds, type FailFastThresholds } from './rollout/thresholds.js';
export type { KindRule, StatusOptions } from './status-options.js';
export type { KStatus, StatusResult } from './types.js';
export {
  AWAITING_CONTROLLER_MESSAGE,
  type AwaitingControllerContext,
  awaitingController,
} from './wait-for-controller.js';
