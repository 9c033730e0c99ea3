import { getPath, isRecord, type KubeObject } from '../../common/kube-object.js';
import type { StatusResult } from '../types.js';
import { byController, currentRolloutPods } from './current-pods.js';
import { describeProblem, type PodProblem, podProblems } from './pod-problem.js';
import {
  DefaultFailFastThresholds,
  type FailFastThresholds,
  failFastOptedOut,
  workloadKind,
} from './thresholds.js';

/** What the cluster showed of a workload's namespace: its pods, ReplicaSets and autoscaler refusals. */
export interface RolloutSnapshot {
  pods: readonly KubeObject[];
  /** Needed for Deployments only (the current ReplicaSet). */
  replicaSets: readonly KubeObject[];
  /** `NotTriggerScaleUp` messages of the cluster-autoscaler, by pod uid. */
  scaleUpRefused: ReadonlyMap<string, string>;
  /** `pods` by their controller's uid, when the caller keeps one (else made here). */
  podsByController?: ReadonlyMap<string, readonly KubeObject[]>;
}

export interface RolloutVerdictOptions {
  now: number;
  thresholds?: Partial<FailFastThresholds>;
  /** wait-for-jobs: only then does a Job's wait reach its end, and its failure gets a cause. */
  waitForJobs?: boolean;
}

export interface RolloutVerdict {
  /** kstatus' result, Failed instead when the rollout's new pods cannot succeed, or with the cause added. */
  result: StatusResult;
  /** Judge again at this time (epoch ms) even if nothing changes: a grace ends then. */
  recheckAt?: number;
  /** A new pod is unschedulable: a cluster-autoscaler `NotTriggerScaleUp` event would settle it. */
  awaitsAutoscaler?: boolean;
}

/** First the fatal problems, then the others, each in pod-name order (one message names one pod). */
function worstFirst(problems: PodProblem[]): PodProblem[] {
  return [...problems].sort((a, b) => Number(b.fatal) - Number(a.fatal) || a.pod.localeCompare(b.pod));
}

/** A failed pod of a Job: the container that ended it (`container main exited 1 Error: ...`). */
function failedJobPod(pods: readonly KubeObject[]): string | undefined {
  const failed = pods
    .filter((p) => getPath(p, ['status', 'phase']) === 'Failed')
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  for (const pod of failed) {
    const statuses = getPath(pod, ['status', 'containerStatuses']);
    for (const cs of Array.isArray(statuses) ? statuses : []) {
      const t = getPath(cs, ['state', 'terminated']);
      if (!isRecord(cs) || !isRecord(t) || t.exitCode === 0) continue;
      const reason = typeof t.reason === 'string' && t.reason ? ` ${t.reason}` : '';
      const message = typeof t.message === 'string' && t.message ? `: ${t.message.trim()}` : '';
      return `${pod.metadata.name} container ${String(cs.name)} exited ${String(t.exitCode)}${reason}${message}`;
    }
    const reason = getPath(pod, ['status', 'reason']);
    if (typeof reason === 'string' && reason) {
      const message = getPath(pod, ['status', 'message']);
      return `${pod.metadata.name} ${reason}${typeof message === 'string' && message ? `: ${message}` : ''}`;
    }
  }
  return undefined;
}

/** A Failed Job (its controller gave up) with why: the `Failed` condition's reason and one failed pod. */
function jobFailure(job: KubeObject, kstatus: StatusResult, pods: readonly KubeObject[]): StatusResult {
  const conditions = getPath(job, ['status', 'conditions']);
  const cond = (Array.isArray(conditions) ? conditions : []).find(
    (c) => isRecord(c) && c.type === 'Failed' && c.status === 'True',
  ) as Record<string, unknown> | undefined;
  const parts: string[] = [];
  if (cond && (cond.reason || cond.message))
    parts.push([cond.reason, cond.message].filter((x) => typeof x === 'string' && x).join(': '));
  const pod = failedJobPod(pods.filter((p) => p.metadata.uid && !p.metadata.deletionTimestamp));
  if (pod) parts.push(`pod ${pod}`);
  return parts.length ? { ...kstatus, message: `${kstatus.message}: ${parts.join('; ')}` } : kstatus;
}

/**
 * Fail-fast, beyond kstatus: a workload whose current rollout's pods cannot succeed is Failed as soon as that
 * is known, naming one pod, its container and the kubelet's reason, instead of InProgress until the reconcile
 * timeout. Deployments, StatefulSets and DaemonSets that kstatus calls InProgress are judged by the problems
 * of their new pods (`podProblems`: crash loops past the restart threshold, a missing or invalid image, and
 * after a grace a failing pull, a missing Secret, an unschedulable pod). A Deployment kstatus already failed
 * for its progress deadline, and a Job with `waitForJobs` its controller failed, keep that verdict with the
 * cause added. Anything else, an object that opts out (`kpt-live-action.dev/fail-fast: "false"`), and a
 * rollout whose pods are not known yet keep kstatus' result. Pure: reads only its arguments.
 */
export function rolloutVerdict(
  workload: KubeObject,
  kstatus: StatusResult,
  snapshot: RolloutSnapshot,
  options: RolloutVerdictOptions,
): RolloutVerdict {
  const kind = workloadKind(workload);
  if (!kind || failFastOptedOut(workload)) return { result: kstatus };
  const pods = currentRolloutPods(
    workload,
    kind,
    snapshot.podsByController ?? byController(snapshot.pods),
    snapshot.replicaSets,
  );
  if (!pods) return { result: kstatus };
  if (kind === 'Job') {
    const failed = options.waitForJobs && kstatus.status === 'Failed' && kstatus.reason === 'JobFailed';
    return { result: failed ? jobFailure(workload, kstatus, pods) : kstatus };
  }
  const deadlinePassed = kstatus.status === 'Failed' && kstatus.reason === 'ProgressDeadlineExceeded';
  if (kstatus.status !== 'InProgress' && !deadlinePassed) return { result: kstatus };

  const thresholds = { ...DefaultFailFastThresholds, ...options.thresholds };
  const problems = worstFirst(
    pods.flatMap((pod) =>
      podProblems(pod, {
        now: options.now,
        thresholds,
        // a Deployment's own progress deadline decides for its unschedulable pods
        unschedulableGraceMs: kind === 'Deployment' ? undefined : thresholds.unschedulableGraceMs,
        scaleUpRefused: snapshot.scaleUpRefused,
      }),
    ),
  );
  const first = problems[0];
  if (deadlinePassed) {
    return first
      ? { result: { ...kstatus, message: `${kstatus.message}; new pods fail: ${describeProblem(first)}` } }
      : { result: kstatus };
  }
  if (first?.fatal) {
    return {
      result: { status: 'Failed', reason: first.reason, message: `new pods fail: ${describeProblem(first)}` },
    };
  }
  const times = problems.flatMap((p) => (p.fatalAt === undefined ? [] : [p.fatalAt]));
  return {
    result: kstatus,
    recheckAt: times.length ? Math.min(...times) : undefined,
    awaitsAutoscaler: problems.some((p) => p.awaitsAutoscaler) || undefined,
  };
}
