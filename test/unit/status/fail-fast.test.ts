import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/common/kube-object.js';
import {
  computeStatus,
  type RolloutSnapshot,
  rolloutVerdict,
  type StatusResult,
} from '../../../src/status/index.js';

/**
 * Object states recorded from the test control plane (Kubernetes 1.37.2, its real Deployment, StatefulSet,
 * DaemonSet and Job controllers, and the kubelet simulator's pods) with `kubectl get -o json`, managedFields
 * dropped. Edits made for a case are spelled out in it.
 */
function recorded(file: string): KubeObject[] {
  return JSON.parse(fs.readFileSync(new URL(`./recorded/${file}`, import.meta.url), 'utf8')) as KubeObject[];
}

const byName = (objs: KubeObject[], kind: string, name: string) => {
  const found = objs.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the recording`);
  return found;
};

/** What the pod feeds would hold for the recording's namespace. */
function snapshotOf(objs: KubeObject[]): RolloutSnapshot {
  const scaleUpRefused = new Map<string, string>();
  for (const e of objs.filter((o) => o.kind === 'Event' && o.reason === 'NotTriggerScaleUp'))
    scaleUpRefused.set((e.involvedObject as { uid: string }).uid, e.message as string);
  return {
    pods: objs.filter((o) => o.kind === 'Pod'),
    replicaSets: objs.filter((o) => o.kind === 'ReplicaSet'),
    scaleUpRefused,
  };
}

/** The verdict on `name` as the waiter reaches it: kstatus first, then fail-fast. */
function judge(
  objs: KubeObject[],
  kind: string,
  name: string,
  now: number,
  more: { thresholds?: Parameters<typeof rolloutVerdict>[3]['thresholds']; waitForJobs?: boolean } = {},
) {
  const workload = byName(objs, kind, name);
  const kstatus = computeStatus(workload, { waitForJobs: more.waitForJobs });
  return { kstatus, ...rolloutVerdict(workload, kstatus, snapshotOf(objs), { now, ...more }) };
}

const t = (iso: string) => Date.parse(iso);
/** A fresh copy of a recording (read again), so a case can edit its objects. */
const fresh = (file: string) => recorded(file);

// biome-ignore lint/suspicious/noExplicitAny: a recorded pod's status, edited by the cases
type EditablePod = KubeObject & { status: Record<string, any> };

function podOf(objs: KubeObject[], prefix: string): EditablePod {
  const pod = objs.find((o) => o.kind === 'Pod' && o.metadata.name.startsWith(prefix));
  if (!pod) throw new Error(`no pod ${prefix}*`);
  return pod as EditablePod;
}

describe('fail-fast on a Deployment (recorded: web rolled from a ready image to one that crashes)', () => {
  const now = t('2026-11-26T14:13:26Z');

  it('kstatus alone keeps it InProgress: it would wait for the timeout', () => {
    const objs = fresh('deployment-new-pods-crash.json');
    expect(computeStatus(byName(objs, 'Deployment', 'web'))).toEqual({
      status: 'InProgress',
      reason: 'LessUpdated',
      message: 'Updated: 1/2',
    });
  });

  it('is Failed once a new pod crash-loops with 3 restarts, naming the pod, container, restarts, last exit and the kubelet message', () => {
    const v = judge(fresh('deployment-new-pods-crash.json'), 'Deployment', 'web', now);
    expect(v.result).toEqual({
      status: 'Failed',
      reason: 'CrashLoopBackOff',
      message:
        'new pods fail: web-d8fd8f455-rbt2d container web CrashLoopBackOff (3 restarts, last exit 1 Error): back-off 4s restarting failed container=web',
    });
  });

  it('waits while the crash loop is below the restart threshold (the kubelet may still get it running)', () => {
    const objs = fresh('deployment-new-pods-crash.json');
    podOf(objs, 'web-d8fd8f455').status.containerStatuses[0].restartCount = 2;
    const v = judge(objs, 'Deployment', 'web', now);
    expect(v.result).toEqual(v.kstatus);
    expect(v.recheckAt).toBeUndefined();
  });

  it('takes another restart threshold', () => {
    const v = judge(fresh('deployment-new-pods-crash.json'), 'Deployment', 'web', now, {
      thresholds: { crashLoopRestarts: 4 },
    });
    expect(v.result.status).toBe('InProgress');
  });

  it('leaves a Deployment that opts out with kpt-live-action.dev/fail-fast: "false" to kstatus', () => {
    const objs = fresh('deployment-new-pods-crash.json');
    byName(objs, 'Deployment', 'web').metadata.annotations!['kpt-live-action.dev/fail-fast'] = 'false';
    const v = judge(objs, 'Deployment', 'web', now);
    expect(v.result).toEqual(v.kstatus);
    expect(v.result.status).toBe('InProgress');
  });

  it('still judges with the annotation set to anything but "false"', () => {
    const objs = fresh('deployment-new-pods-crash.json');
    byName(objs, 'Deployment', 'web').metadata.annotations!['kpt-live-action.dev/fail-fast'] = 'true';
    expect(judge(objs, 'Deployment', 'web', now).result.status).toBe('Failed');
  });

  it('does not judge before the controller observed the latest generation (the revision may be the last one)', () => {
    const objs = fresh('deployment-new-pods-crash.json');
    byName(objs, 'Deployment', 'web').metadata.generation = 3;
    const v = judge(objs, 'Deployment', 'web', now);
    expect(v.result).toEqual(v.kstatus);
    expect(v.kstatus.status).toBe('InProgress');
  });

  it('does not judge before the new ReplicaSet has been seen', () => {
    const objs = fresh('deployment-new-pods-crash.json').filter(
      (o) => !(o.kind === 'ReplicaSet' && o.metadata.name === 'web-d8fd8f455'),
    );
    expect(judge(objs, 'Deployment', 'web', now).result.status).toBe('InProgress');
  });

  it('ignores a crash-looping pod that is being deleted', () => {
    const objs = fresh('deployment-new-pods-crash.json');
    podOf(objs, 'web-d8fd8f455').metadata.deletionTimestamp = '2026-11-26T14:13:26Z';
    expect(judge(objs, 'Deployment', 'web', now).result.status).toBe('InProgress');
  });
});

describe('fail-fast ignores the old ReplicaSet (recorded: web rolled from a crashing image to a good one)', () => {
  const now = t('2026-11-26T14:13:40Z');

  it('the old pods crash-loop past the threshold; the new pod has no status yet: still InProgress', () => {
    const objs = fresh('deployment-old-pods-crash.json');
    expect(podOf(objs, 'web-6f5fbf58f8').status.containerStatuses[0]).toMatchObject({
      restartCount: 4,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
    });
    const v = judge(objs, 'Deployment', 'web', now);
    expect(v.kstatus.status).toBe('InProgress');
    expect(v.result).toEqual(v.kstatus);
  });

  it('(the same pods would fail it, were the old ReplicaSet the current one)', () => {
    const objs = fresh('deployment-old-pods-crash.json');
    byName(objs, 'Deployment', 'web').metadata.annotations!['deployment.kubernetes.io/revision'] = '1';
    expect(judge(objs, 'Deployment', 'web', now).result.message).toMatch(
      /^new pods fail: web-6f5fbf58f8-46p75 container web CrashLoopBackOff \(4 restarts/,
    );
  });
});

describe('fail-fast rules per kubelet reason (recorded: one Deployment per simulated behaviour)', () => {
  const started = t('2026-11-26T14:13:45Z'); // the pods' status.startTime
  const states = () => fresh('deployment-pod-states.json');

  it('InvalidImageName fails at once', () => {
    expect(judge(states(), 'Deployment', 'invalid', started).result).toEqual({
      status: 'Failed',
      reason: 'InvalidImageName',
      message:
        'new pods fail: invalid-6cd5cff6f-4v2gm container web InvalidImageName: Failed to apply default image tag "Example/Web:1": couldn\'t parse image reference "Example/Web:1": invalid reference format: repository name must be lowercase',
    });
  });

  it('an image the registry does not have fails at once (ImagePullBackOff carrying containerd\'s "not found")', () => {
    const v = judge(states(), 'Deployment', 'missing', started);
    expect(v.result.status).toBe('Failed');
    expect(v.result.message).toBe(
      'new pods fail: missing-7779d679b4-ktkpq container web ImagePullBackOff: Back-off pulling image "example/web:404": ErrImagePull: rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/example/web:404": failed to resolve reference "docker.io/example/web:404": docker.io/example/web:404: not found',
    );
  });

  it.each([
    [
      'ErrImagePull, containerd',
      'ErrImagePull',
      'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/redis:alpin": failed to resolve reference "docker.io/library/redis:alpin": docker.io/library/redis:alpin: not found',
    ],
    [
      'ErrImagePull, CRI-O',
      'ErrImagePull',
      'initializing source docker://redis:alpin: reading manifest alpin in docker.io/library/redis: manifest unknown',
    ],
    [
      'ErrImagePull, Docker',
      'ErrImagePull',
      'Error response from daemon: manifest for redis:alpin not found: manifest unknown: manifest unknown',
    ],
    [
      'ErrImagePull, no such repository',
      'ErrImagePull',
      'rpc error: code = Unknown desc = failed to pull and unpack image "registry.example.com/team/nope:1": failed to resolve reference "registry.example.com/team/nope:1": registry.example.com/team/nope:1: not found',
    ],
  ])('a missing image fails at once: %s', (_name, reason, message) => {
    const objs = states();
    podOf(objs, 'missing').status.containerStatuses[0].state.waiting = { reason, message };
    expect(judge(objs, 'Deployment', 'missing', started).result.status).toBe('Failed');
  });

  it("an older kubelet's ImagePullBackOff (no cause in the message) gets the pull grace", () => {
    const objs = states();
    podOf(objs, 'missing').status.containerStatuses[0].state.waiting = {
      reason: 'ImagePullBackOff',
      message: 'Back-off pulling image "example/web:404"',
    };
    const v = judge(objs, 'Deployment', 'missing', started + 60_000);
    expect(v.result.status).toBe('InProgress');
    expect(v.recheckAt).toBe(started + 120_000);
  });

  it('a registry 429 is waited out for 2 minutes from the pod start, then fails saying for how long', () => {
    const within = judge(states(), 'Deployment', 'limited', started + 119_000);
    expect(within.result).toEqual(within.kstatus);
    expect(within.recheckAt).toBe(started + 120_000);
    const after = judge(states(), 'Deployment', 'limited', started + 125_000);
    expect(after.result.status).toBe('Failed');
    expect(after.result.message).toMatch(
      /^new pods fail: limited-c4b9b48bc-bmxsq container web ImagePullBackOff \(for 2m05s\): Back-off pulling image "example\/web:1": ErrImagePull: rpc error: code = Unknown desc = .*429 Too Many Requests/,
    );
  });

  it('a rollout that recovers within its grace is not failed (the pull succeeds at 90 s)', () => {
    const objs = states();
    expect(judge(objs, 'Deployment', 'limited', started + 30_000).result.status).toBe('InProgress');
    const pod = podOf(objs, 'limited');
    pod.status.phase = 'Running';
    pod.status.containerStatuses[0].state = { running: { startedAt: '2026-11-26T14:15:15Z' } };
    const v = judge(objs, 'Deployment', 'limited', started + 150_000);
    expect(v.result).toEqual(v.kstatus);
    expect(v.recheckAt).toBeUndefined();
  });

  it('CreateContainerConfigError (a missing Secret) is waited out for 2 minutes, then fails with the kubelet message', () => {
    const from = t('2026-11-26T14:13:46Z');
    expect(judge(states(), 'Deployment', 'secretless', from + 60_000).result.status).toBe('InProgress');
    expect(judge(states(), 'Deployment', 'secretless', from + 120_000).result).toEqual({
      status: 'Failed',
      reason: 'CreateContainerConfigError',
      message:
        'new pods fail: secretless-6db45d8958-cgsqw container web CreateContainerConfigError (for 2m00s): secret "db" not found',
    });
  });

  it('takes other graces', () => {
    const v = judge(states(), 'Deployment', 'secretless', t('2026-11-26T14:13:56Z'), {
      thresholds: { configErrorGraceMs: 10_000 },
    });
    expect(v.result.status).toBe('Failed');
  });

  it("an unschedulable pod of a Deployment waits for the Deployment's progress deadline however long it takes", () => {
    const v = judge(states(), 'Deployment', 'unschedulable', started + 3_600_000);
    expect(v.result).toEqual(v.kstatus);
    expect(v.recheckAt).toBeUndefined();
    expect(v.awaitsAutoscaler).toBe(true);
  });

  it('a cluster-autoscaler NotTriggerScaleUp event for the pod fails it at once, with both messages', () => {
    expect(judge(states(), 'Deployment', 'noscaleup', started).result).toEqual({
      status: 'Failed',
      reason: 'Unschedulable',
      message:
        "new pods fail: noscaleup-858fd48d4c-rxs5l Unschedulable: 0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.; cluster-autoscaler: pod didn't trigger scale-up: 1 Insufficient cpu",
    });
  });

  it('a passed progress deadline stays Failed, with the cause added', () => {
    const objs = states();
    const d = byName(objs, 'Deployment', 'unschedulable') as KubeObject & {
      status: { conditions: object[] };
    };
    d.status.conditions = d.status.conditions.map((c) =>
      (c as { type: string }).type === 'Progressing'
        ? { ...c, status: 'False', reason: 'ProgressDeadlineExceeded' }
        : c,
    );
    expect(judge(objs, 'Deployment', 'unschedulable', started).result).toEqual({
      status: 'Failed',
      reason: 'ProgressDeadlineExceeded',
      message:
        'Progress deadline exceeded; new pods fail: unschedulable-77f9b99fc-fd7bm Unschedulable: 0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    });
  });
});

describe('fail-fast on StatefulSets, DaemonSets and Jobs (recorded: rolled to a crashing image; a Job over its backoff limit)', () => {
  const now = t('2026-11-26T14:14:22Z');

  it('a StatefulSet: its pod of status.updateRevision crash-loops (db-0, of the current revision, runs)', () => {
    expect(judge(fresh('workloads.json'), 'StatefulSet', 'db', now).result).toMatchObject({
      status: 'Failed',
      message: expect.stringMatching(/^new pods fail: db-1 container db CrashLoopBackOff \(\d+ restarts/),
    });
  });

  it('a StatefulSet pod of another revision does not count', () => {
    const objs = fresh('workloads.json');
    podOf(objs, 'db-1').metadata.labels!['controller-revision-hash'] = 'db-5b6855d666';
    expect(judge(objs, 'StatefulSet', 'db', now).result.status).toBe('InProgress');
  });

  it('an unschedulable StatefulSet pod fails 10 minutes after the scheduler first refused it', () => {
    const objs = fresh('workloads.json');
    const pod = podOf(objs, 'db-1');
    pod.status = {
      phase: 'Pending',
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message: '0/1 nodes are available: 1 Insufficient memory.',
          lastTransitionTime: '2026-11-26T14:14:00Z',
        },
      ],
    };
    const refused = t('2026-11-26T14:14:00Z');
    expect(judge(objs, 'StatefulSet', 'db', refused + 60_000).recheckAt).toBe(refused + 600_000);
    expect(judge(objs, 'StatefulSet', 'db', refused + 600_000).result.message).toBe(
      'new pods fail: db-1 Unschedulable (for 10m00s): 0/1 nodes are available: 1 Insufficient memory.',
    );
  });

  it('a DaemonSet: its pod of the current template generation crash-loops', () => {
    expect(judge(fresh('workloads.json'), 'DaemonSet', 'agent', now).result.message).toMatch(
      /^new pods fail: agent-b6rsr container agent CrashLoopBackOff/,
    );
  });

  it('a DaemonSet pod of an older template generation does not count', () => {
    const objs = fresh('workloads.json');
    podOf(objs, 'agent-').metadata.labels!['pod-template-generation'] = '1';
    expect(judge(objs, 'DaemonSet', 'agent', now).result.status).toBe('InProgress');
  });

  it('a Job its controller failed names the reason and a failed pod (wait-for-jobs)', () => {
    expect(judge(fresh('workloads.json'), 'Job', 'migrate', now, { waitForJobs: true }).result).toEqual({
      status: 'Failed',
      reason: 'JobFailed',
      message:
        'Job Failed. failed: 2/1: BackoffLimitExceeded: Job has reached the specified backoff limit; pod migrate-llb5w container migrate exited 1 Error',
    });
  });

  it("a Job without wait-for-jobs keeps kstatus' answer", () => {
    const v = judge(fresh('workloads.json'), 'Job', 'migrate', now);
    expect(v.result).toEqual<StatusResult>({
      status: 'Failed',
      reason: 'JobFailed',
      message: 'Job Failed. failed: 2/1',
    });
  });

  it('a Job with a crash-looping pod is not failed by fail-fast: only its controller fails a Job', () => {
    const objs = fresh('workloads.json');
    const job = byName(objs, 'Job', 'migrate') as KubeObject & { status: Record<string, unknown> };
    job.status = { active: 1, startTime: '2026-11-26T14:14:11Z' };
    const pod = podOf(objs, 'migrate-llb5w');
    pod.status.phase = 'Running';
    pod.status.containerStatuses[0].restartCount = 9;
    pod.status.containerStatuses[0].state = { waiting: { reason: 'CrashLoopBackOff', message: 'back-off' } };
    expect(judge(objs, 'Job', 'migrate', now, { waitForJobs: true }).result.status).toBe('InProgress');
  });

  it("other kinds keep kstatus' answer (a ReplicaSet, a Pod)", () => {
    const objs = fresh('deployment-new-pods-crash.json');
    for (const o of [byName(objs, 'ReplicaSet', 'web-d8fd8f455'), podOf(objs, 'web-d8fd8f455')]) {
      const kstatus = computeStatus(o);
      expect(rolloutVerdict(o, kstatus, snapshotOf(objs), { now }).result).toEqual(kstatus);
    }
  });
});
