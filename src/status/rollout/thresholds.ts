import { Annotations } from '../../common/constants.js';
import { type KubeObject, splitApiVersion } from '../../common/kube-object.js';

/**
 * When a problem of a rollout's new pods stops being something to wait out. Each default is the README's
 * (fail-fast section); a test or a bench may pass others.
 */
export interface FailFastThresholds {
  /**
   * A container waiting in `CrashLoopBackOff` with at least this many restarts. The kubelet restarts a
   * crashed container at once, then after 10 s, 20 s, 40 s ... (5 min at most), so the third restart of a
   * container that exits right away comes about 30 s after the first start, and a container that needs a
   * dependency that is a few seconds late has already recovered by then.
   */
  crashLoopRestarts: number;
  /**
   * `ErrImagePull` / `ImagePullBackOff` whose message does not say the registry has no such image (a 429, a
   * registry or network outage): this long after the pod started. The kubelet's pull back-off (10 s doubling
   * to 5 min) retries 4 times in that time.
   */
  imagePullGraceMs: number;
  /**
   * `CreateContainerConfigError` (a Secret or ConfigMap the container's environment names is missing, or a
   * key in it): this long after the pod started, time for an operator (External Secrets, Sealed Secrets) to
   * create it.
   */
  configErrorGraceMs: number;
  /**
   * Unschedulable pods of a StatefulSet or DaemonSet (kinds without a progress deadline): this long after the
   * scheduler first refused the pod, the Deployment default `progressDeadlineSeconds`. A Deployment's own
   * progress deadline decides for its pods; a cluster-autoscaler `NotTriggerScaleUp` event for the pod
   * decides at once for all kinds.
   */
  unschedulableGraceMs: number;
}

export const DefaultFailFastThresholds: Readonly<FailFastThresholds> = {
  crashLoopRestarts: 3,
  imagePullGraceMs: 120_000,
  configErrorGraceMs: 120_000,
  unschedulableGraceMs: 600_000,
};

/** The workload kinds whose pods fail-fast reads. */
export type WorkloadKind = 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'Job';

/** The workload kind of `obj` (apps/v1 Deployment, StatefulSet, DaemonSet; batch Job), else undefined. */
export function workloadKind(obj: KubeObject): WorkloadKind | undefined {
  const { group } = splitApiVersion(obj.apiVersion);
  if (
    group === 'apps' &&
    (obj.kind === 'Deployment' || obj.kind === 'StatefulSet' || obj.kind === 'DaemonSet')
  )
    return obj.kind;
  if (group === 'batch' && obj.kind === 'Job') return 'Job';
  return undefined;
}

/** True when the object opts out with `kpt-live-action.dev/fail-fast: "false"` (then kpt's wait applies). */
export function failFastOptedOut(obj: KubeObject): boolean {
  return obj.metadata.annotations?.[Annotations.FailFast]?.trim().toLowerCase() === 'false';
}
