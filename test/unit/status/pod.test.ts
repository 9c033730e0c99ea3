import { describe, expect, it } from 'vitest';
import { computeStatus, SCHEDULE_WINDOW_MS } from '../../../src/status/index.js';
import type { StatusResult } from '../../../src/status/types.js';
import { kube } from './y2u.js';

const NOW = Date.parse('2024-05-01T12:00:00Z');

const cases: { name: string; yaml: string; want: StatusResult }[] = [
  {
    name: 'succeeded',
    yaml: 'status: {phase: Succeeded}',
    want: { status: 'Current', message: 'Pod has completed successfully' },
  },
  {
    name: 'failed is still Current: it has finished and will not change',
    yaml: 'status: {phase: Failed}',
    want: { status: 'Current', message: 'Pod has completed, but not successfully' },
  },
  {
    name: 'running and Ready',
    yaml: `
      status:
        phase: Running
        conditions:
        - {type: Ready, status: "True"}`,
    want: { status: 'Current', message: 'Pod is Ready' },
  },
  {
    name: 'Ready wins over a crash-looping container',
    yaml: `
      status:
        phase: Running
        conditions:
        - {type: Ready, status: "True"}
        containerStatuses:
        - {name: app, state: {waiting: {reason: CrashLoopBackOff}}}`,
    want: { status: 'Current', message: 'Pod is Ready' },
  },
  {
    name: 'running with crash-looping containers, named in order',
    yaml: `
      status:
        phase: Running
        conditions:
        - {type: Ready, status: "False", reason: ContainersNotReady}
        containerStatuses:
        - {name: app, state: {waiting: {reason: CrashLoopBackOff}}}
        - {name: sidecar, state: {running: {startedAt: "2024-05-01T11:59:00Z"}}}
        - {name: init-db, state: {waiting: {reason: ContainerCreating}}}
        - {name: proxy, state: {waiting: {reason: CrashLoopBackOff}}}`,
    want: {
      status: 'Failed',
      message: 'Containers in CrashLoop state: app,proxy',
      reason: 'ContainerCrashLooping',
    },
  },
  {
    name: 'running but not Ready',
    yaml: `
      status:
        phase: Running
        conditions:
        - {type: Ready, status: "False"}
        containerStatuses:
        - {name: app, state: {running: {}}}`,
    want: { status: 'InProgress', message: 'Pod is running but is not Ready', reason: 'PodRunningNotReady' },
  },
  {
    name: 'unschedulable within the 15 s window',
    yaml: `
      metadata: {creationTimestamp: "2024-05-01T11:59:50Z"}
      status:
        phase: Pending
        conditions:
        - {type: PodScheduled, status: "False", reason: Unschedulable, message: '0/1 nodes are available'}`,
    want: { status: 'InProgress', message: 'Pod has not been scheduled', reason: 'PodNotScheduled' },
  },
  {
    name: 'unschedulable after the 15 s window',
    yaml: `
      metadata: {creationTimestamp: "2024-05-01T11:59:40Z"}
      status:
        phase: Pending
        conditions:
        - {type: PodScheduled, status: "False", reason: Unschedulable, message: '0/1 nodes are available'}`,
    want: { status: 'Failed', message: 'Pod could not be scheduled', reason: 'PodUnschedulable' },
  },
  {
    name: 'unschedulable exactly 15 s after creation is Failed',
    yaml: `
      metadata: {creationTimestamp: "2024-05-01T11:59:45Z"}
      status:
        phase: Pending
        conditions:
        - {type: PodScheduled, status: "False", reason: Unschedulable, message: '0/1 nodes are available'}`,
    want: { status: 'Failed', message: 'Pod could not be scheduled', reason: 'PodUnschedulable' },
  },
  {
    name: 'unschedulable without a creation time counts as long ago',
    yaml: `
      status:
        phase: Pending
        conditions:
        - {type: PodScheduled, status: "False", reason: Unschedulable, message: '0/1 nodes are available'}`,
    want: { status: 'Failed', message: 'Pod could not be scheduled', reason: 'PodUnschedulable' },
  },
  {
    name: 'pending for another scheduling reason',
    yaml: `
      status:
        phase: Pending
        conditions:
        - {type: PodScheduled, status: "False", reason: SchedulerError}`,
    want: { status: 'InProgress', message: 'Pod is in the Pending phase', reason: 'PodPending' },
  },
  {
    name: 'pending (scheduled, pulling images)',
    yaml: `
      status:
        phase: Pending
        conditions:
        - {type: PodScheduled, status: "True"}`,
    want: { status: 'InProgress', message: 'Pod is in the Pending phase', reason: 'PodPending' },
  },
  {
    name: 'no phase yet',
    yaml: 'spec: {containers: [{name: app, image: nginx}]}',
    want: { status: 'InProgress', message: 'Pod phase not available', reason: 'PodNotObserved' },
  },
  {
    name: 'an unknown phase is an error, reported as Unknown',
    yaml: 'status: {phase: Unknown}',
    want: { status: 'Unknown', message: 'unknown phase Unknown' },
  },
];

describe('Pod status (kstatus podConditions)', () => {
  it.each(cases)('$name', ({ yaml, want }) => {
    expect(computeStatus(kube('v1', 'Pod', yaml), { now: NOW })).toEqual(want);
  });

  it('turns an unschedulable Pod Failed once the window passes, with no change to the object', () => {
    const created = '2024-05-01T12:00:00Z';
    const pod = kube(
      'v1',
      'Pod',
      `
      metadata: {creationTimestamp: "${created}"}
      status:
        phase: Pending
        conditions:
        - {type: PodScheduled, status: "False", reason: Unschedulable}`,
    );
    const at = (ms: number) => computeStatus(pod, { now: Date.parse(created) + ms }).status;
    expect([at(0), at(SCHEDULE_WINDOW_MS - 1), at(SCHEDULE_WINDOW_MS)]).toEqual([
      'InProgress',
      'InProgress',
      'Failed',
    ]);
  });
});
