import { describe, expect, it } from 'vitest';
import { computeStatus } from '../../../src/status/index.js';
import type { StatusResult } from '../../../src/status/types.js';
import { kube } from './y2u.js';

const cases: { name: string; yaml: string; want: StatusResult }[] = [
  {
    name: 'OnDelete is user-managed: Current whatever the counts',
    yaml: `
      spec: {replicas: 3, updateStrategy: {type: OnDelete}}
      status: {replicas: 0}`,
    want: { status: 'Current', message: 'StatefulSet is using the ondelete update strategy' },
  },
  {
    name: 'fewer replicas than spec',
    yaml: `
      spec: {replicas: 3}
      status: {replicas: 1, readyReplicas: 1}`,
    want: { status: 'InProgress', message: 'Replicas: 1/3', reason: 'LessReplicas' },
  },
  {
    name: 'spec.replicas defaults to 1',
    yaml: `
      spec: {}
      status: {}`,
    want: { status: 'InProgress', message: 'Replicas: 0/1', reason: 'LessReplicas' },
  },
  {
    name: 'fewer ready replicas than spec',
    yaml: `
      spec: {replicas: 3}
      status: {replicas: 3, readyReplicas: 2}`,
    want: { status: 'InProgress', message: 'Ready: 2/3', reason: 'LessReady' },
  },
  {
    name: 'scaled down, pods still terminating',
    yaml: `
      spec: {replicas: 2}
      status: {replicas: 3, readyReplicas: 3}`,
    want: { status: 'InProgress', message: 'Pending termination: 1', reason: 'ExtraPods' },
  },
  {
    name: 'partitioned rollout: pods above the partition not yet updated',
    yaml: `
      spec: {replicas: 3, updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 2}}}
      status: {replicas: 3, readyReplicas: 3, updatedReplicas: 0, currentReplicas: 3}`,
    want: { status: 'InProgress', message: 'updated: 0/1', reason: 'PartitionRollout' },
  },
  {
    name: 'partitioned rollout complete (revision and current count are not checked)',
    yaml: `
      spec: {replicas: 3, updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 2}}}
      status: {replicas: 3, readyReplicas: 3, updatedReplicas: 1, currentReplicas: 2, currentRevision: a, updateRevision: b}`,
    want: { status: 'Current', message: 'Partition rollout complete. updated: 1' },
  },
  {
    name: 'partition 0 counts as a partition',
    yaml: `
      spec: {replicas: 3, updateStrategy: {rollingUpdate: {partition: 0}}}
      status: {replicas: 3, readyReplicas: 3, updatedReplicas: 2}`,
    want: { status: 'InProgress', message: 'updated: 2/3', reason: 'PartitionRollout' },
  },
  {
    name: 'fewer current replicas than spec',
    yaml: `
      spec: {replicas: 3}
      status: {replicas: 3, readyReplicas: 3, currentReplicas: 2}`,
    want: { status: 'InProgress', message: 'current: 2/3', reason: 'LessCurrent' },
  },
  {
    name: 'rolling update not finished: revisions differ',
    yaml: `
      spec: {replicas: 3}
      status: {replicas: 3, readyReplicas: 3, currentReplicas: 3, currentRevision: web-1, updateRevision: web-2}`,
    want: {
      status: 'InProgress',
      message: 'Waiting for updated revision to match current',
      reason: 'RevisionMismatch',
    },
  },
  {
    name: 'all replicas current on one revision',
    yaml: `
      spec: {replicas: 3}
      status: {replicas: 3, readyReplicas: 3, currentReplicas: 3, currentRevision: web-2, updateRevision: web-2}`,
    want: { status: 'Current', message: 'All replicas scheduled as expected. Replicas: 3' },
  },
];

describe('StatefulSet status (kstatus stsConditions)', () => {
  it.each(cases)('$name', ({ yaml, want }) => {
    expect(computeStatus(kube('apps/v1', 'StatefulSet', yaml))).toEqual(want);
  });
});
