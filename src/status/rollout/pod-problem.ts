import { formatDuration } from '../../common/duration.js';
import { getPath, isRecord, type KubeObject } from '../../common/kube-object.js';
import type { FailFastThresholds } from './thresholds.js';

/** Why one pod of a rollout is not running as it should, and whether that is final. */
export interface PodProblem {
  pod: string;
  /** `container web` or `init container migrate`; absent for the pod as a whole (unschedulable). */
  container?: string;
  /** The kubelet's or scheduler's reason: `CrashLoopBackOff`, `ErrImagePull`, `Unschedulable`, ... */
  reason: string;
  /** Shown in parentheses after the reason: `3 restarts, last exit 1 Error`, `for 2m05s`. */
  detail?: string;
  /** The kubelet's or scheduler's message. */
  message: string;
  /** The pod cannot succeed without a change to the package or the cluster. */
  fatal: boolean;
  /** Not fatal yet: when it turns fatal if nothing changes (a grace ends). Epoch ms. */
  fatalAt?: number;
  /** Unschedulable and not settled: a cluster-autoscaler `NotTriggerScaleUp` event would settle it. */
  awaitsAutoscaler?: boolean;
}

export interface PodProblemContext {
  now: number;
  thresholds: FailFastThresholds;
  /** Grace for an unschedulable pod; undefined: only an autoscaler event settles it (a Deployment's deadline does the rest). */
  unschedulableGraceMs?: number;
  /** `NotTriggerScaleUp` messages of the cluster-autoscaler, by pod uid. */
  scaleUpRefused: ReadonlyMap<string, string>;
}

/**
 * What the registry answers when the image or tag does not exist, as the kubelet passes it on: containerd
 * `rpc error: code = NotFound desc = ... docker.io/library/app:1: not found`, CRI-O and Docker `manifest
 * unknown`, a distribution registry's `name unknown` (no such repository). A 429, a timeout or "pull access
 * denied ... may require authorization" (containerd before 1.7 says that for a missing Docker Hub repository,
 * but also for a missing pull secret) say nothing of the kind and get the grace.
 */
const IMAGE_NOT_FOUND = /\bnot found\b|manifest unknown|name unknown|code = NotFound/i;

/** Longest kubelet message kept; the rest is cut (a pull error can carry a whole HTTP response). */
const MAX_MESSAGE = 400;

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > MAX_MESSAGE ? `${one.slice(0, MAX_MESSAGE - 1)}…` : one;
}

