import type { RestClient } from './rest.js';
import {
  crashBackOffMessage,
  imageNotFoundMessage,
  invalidImageMessage,
  missingConfig,
  noScaleUpEvent,
  pullBackOffMessage,
  rateLimitedMessage,
  unschedulableStatus,
  waitingStatus,
} from './simulated-pod-status.js';

// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from the API server
type Obj = Record<string, any>;

/** The first back-off and the recovery time of a scripted Pod (conventions: kubelet-simulator.ts). */
export const BackOffAnnotation = 'sim.kpt-live-action.dev/backoff';
export const RecoverAfterAnnotation = 'sim.kpt-live-action.dev/recover-after';

/** One Pod's scripted statuses: stopped when the Pod goes away, the simulator stops, or it recovers. */
export interface PodScript {
  cancelled: boolean;
  timers: Set<NodeJS.Timeout>;
  /** Status patches, one at a time and in order. */
  chain: Promise<void>;
}

/**
 * Plays a failing behaviour's statuses over time, as the kubelet's back-offs would (scaled down by the
 * `backoff` annotation), until the Pod goes away; with `recover-after`, Running and Ready from then on.
 */
export async function runScript(
  api: RestClient,
  pod: Obj,
  behavior: string,
  script: PodScript,
  simulatorStopped: () => boolean,
): Promise<void> {
  const meta = pod.metadata;
  // the kubelet sets startTime once, when it takes the Pod on; every later status keeps it
  pod = { ...pod, status: { ...pod.status, startTime: new Date().toISOString() } };
  const over = () => script.cancelled || simulatorStopped();
  const sleep = (ms: number) =>
    new Promise<boolean>((resolve) => {
      if (over()) return resolve(false);
      const t = setTimeout(() => {
        script.timers.delete(t);
        resolve(!over());
      }, ms);
      script.timers.add(t);
    });
  let recovered = false;
  const patch = (status: Obj, fromRecovery = false) => {
    script.chain = script.chain.then(async () => {
      if (simulatorStopped() || (recovered && !fromRecovery)) return;
      await patchStatusWithRetry(api, pod, status, over);
    });
    return script.chain;
  };
  const recoverMs = parseDelay(meta.annotations?.[RecoverAfterAnnotation]);
  if (recoverMs > 0) {
    const t = setTimeout(() => {
      script.timers.delete(t);
      if (over()) return;
      recovered = true;
      script.cancelled = true; // the failing script stops; the recovery patch still goes out
      void patch(podStatus(pod, 'ready'), true);
    }, recoverMs);
    script.timers.add(t);
  }
  const first = parseDelay(meta.annotations?.[BackOffAnnotation]) || 1000;
  const cap = first * 30;
  const now = () => new Date().toISOString();

  switch (behavior) {
    case 'crashloop': {
      const started = now();
      await patch(podStatus(pod, 'never-ready'));
      // the kubelet restarts a crashed container at once the first time, then backs off
      if (!(await sleep(100))) return;
      let restarts = 1;
      for (let backOff = first; ; backOff = Math.min(backOff * 2, cap)) {
        const lastExit = { exitCode: 1, reason: 'Error', startedAt: started, finishedAt: now() };
        await patch(
          waitingStatus(
            pod,
            now(),
            'Running',
            (c) => ({ reason: 'CrashLoopBackOff', message: crashBackOffMessage(pod, c.name, backOff) }),
            restarts,
            lastExit,
          ),
        );
        if (!(await sleep(backOff))) return;
        restarts++;
      }
    }
    case 'image-not-found':
    case 'image-pull-error': {
      const error = behavior === 'image-not-found' ? imageNotFoundMessage : rateLimitedMessage;
      for (let backOff = first; ; backOff = Math.min(backOff * 2, cap)) {
        await patch(
          waitingStatus(pod, now(), 'Pending', (c) => ({ reason: 'ErrImagePull', message: error(c.image) })),
        );
        if (!(await sleep(100))) return;
        await patch(
          waitingStatus(pod, now(), 'Pending', (c) => ({
            reason: 'ImagePullBackOff',
            message: pullBackOffMessage(c.image, error(c.image)),
          })),
        );
        if (!(await sleep(backOff))) return;
      }
    }
    case 'invalid-image':
      await patch(
        waitingStatus(pod, now(), 'Pending', (c) => ({
          reason: 'InvalidImageName',
          message: invalidImageMessage(c.image),
        })),
      );
      return;
    case 'config-error': {
      const lookup = async (kind: string, name: string) => {
        const res = await api.request<Obj>('GET', `/api/v1/namespaces/${meta.namespace}/${kind}/${name}`);
        return res.status === 200 ? res.body : undefined;
      };
      let reported = '';
      for (;;) {
        const missing = await missingConfig(pod, lookup).catch(() => reported || undefined);
        if (over()) return;
        if (!missing) {
          await patch(podStatus(pod, 'ready'));
          return;
        }
        if (missing !== reported) {
          reported = missing;
          await patch(
            waitingStatus(pod, now(), 'Pending', () => ({
              reason: 'CreateContainerConfigError',
              message: missing,
            })),
          );
        }
        if (!(await sleep(first))) return;
      }
    }
    case 'unschedulable':
    case 'no-scale-up':
      await patch(unschedulableStatus(now()));
      if (behavior === 'no-scale-up' && (await sleep(500))) {
        await api
          .request('POST', `/api/v1/namespaces/${meta.namespace}/events`, noScaleUpEvent(pod, now()))
          .catch(() => undefined);
      }
      return;
    default:
      // an unknown behaviour: what a kubelet does with a healthy Pod
      await patch(podStatus(pod, 'ready'));
  }
}

