/**
 * The Pod statuses a kubelet (with containerd) and kube-scheduler write, with their real messages, for the
 * kubelet simulator: waiting containers (CrashLoopBackOff, ErrImagePull, ImagePullBackOff, InvalidImageName,
 * CreateContainerConfigError) and a Pod the scheduler refuses. Messages follow kubelet 1.32+ (an
 * ImagePullBackOff carries the previous pull error); fail-fast must read older kubelets' shorter forms too.
 */

// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from the API server
type Obj = Record<string, any>;

/** Go's `time.Duration.String()` for whole milliseconds: `10s`, `1m20s`, `1.5s`, `500ms`. */
export function goDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const seconds = ms / 1000;
  const m = Math.floor(seconds / 60);
  const s = Number((seconds - m * 60).toFixed(3));
  return m ? `${m}m${s}s` : `${s}s`;
}

/**
 * The image reference containerd pulls: Docker's normalisation (`nginx` is `docker.io/library/nginx:latest`,
 * `example/app:1` is `docker.io/example/app:1`).
 */
export function normalizedImage(image: string): string {
  let ref = image;
  const first = ref.split('/')[0]!;
  const hasRegistry =
    ref.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasRegistry) ref = `docker.io/${ref.includes('/') ? '' : 'library/'}${ref}`;
  const last = ref.slice(ref.lastIndexOf('/') + 1);
  if (!last.includes(':') && !ref.includes('@')) ref += ':latest';
  return ref;
}

/** containerd through the kubelet, when the registry has no such tag (the kubelet's ErrImagePull message). */
export function imageNotFoundMessage(image: string): string {
  const ref = normalizedImage(image);
  return `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
}

/** containerd through the kubelet, when the registry answers 429 (Docker Hub's pull rate limit). */
export function rateLimitedMessage(image: string): string {
  const ref = normalizedImage(image);
  const host = ref.split('/')[0] === 'docker.io' ? 'registry-1.docker.io' : ref.split('/')[0];
  const repo = ref.slice(ref.indexOf('/') + 1).replace(/[:@].*$/, '');
  const tag = ref.slice(ref.lastIndexOf(':') + 1);
  return (
    `rpc error: code = Unknown desc = failed to pull and unpack image "${ref}": failed to copy: httpReadSeeker: ` +
    `failed open: unexpected status code https://${host}/v2/${repo}/manifests/${tag}: 429 Too Many Requests - ` +
    'Server message: toomanyrequests: You have reached your pull rate limit. You may increase the limit by ' +
    'authenticating and upgrading: https://www.docker.com/increase-rate-limit'
  );
}

/** The kubelet's ImagePullBackOff message (1.32+: with the last pull error after it). */
export function pullBackOffMessage(image: string, lastError: string): string {
  return `Back-off pulling image "${image}": ErrImagePull: ${lastError}`;
}

/** The kubelet's InvalidImageName message, from the reference parser. */
export function invalidImageMessage(image: string): string {
  const detail = /[A-Z]/.test(image.split(/[:@]/)[0]!)
    ? 'invalid reference format: repository name must be lowercase'
    : 'invalid reference format';
  return `Failed to apply default image tag "${image}": couldn't parse image reference "${image}": ${detail}`;
}

/** The kubelet's CrashLoopBackOff message. */
export function crashBackOffMessage(pod: Obj, container: string, backOffMs: number): string {
  const m = pod.metadata;
  return `back-off ${goDuration(backOffMs)} restarting failed container=${container} pod=${m.name}_${m.namespace}(${m.uid})`;
}

/** kube-scheduler's message for a Pod no node fits (one node, short of CPU). */
export const UnschedulableMessage =
  '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';

/** cluster-autoscaler's NotTriggerScaleUp event message for that Pod. */
export const NoScaleUpMessage = "pod didn't trigger scale-up: 1 Insufficient cpu";

