import type { RestClient } from './rest.js';

/**
 * Stands in for a kubelet on the test control plane (there is none): one Ready Node, Pods driven through
 * their `status` subresource, terminating Pods removed, and PersistentVolumeClaims bound to static
 * PersistentVolumes that the real binder in kube-controller-manager binds.
 *
 * Conventions, as an annotation on a Pod (or a Pod template):
 *   sim.kpt-live-action.dev/behavior: ready        (default) Running and Ready
 *                                     never-ready   Running, never Ready
 *                                     crashloop     Running, a container waiting in CrashLoopBackOff
 *                                     succeed       phase Succeeded (default for Pods owned by a Job)
 *                                     fail          phase Failed
 *   sim.kpt-live-action.dev/delay: "2s"            wait this long before reporting
 */
export const BehaviorAnnotation = 'sim.kpt-live-action.dev/behavior';
export const DelayAnnotation = 'sim.kpt-live-action.dev/delay';
export const NodeName = 'sim-node';

// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from the API server
type Obj = Record<string, any>;

export interface KubeletSimulator {
  stop(): void;
}

export async function startKubeletSimulator(api: RestClient): Promise<KubeletSimulator> {
  await ensureNode(api);
  const handled = new Map<string, string>(); // pod uid → behaviour applied
  const boundClaims = new Set<string>();
  const watches: { stop(): void }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const onPod = (type: string, pod: Obj) => {
    if (type === 'DELETED' || stopped) return;
    const meta = pod.metadata;
    if (meta.deletionTimestamp) {
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
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopped) void setPodStatusWithRetry(api, pod, behavior, () => stopped);
    }, delay);
    timers.add(timer);
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

function parseDelay(text: string | undefined): number {
  if (!text) return 0;
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  if (!m) return 0;
  return Number(m[1]) * (m[2] === 'ms' ? 1 : 1000);
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
}

/** A lost PATCH would leave the pod Pending forever (and its Deployment never ready): try again. */
async function setPodStatusWithRetry(
  api: RestClient,
  pod: Obj,
  behavior: string,
  isStopped: () => boolean,
): Promise<void> {
  for (let attempt = 0; attempt < 20 && !isStopped(); attempt++) {
    const status = await setPodStatus(api, pod, behavior).catch(() => 0);
    if ((status >= 200 && status < 300) || status === 404) return;
    await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
  }
}

async function setPodStatus(api: RestClient, pod: Obj, behavior: string): Promise<number> {
  const now = new Date().toISOString();
  const containers: Obj[] = pod.spec.containers ?? [];
  const cond = (type: string, status: boolean) => ({
    type,
    status: status ? 'True' : 'False',
    lastTransitionTime: now,
  });
  const running = behavior === 'ready' || behavior === 'never-ready' || behavior === 'crashloop';
  const ready = behavior === 'ready';
  const phase = running ? 'Running' : behavior === 'fail' ? 'Failed' : 'Succeeded';
  const containerStatuses = containers.map((c) => ({
    name: c.name,
    image: c.image,
    imageID: `sim://${c.image}`,
    ready,
    started: running,
    restartCount: behavior === 'crashloop' ? 3 : 0,
    state:
      behavior === 'crashloop'
        ? { waiting: { reason: 'CrashLoopBackOff', message: 'simulated crash' } }
        : running
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
  const status = {
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
  const path = `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/status`;
  return (await api.request('PATCH', path, { status }, 'application/merge-patch+json')).status;
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
