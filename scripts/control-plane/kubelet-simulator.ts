import { type PodScript, parseDelay, runScript, setPodStatusWithRetry } from './pod-script.js';
import type { RestClient } from './rest.js';

/**
 * Stands in for a kubelet on the test control plane (there is none): one Ready Node, Pods driven through
 * their `status` subresource, terminating Pods removed, and PersistentVolumeClaims bound to static
 * PersistentVolumes that the real binder in kube-controller-manager binds. It also plays kube-scheduler's
 * and cluster-autoscaler's part for Pods that cannot be scheduled.
 *
 * Conventions, as annotations on a Pod (or a Pod template):
 *   sim.kpt-live-action.dev/behavior: ready        (default) Running and Ready
 *                                     never-ready   Running, never Ready
 *                                     crashloop     Running; the containers crash and wait in CrashLoopBackOff
 *                                                   with the kubelet's message, restartCount growing with a
 *                                                   doubling back-off (1, 2, 3 at 0, 1, 3 back-offs), the last
 *                                                   exit (1, Error) in lastState
 *                                     image-not-found  Pending; ErrImagePull and ImagePullBackOff in turns with
 *                                                   containerd's message for a tag the registry does not have
 *                                     image-pull-error Pending; the same with a registry's 429 (transient)
 *                                     invalid-image Pending; InvalidImageName (the reference parser's message)
 *                                     config-error  Pending; CreateContainerConfigError while a Secret or
 *                                                   ConfigMap (or key) the containers' env needs is missing,
 *                                                   looked up again every back-off; then Running and Ready
 *                                     unschedulable Pending; PodScheduled=False, reason Unschedulable, with
 *                                                   kube-scheduler's message
 *                                     no-scale-up   unschedulable, plus cluster-autoscaler's NotTriggerScaleUp
 *                                                   event for the Pod
 *                                     succeed       phase Succeeded (default for Pods owned by a Job)
 *                                     fail          phase Failed
 *   sim.kpt-live-action.dev/delay: "2s"            wait this long before reporting
 *   sim.kpt-live-action.dev/backoff: "1s"          the first back-off (a real kubelet's is 10 s, doubling to
 *                                                   5 min): default 1s, doubling to 30 times it
 *   sim.kpt-live-action.dev/recover-after: "5s"    a failing behaviour turns Running and Ready this long after
 *                                                   its first report (an image pushed, a node added)
 */
export const BehaviorAnnotation = 'sim.kpt-live-action.dev/behavior';
export const DelayAnnotation = 'sim.kpt-live-action.dev/delay';
export { BackOffAnnotation, RecoverAfterAnnotation } from './pod-script.js';
export const NodeName = 'sim-node';

// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from the API server
type Obj = Record<string, any>;

export interface KubeletSimulator {
  stop(): void;
}

/** Behaviours reported once; the others run a script of status changes (see PodScript). */
const OneShot = new Set(['ready', 'never-ready', 'succeed', 'fail']);

export async function startKubeletSimulator(api: RestClient): Promise<KubeletSimulator> {
  await ensureNode(api);
  const handled = new Map<string, string>(); // pod uid → behaviour applied
  const scripts = new Map<string, PodScript>(); // pod uid → its running script
  const boundClaims = new Set<string>();
  const watches: { stop(): void }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const cancel = (uid: string) => {
    const script = scripts.get(uid);
    if (!script) return;
    script.cancelled = true;
    for (const t of script.timers) clearTimeout(t);
    scripts.delete(uid);
  };

  const onPod = (type: string, pod: Obj) => {
    if (stopped) return;
    const meta = pod.metadata;
    if (type === 'DELETED') {
      cancel(meta.uid);
      return;
    }
    if (meta.deletionTimestamp) {
      cancel(meta.uid);
      // no kubelet confirms the shutdown: finish the graceful delete ourselves
      void api.request('DELETE', `/api/v1/namespaces/${meta.namespace}/pods/${meta.name}`, {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        gracePeriodSeconds: 0,
        preconditions: { uid: meta.uid },
      });
      return;
    }
    if (handled.has(meta.uid)) return;
    const behavior = behaviorOf(pod);
    handled.set(meta.uid, behavior);
    const delay = parseDelay(meta.annotations?.[DelayAnnotation]);
    if (OneShot.has(behavior)) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!stopped) void setPodStatusWithRetry(api, pod, behavior, () => stopped);
      }, delay);
      timers.add(timer);
      return;
    }
    const script: PodScript = { cancelled: false, timers: new Set(), chain: Promise.resolve() };
    scripts.set(meta.uid, script);
    const timer = setTimeout(() => {
      script.timers.delete(timer);
      void runScript(api, pod, behavior, script, () => stopped);
    }, delay);
    script.timers.add(timer);
  };

  const onClaim = (type: string, pvc: Obj) => {
    if (type === 'DELETED' || stopped) return;
    const meta = pvc.metadata;
    if (
      pvc.status?.phase === 'Bound' ||
      pvc.spec?.volumeName ||
      boundClaims.has(meta.uid) ||
      meta.deletionTimestamp
    )
      return;
    boundClaims.add(meta.uid);
    void createVolumeFor(api, pvc);
  };

  watches.push(watchForever(api, '/api/v1/pods', onPod, () => stopped));
  watches.push(watchForever(api, '/api/v1/persistentvolumeclaims', onClaim, () => stopped));

  return {
    stop() {
      stopped = true;
      for (const w of watches) w.stop();
      for (const t of timers) clearTimeout(t);
      for (const uid of [...scripts.keys()]) cancel(uid);
    },
  };
}

