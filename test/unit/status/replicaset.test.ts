import { describe, expect, it } from 'vitest';
import { computeStatus } from '../../../src/status/index.js';
import type { StatusResult } from '../../../src/status/types.js';
import { kube } from './y2u.js';

const cases: { name: string; yaml: string; want: StatusResult }[] = [
  {
    name: 'ReplicaFailure=True (e.g. quota) keeps it in progress, counts aside',
    yaml: `
      spec: {replicas: 1}
      status:
        replicas: 1
        fullyLabeledReplicas: 1
        availableReplicas: 1
        readyReplicas: 1
        conditions:
        - {type: ReplicaFailure, status: "True", reason: FailedCreate, message: 'pods "web-x" is forbidden: exceeded quota'}`,
    want: {
      status: 'InProgress',
      message: 'Replica Failure condition. Check Pods',
      reason: 'ReplicaFailure',
    },
  },
  {
    name: 'ReplicaFailure=False is ignored',
    yaml: `
      spec: {replicas: 1}
      status:
        replicas: 1
        fullyLabeledReplicas: 1
        availableReplicas: 1
        readyReplicas: 1
        conditions:
        - {type: ReplicaFailure, status: "False"}`,
    want: { status: 'Current', message: 'ReplicaSet is available. Replicas: 1' },
  },
  {
    name: 'fewer fully labelled replicas than spec (spec.replicas defaults to 1)',
    yaml: `
      spec: {}
      status: {replicas: 1}`,
    want: { status: 'InProgress', message: 'Labelled: 0/1', reason: 'LessLabelled' },
  },
  {
    name: 'fewer available replicas than spec',
    yaml: `
      spec: {replicas: 3}
      status: {replicas: 3, fullyLabeledReplicas: 3, availableReplicas: 1, readyReplicas: 3}`,
    want: { status: 'InProgress', message: 'Available: 1/3', reason: 'LessAvailable' },
  },
  {
    name: 'fewer ready replicas than spec',
    yaml: `
      spec: {replicas: 3}
      status: {replicas: 3, fullyLabeledReplicas: 3, availableReplicas: 3, readyReplicas: 2}`,
    want: { status: 'InProgress', message: 'Ready: 2/3', reason: 'LessReady' },
  },
  {
    name: 'scaled down, pods still terminating',
    yaml: `
      spec: {replicas: 1}
      status: {replicas: 2, fullyLabeledReplicas: 2, availableReplicas: 2, readyReplicas: 2}`,
    want: { status: 'InProgress', message: 'Pending termination: 1', reason: 'ExtraPods' },
  },
  {
    name: 'available',
    yaml: `
      spec: {replicas: 3}
      status: {replicas: 3, fullyLabeledReplicas: 3, availableReplicas: 3, readyReplicas: 3}`,
    want: { status: 'Current', message: 'ReplicaSet is available. Replicas: 3' },
  },
];

describe('ReplicaSet status (kstatus replicasetConditions)', () => {
  it.each(cases)('$name', ({ yaml, want }) => {
    expect(computeStatus(kube('apps/v1', 'ReplicaSet', yaml))).toEqual(want);
  });

  it('applies the same rule to extensions/v1beta1 ReplicaSets', () => {
    expect(computeStatus(kube('extensions/v1beta1', 'ReplicaSet', 'spec: {replicas: 2}'))).toEqual({
      status: 'InProgress',
      message: 'Labelled: 0/2',
      reason: 'LessLabelled',
    });
  });
});
