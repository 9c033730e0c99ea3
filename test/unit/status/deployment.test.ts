import { describe, expect, it } from 'vitest';
import { computeStatus } from '../../../src/status/index.js';
import type { StatusResult } from '../../../src/status/types.js';
import { kube } from './y2u.js';

const cases: { name: string; yaml: string; want: StatusResult }[] = [
  {
    name: 'progress deadline exceeded is Failed even when the counts look fine',
    yaml: `
      spec: {replicas: 1, progressDeadlineSeconds: 10}
      status:
        observedGeneration: 1
        replicas: 1
        updatedReplicas: 1
        readyReplicas: 1
        availableReplicas: 1
        conditions:
        - {type: Progressing, status: "False", reason: ProgressDeadlineExceeded, message: 'ReplicaSet "web-1" has timed out progressing.'}`,
    want: { status: 'Failed', message: 'Progress deadline exceeded', reason: 'ProgressDeadlineExceeded' },
  },
  {
    name: 'fewer replicas than spec',
    yaml: `
      spec: {replicas: 3}
      status: {observedGeneration: 1, replicas: 1, updatedReplicas: 1}`,
    want: { status: 'InProgress', message: 'Replicas: 1/3', reason: 'LessReplicas' },
  },
  {
    name: 'spec.replicas defaults to 1 and an empty status counts 0',
    yaml: `
      spec: {}`,
    want: { status: 'InProgress', message: 'Replicas: 0/1', reason: 'LessReplicas' },
  },
  {
    name: 'a replica count that is not a number is ignored (default 1)',
    yaml: `
      spec: {replicas: "3"}
      status: {replicas: "3"}`,
    want: { status: 'InProgress', message: 'Replicas: 0/1', reason: 'LessReplicas' },
  },
  {
    name: 'fewer updated replicas than spec',
    yaml: `
      spec: {replicas: 3}
      status: {observedGeneration: 1, replicas: 3, updatedReplicas: 1}`,
    want: { status: 'InProgress', message: 'Updated: 1/3', reason: 'LessUpdated' },
  },
  {
    name: 'old pods still terminating',
    yaml: `
      spec: {replicas: 1}
      status: {observedGeneration: 1, replicas: 3, updatedReplicas: 1}`,
    want: { status: 'InProgress', message: 'Pending termination: 2', reason: 'ExtraPods' },
  },
  {
    name: 'updated replicas not yet available (counted against updated, not spec)',
    yaml: `
      spec: {replicas: 2}
      status: {observedGeneration: 1, replicas: 2, updatedReplicas: 2, availableReplicas: 1, readyReplicas: 2}`,
    want: { status: 'InProgress', message: 'Available: 1/2', reason: 'LessAvailable' },
  },
  {
    name: 'available is compared with updated, not with spec',
    yaml: `
      spec: {replicas: 2}
      status: {observedGeneration: 1, replicas: 2, updatedReplicas: 3, availableReplicas: 2, readyReplicas: 2}`,
    want: { status: 'InProgress', message: 'Available: 2/3', reason: 'LessAvailable' },
  },
  {
    name: 'fewer ready replicas than spec',
    yaml: `
      spec: {replicas: 3}
      status: {observedGeneration: 1, replicas: 3, updatedReplicas: 3, availableReplicas: 3, readyReplicas: 2}`,
    want: { status: 'InProgress', message: 'Ready: 2/3', reason: 'LessReady' },
  },
  {
    name: 'with a progress deadline, the new ReplicaSet must be reported available',
    yaml: `
      spec: {replicas: 1, progressDeadlineSeconds: 600}
      status:
        observedGeneration: 1
        replicas: 1
        updatedReplicas: 1
        readyReplicas: 1
        availableReplicas: 1
        conditions:
        - {type: Available, status: "True"}
        - {type: Progressing, status: "True", reason: ReplicaSetUpdated}`,
    want: { status: 'InProgress', message: 'ReplicaSet not Available', reason: 'ReplicaSetNotAvailable' },
  },
  {
    name: 'counts done but no Available=True condition',
    yaml: `
      spec: {replicas: 1, progressDeadlineSeconds: 600}
      status:
        observedGeneration: 1
        replicas: 1
        updatedReplicas: 1
        readyReplicas: 1
        availableReplicas: 1
        conditions:
        - {type: Available, status: "False", reason: MinimumReplicasUnavailable}
        - {type: Progressing, status: "True", reason: NewReplicaSetAvailable}`,
    want: { status: 'InProgress', message: 'Deployment not Available', reason: 'DeploymentNotAvailable' },
  },
  {
    name: 'available',
    yaml: `
      spec: {replicas: 3, progressDeadlineSeconds: 600}
      status:
        observedGeneration: 1
        replicas: 3
        updatedReplicas: 3
        readyReplicas: 3
        availableReplicas: 3
        conditions:
        - {type: Available, status: "True", reason: MinimumReplicasAvailable}
        - {type: Progressing, status: "True", reason: NewReplicaSetAvailable}`,
    want: { status: 'Current', message: 'Deployment is available. Replicas: 3' },
  },
  {
    name: 'without progressDeadlineSeconds no Progressing condition is needed',
    yaml: `
      spec: {replicas: 1}
      status:
        observedGeneration: 1
        replicas: 1
        updatedReplicas: 1
        readyReplicas: 1
        availableReplicas: 1
        conditions:
        - {type: Available, status: "True"}`,
    want: { status: 'Current', message: 'Deployment is available. Replicas: 1' },
  },
  {
    name: 'scaled to zero',
    yaml: `
      spec: {replicas: 0}
      status:
        observedGeneration: 1
        conditions:
        - {type: Available, status: "True", reason: MinimumReplicasAvailable}
        - {type: Progressing, status: "True", reason: NewReplicaSetAvailable}`,
    want: { status: 'Current', message: 'Deployment is available. Replicas: 0' },
  },
  {
    name: 'a new spec not yet observed (generic rule first)',
    yaml: `
      metadata: {generation: 2}
      spec: {replicas: 1}
      status:
        observedGeneration: 1
        replicas: 1
        updatedReplicas: 1
        readyReplicas: 1
        availableReplicas: 1
        conditions:
        - {type: Available, status: "True", reason: MinimumReplicasAvailable}
        - {type: Progressing, status: "True", reason: NewReplicaSetAvailable}`,
    want: {
      status: 'InProgress',
      message: 'Deployment generation is 2, but latest observed generation is 1',
      reason: 'LatestGenerationNotObserved',
    },
  },
];

describe('Deployment status (kstatus deploymentConditions)', () => {
  // Every case is at generation 1 unless it says otherwise.
  it.each(cases)('$name', ({ yaml, want }) => {
    const obj = kube('apps/v1', 'Deployment', yaml);
    obj.metadata.generation ??= 1;
    expect(computeStatus(obj)).toEqual(want);
  });

  it('applies the same rule to extensions/v1beta1 Deployments', () => {
    const obj = kube('extensions/v1beta1', 'Deployment', 'spec: {replicas: 2}\nstatus: {replicas: 1}');
    expect(computeStatus(obj)).toEqual({
      status: 'InProgress',
      message: 'Replicas: 1/2',
      reason: 'LessReplicas',
    });
  });

  it('does not apply it to a Deployment kind of another group (the Ready rule decides)', () => {
    const obj = kube('example.com/v1', 'Deployment', 'spec: {replicas: 2}');
    expect(computeStatus(obj)).toEqual({ status: 'Current', message: 'Resource is current' });
  });
});