/** list, then watch from the list's resourceVersion; re-list when the watch ends. */
function watchForever(
  api: RestClient,
  path: string,
  onEvent: (type: string, obj: Obj) => void,
  isStopped: () => boolean,
): { stop(): void } {
  let current: { stop(): void } | undefined;
  const run = async (): Promise<void> => {
    if (isStopped()) return;
    try {
      const list = await api.request<Obj>('GET', path);
      for (const item of list.body.items ?? []) onEvent('ADDED', item);
      const rv = list.body.metadata.resourceVersion;
      current = api.watch(
        `${path}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=false`,
        (type, obj) => onEvent(type, obj),
        () => {
          if (!isStopped()) setTimeout(() => void run(), 200);
        },
      );
    } catch {
      if (!isStopped()) setTimeout(() => void run(), 500);
    }
  };
  void run();
  return { stop: () => current?.stop() };
}

function behaviorOf(pod: Obj): string {
  const explicit = pod.metadata.annotations?.[BehaviorAnnotation];
  if (explicit) return explicit;
  const ownedByJob = (pod.metadata.ownerReferences ?? []).some((o: Obj) => o.kind === 'Job');
  return ownedByJob ? 'succeed' : 'ready';
}

async function ensureNode(api: RestClient): Promise<void> {
  const res = await api.request('POST', '/api/v1/nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: NodeName, labels: { 'kubernetes.io/hostname': NodeName } },
  });
  if (res.status !== 201 && res.status !== 409) throw new Error(`creating node: HTTP ${res.status}`);
  const now = new Date().toISOString();
  const capacity = { cpu: '64', memory: '256Gi', pods: '1000', 'ephemeral-storage': '1Ti' };
  await api.request(
    'PATCH',
    `/api/v1/nodes/${NodeName}/status`,
    {
      status: {
        capacity,
        allocatable: capacity,
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'KubeletReady',
            message: 'simulated',
            lastHeartbeatTime: now,
            lastTransitionTime: now,
          },
        ],
        addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
      },
    },
    'application/merge-patch+json',
  );
  // the API server taints a new Node not-ready; the node lifecycle controller (not run here) lifts the taint
  // once the Node is Ready, and DaemonSet pods do not tolerate it
  await api.request(
    'PATCH',
    `/api/v1/nodes/${NodeName}`,
    { spec: { taints: null } },
    'application/merge-patch+json',
  );
}

async function createVolumeFor(api: RestClient, pvc: Obj): Promise<void> {
  const meta = pvc.metadata;
  const size = pvc.spec?.resources?.requests?.storage ?? '1Gi';
  const pv = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: `sim-pv-${meta.uid}`, labels: { 'sim.kpt-live-action.dev/volume': 'true' } },
    spec: {
      capacity: { storage: size },
      accessModes: pvc.spec?.accessModes ?? ['ReadWriteOnce'],
      storageClassName: pvc.spec?.storageClassName ?? '',
      persistentVolumeReclaimPolicy: 'Retain',
      hostPath: { path: `/tmp/sim-pv/${meta.uid}` },
      claimRef: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        namespace: meta.namespace,
        name: meta.name,
        uid: meta.uid,
      },
    },
  };
  await api.request('POST', '/api/v1/persistentvolumes', pv).catch(() => undefined);
}