function time(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** When the kubelet took the pod on (`status.startTime`), else its creation. */
function podStart(pod: KubeObject): number | undefined {
  return time(getPath(pod, ['status', 'startTime'])) ?? time(pod.metadata.creationTimestamp);
}

/** `3 restarts, last exit 1 Error` from a container status. */
function restartDetail(cs: Record<string, unknown>): string {
  const restarts = typeof cs.restartCount === 'number' ? cs.restartCount : 0;
  let text = `${restarts} restart${restarts === 1 ? '' : 's'}`;
  const last = getPath(cs, ['lastState', 'terminated']);
  if (isRecord(last) && typeof last.exitCode === 'number')
    text += `, last exit ${last.exitCode}${last.reason ? ` ${str(last.reason)}` : ''}`;
  return text;
}

/** The kubelet's back-off message names the pod again (`pod=name_ns(uid)`): we already say which. */
function withoutPodSuffix(message: string, pod: KubeObject): string {
  const suffix = ` pod=${pod.metadata.name}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
  return message.endsWith(suffix) ? message.slice(0, -suffix.length) : message;
}

function containerProblem(
  pod: KubeObject,
  cs: Record<string, unknown>,
  label: string,
  ctx: PodProblemContext,
): PodProblem | undefined {
  const waiting = getPath(cs, ['state', 'waiting']);
  if (!isRecord(waiting)) return undefined;
  const reason = str(waiting.reason);
  const message = str(waiting.message);
  const base = { pod: pod.metadata.name, container: `${label} ${str(cs.name)}`, reason };
  const graced = (graceMs: number): PodProblem => {
    const since = podStart(pod) ?? ctx.now;
    const fatalAt = since + graceMs;
    const fatal = ctx.now >= fatalAt;
    return fatal
      ? { ...base, detail: `for ${formatDuration(ctx.now - since)}`, message: clip(message), fatal }
      : { ...base, message: clip(message), fatal, fatalAt };
  };
  switch (reason) {
    case 'CrashLoopBackOff': {
      const restarts = typeof cs.restartCount === 'number' ? cs.restartCount : 0;
      return {
        ...base,
        detail: restartDetail(cs),
        message: clip(withoutPodSuffix(message, pod)),
        fatal: restarts >= ctx.thresholds.crashLoopRestarts,
      };
    }
    case 'InvalidImageName':
      return { ...base, message: clip(message), fatal: true };
    case 'ErrImagePull':
    case 'ImagePullBackOff':
      return IMAGE_NOT_FOUND.test(message)
        ? { ...base, message: clip(message), fatal: true }
        : graced(ctx.thresholds.imagePullGraceMs);
    case 'CreateContainerConfigError':
      return graced(ctx.thresholds.configErrorGraceMs);
    default:
      return undefined;
  }
}

function unschedulableProblem(pod: KubeObject, ctx: PodProblemContext): PodProblem | undefined {
  if (getPath(pod, ['status', 'phase']) !== 'Pending') return undefined;
  const conditions = getPath(pod, ['status', 'conditions']);
  if (!Array.isArray(conditions)) return undefined;
  const cond = conditions.find(
    (c) => isRecord(c) && c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  ) as Record<string, unknown> | undefined;
  if (!cond) return undefined;
  const base = { pod: pod.metadata.name, reason: 'Unschedulable', message: clip(str(cond.message)) };
  const refused = ctx.scaleUpRefused.get(pod.metadata.uid ?? '');
  if (refused !== undefined)
    return { ...base, message: clip(`${str(cond.message)}; cluster-autoscaler: ${refused}`), fatal: true };
  if (ctx.unschedulableGraceMs === undefined) return { ...base, fatal: false, awaitsAutoscaler: true };
  const since = time(cond.lastTransitionTime) ?? time(pod.metadata.creationTimestamp) ?? ctx.now;
  const fatalAt = since + ctx.unschedulableGraceMs;
  return ctx.now >= fatalAt
    ? { ...base, detail: `for ${formatDuration(ctx.now - since)}`, fatal: true }
    : { ...base, fatal: false, fatalAt, awaitsAutoscaler: true };
}

/**
 * The problems of one pod: each waiting container (init containers first, as the kubelet runs them) whose
 * reason is one fail-fast knows, and the pod itself when the scheduler refuses it. A pod that is being
 * deleted has none (it is on its way out). Reasons not listed here (`ContainerCreating`, `PodInitializing`,
 * a running container that is not Ready) are things to wait for.
 */
export function podProblems(pod: KubeObject, ctx: PodProblemContext): PodProblem[] {
  if (pod.metadata.deletionTimestamp) return [];
  const problems: PodProblem[] = [];
  const unschedulable = unschedulableProblem(pod, ctx);
  if (unschedulable) problems.push(unschedulable);
  for (const [field, label] of [
    ['initContainerStatuses', 'init container'],
    ['containerStatuses', 'container'],
  ] as const) {
    const statuses = getPath(pod, ['status', field]);
    if (!Array.isArray(statuses)) continue;
    for (const cs of statuses) {
      if (!isRecord(cs)) continue;
      const p = containerProblem(pod, cs, label, ctx);
      if (p) problems.push(p);
    }
  }
  return problems;
}

/** `web-7f9c-x2 container c CrashLoopBackOff (3 restarts, last exit 1 Error): back-off 40s ...`. */
export function describeProblem(p: PodProblem): string {
  const where = p.container ? `${p.pod} ${p.container}` : p.pod;
  const head = `${where} ${p.reason}${p.detail ? ` (${p.detail})` : ''}`;
  return p.message ? `${head}: ${p.message}` : head;
}
