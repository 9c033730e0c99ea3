import { describe, expect, it } from 'vitest';
import {
  computeStatus,
  isPodController,
  isPodUnschedulable,
  withFailedPods,
} from '../../../src/status/index.js';
import type { StatusResult } from '../../../src/status/types.js';
import { kube } from './y2u.js';

const NOW = Date.parse('2024-05-01T12:00:00Z');

const readyPod = kube('v1', 'Pod', 'status: {phase: Running, conditions: [{type: Ready, status: "True"}]}');
const crashingPod = kube(
  'v1',
  'Pod',
  `
  status:
    phase: Running
    containerStatuses:
    - {name: app, state: {waiting: {reason: CrashLoopBackOff}}}`,
);
const unschedulablePod = kube(
  'v1',
  'Pod',
  `
  metadata: {creationTimestamp: "2024-05-01T11:00:00Z"}
  status:
    phase: Pending
    conditions:
    - {type: PodScheduled, status: "False", reason: Unschedulable}`,
);
const pods = (...objs: (typeof readyPod)[]) => objs.map((p) => computeStatus(p, { now: NOW }));

describe('withFailedPods (cli-utils podControllerStatusReader)', () => {
  const rolling = computeStatus(
    kube('apps/v1', 'StatefulSet', 'spec: {replicas: 3}\nstatus: {replicas: 3, readyReplicas: 1}'),
  );
  const done = computeStatus(
    kube(
      'apps/v1',
      'StatefulSet',
      'spec: {replicas: 1}\nstatus: {replicas: 1, readyReplicas: 1, currentReplicas: 1, currentRevision: a, updateRevision: a}',
    ),
  );
  const cases: { name: string; result: StatusResult; pods: StatusResult[]; want: StatusResult }[] = [
    {
      name: 'InProgress with failed pods ⇒ Failed, counting them',
      result: rolling,
      pods: pods(readyPod, crashingPod, unschedulablePod),
      want: { status: 'Failed', message: '2 pods have failed' },
    },
    {
      name: 'InProgress with no failed pods stays as it is',
      result: rolling,
      pods: pods(readyPod),
      want: { status: 'InProgress', message: 'Ready: 1/3', reason: 'LessReady' },
    },
    {
      name: 'Current is kept even with a failed pod',
      result: done,
      pods: pods(crashingPod),
      want: { status: 'Current', message: 'All replicas scheduled as expected. Replicas: 1' },
    },
    {
      name: 'no pods',
      result: rolling,
      pods: [],
      want: { status: 'InProgress', message: 'Ready: 1/3', reason: 'LessReady' },
    },
  ];
  it.each(cases)('$name', ({ result, pods: podResults, want }) => {
    expect(withFailedPods(result, podResults)).toEqual(want);
  });
});

describe('isPodController', () => {
  it.each([
    ['apps/v1', 'StatefulSet', true],
    ['apps/v1', 'ReplicaSet', true],
    ['apps/v1', 'Deployment', false],
    ['apps/v1', 'DaemonSet', false],
    ['extensions/v1beta1', 'ReplicaSet', false],
  ])('%s %s ⇒ %s', (apiVersion, kind, want) => {
    expect(isPodController(kube(apiVersion, kind))).toBe(want);
  });
});

describe('isPodUnschedulable', () => {
  it('is true for a Pod the scheduler rejected', () => {
    expect(isPodUnschedulable(unschedulablePod)).toBe(true);
  });
  it.each([
    ['a scheduled Pod', readyPod],
    [
      'a Pod pending for another reason',
      kube(
        'v1',
        'Pod',
        'status: {conditions: [{type: PodScheduled, status: "False", reason: SchedulerError}]}',
      ),
    ],
    [
      'a custom kind with the same condition',
      kube(
        'example.com/v1',
        'Pod',
        'status: {conditions: [{type: PodScheduled, status: "False", reason: Unschedulable}]}',
      ),
    ],
  ])('is false for %s', (_name, obj) => {
    expect(isPodUnschedulable(obj)).toBe(false);
  });
});