const condition = (type: string, status: boolean, now: string, reason?: string, message?: string) => ({
  type,
  status: status ? 'True' : 'False',
  lastProbeTime: null,
  lastTransitionTime: now,
  ...(reason ? { reason } : {}),
  ...(message ? { message } : {}),
});

/** A Pod the kubelet took on whose containers are all waiting, each with the reason and message `waiting` gives. */
export function waitingStatus(
  pod: Obj,
  now: string,
  phase: 'Pending' | 'Running',
  waiting: (container: Obj) => { reason: string; message: string },
  restarts = 0,
  lastExit?: { exitCode: number; reason: string; startedAt: string; finishedAt: string },
): Obj {
  const containers: Obj[] = pod.spec.containers ?? [];
  const names = containers.map((c) => c.name).join(' ');
  return {
    phase,
    hostIP: '127.0.0.1',
    podIP: '10.244.0.10',
    startTime: pod.status?.startTime ?? now,
    conditions: [
      condition('Initialized', true, now),
      condition('Ready', false, now, 'ContainersNotReady', `containers with unready status: [${names}]`),
      condition(
        'ContainersReady',
        false,
        now,
        'ContainersNotReady',
        `containers with unready status: [${names}]`,
      ),
      condition('PodScheduled', true, now),
    ],
    containerStatuses: containers.map((c) => ({
      name: c.name,
      image: c.image,
      imageID: phase === 'Running' ? `sim://${c.image}` : '',
      ready: false,
      started: false,
      restartCount: restarts,
      state: { waiting: waiting(c) },
      lastState: lastExit ? { terminated: lastExit } : {},
    })),
  };
}

/** A Pod kube-scheduler refused: Pending, `PodScheduled=False` reason `Unschedulable`, no containers started. */
export function unschedulableStatus(now: string): Obj {
  return {
    phase: 'Pending',
    conditions: [condition('PodScheduled', false, now, 'Unschedulable', UnschedulableMessage)],
  };
}

/** cluster-autoscaler's `NotTriggerScaleUp` event for a Pod. */
export function noScaleUpEvent(pod: Obj, now: string): Obj {
  const m = pod.metadata;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { generateName: `${m.name}.`, namespace: m.namespace },
    involvedObject: {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: m.namespace,
      name: m.name,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
    },
    reason: 'NotTriggerScaleUp',
    message: NoScaleUpMessage,
    type: 'Normal',
    source: { component: 'cluster-autoscaler' },
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
  };
}

/**
 * The first Secret or ConfigMap the containers' environment needs that is missing (or lacks the key), as
 * the kubelet's CreateContainerConfigError message; `lookup` answers 404 (undefined) or the object's data.
 */
export async function missingConfig(
  pod: Obj,
  lookup: (kind: 'secrets' | 'configmaps', name: string) => Promise<Obj | undefined>,
): Promise<string | undefined> {
  const ns = pod.metadata.namespace;
  for (const c of (pod.spec.containers ?? []) as Obj[]) {
    for (const e of (c.env ?? []) as Obj[]) {
      for (const [field, kind, label] of [
        ['secretKeyRef', 'secrets', 'Secret'],
        ['configMapKeyRef', 'configmaps', 'ConfigMap'],
      ] as const) {
        const ref = e.valueFrom?.[field];
        if (!ref || ref.optional) continue;
        const obj = await lookup(kind, ref.name);
        if (!obj) return `${kind === 'secrets' ? 'secret' : 'configmap'} "${ref.name}" not found`;
        if (!(ref.key in (obj.data ?? {})))
          return `couldn't find key ${ref.key} in ${label} ${ns}/${ref.name}`;
      }
    }
    for (const e of (c.envFrom ?? []) as Obj[]) {
      for (const [field, kind] of [
        ['secretRef', 'secrets'],
        ['configMapRef', 'configmaps'],
      ] as const) {
        const ref = e[field];
        if (!ref || ref.optional) continue;
        if (!(await lookup(kind, ref.name)))
          return `${kind === 'secrets' ? 'secret' : 'configmap'} "${ref.name}" not found`;
      }
    }
  }
  return undefined;
}