/** A lost PATCH would leave the pod Pending forever (and its Deployment never ready): try again. */
export async function setPodStatusWithRetry(
  api: RestClient,
  pod: Obj,
  behavior: string,
  isStopped: () => boolean,
): Promise<void> {
  await patchStatusWithRetry(api, pod, podStatus(pod, behavior), isStopped);
}

async function patchStatusWithRetry(
  api: RestClient,
  pod: Obj,
  status: Obj,
  isStopped: () => boolean,
): Promise<void> {
  const path = `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/status`;
  for (let attempt = 0; attempt < 20 && !isStopped(); attempt++) {
    const code = await api
      .request('PATCH', path, { status }, 'application/merge-patch+json')
      .then((r) => r.status)
      .catch(() => 0);
    if ((code >= 200 && code < 300) || code === 404) return;
    await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
  }
}

/** The status of a one-shot behaviour: Running (Ready or not), or finished (Succeeded or Failed). */
function podStatus(pod: Obj, behavior: string): Obj {
  const now = new Date().toISOString();
  const containers: Obj[] = pod.spec.containers ?? [];
  const cond = (type: string, status: boolean) => ({
    type,
    status: status ? 'True' : 'False',
    lastTransitionTime: now,
  });
  const running = behavior === 'ready' || behavior === 'never-ready';
  const ready = behavior === 'ready';
  const phase = running ? 'Running' : behavior === 'fail' ? 'Failed' : 'Succeeded';
  const containerStatuses = containers.map((c) => ({
    name: c.name,
    image: c.image,
    imageID: `sim://${c.image}`,
    ready,
    started: running,
    restartCount: 0,
    state: running
      ? { running: { startedAt: now } }
      : {
          terminated: {
            exitCode: behavior === 'fail' ? 1 : 0,
            reason: behavior === 'fail' ? 'Error' : 'Completed',
            startedAt: now,
            finishedAt: now,
          },
        },
  }));
  return {
    phase,
    hostIP: '127.0.0.1',
    podIP: '10.244.0.10',
    startTime: now,
    conditions: [
      cond('Initialized', true),
      cond('Ready', ready),
      cond('ContainersReady', ready),
      cond('PodScheduled', true),
    ],
    containerStatuses,
  };
}

/** `2s`, `500ms`, `1.5` (seconds); anything else is 0. */
export function parseDelay(text: string | undefined): number {
  if (!text) return 0;
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  if (!m) return 0;
  return Number(m[1]) * (m[2] === 'ms' ? 1 : 1000);
}
