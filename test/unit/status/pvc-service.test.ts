import { describe, expect, it } from 'vitest';
import { computeStatus } from '../../../src/status/index.js';
import type { StatusResult } from '../../../src/status/types.js';
import { kube } from './y2u.js';

describe('PersistentVolumeClaim status (kstatus pvcConditions)', () => {
  const cases: { name: string; yaml: string; want: StatusResult }[] = [
    { name: 'bound', yaml: 'status: {phase: Bound}', want: { status: 'Current', message: 'PVC is Bound' } },
    {
      name: 'pending',
      yaml: 'status: {phase: Pending}',
      want: { status: 'InProgress', message: 'PVC is not Bound. phase: Pending', reason: 'NotBound' },
    },
    {
      name: 'lost',
      yaml: 'status: {phase: Lost}',
      want: { status: 'InProgress', message: 'PVC is not Bound. phase: Lost', reason: 'NotBound' },
    },
    {
      name: 'no phase reads as "unknown"',
      yaml: 'spec: {accessModes: [ReadWriteOnce]}',
      want: { status: 'InProgress', message: 'PVC is not Bound. phase: unknown', reason: 'NotBound' },
    },
  ];
  it.each(cases)('$name', ({ yaml, want }) => {
    expect(computeStatus(kube('v1', 'PersistentVolumeClaim', yaml))).toEqual(want);
  });
});

describe('Service status (kstatus serviceConditions)', () => {
  const ready: StatusResult = { status: 'Current', message: 'Service is ready' };
  const cases: { name: string; yaml: string; want: StatusResult }[] = [
    {
      name: 'ClusterIP (the default type) without an IP yet',
      yaml: 'spec: {ports: [{port: 80}]}',
      want: ready,
    },
    { name: 'ClusterIP with an IP', yaml: 'spec: {type: ClusterIP, clusterIP: 10.0.0.7}', want: ready },
    { name: 'NodePort without an IP', yaml: 'spec: {type: NodePort}', want: ready },
    { name: 'ExternalName', yaml: 'spec: {type: ExternalName, externalName: example.com}', want: ready },
    {
      name: 'LoadBalancer without a cluster IP',
      yaml: 'spec: {type: LoadBalancer}',
      want: {
        status: 'InProgress',
        message: 'ClusterIP not set. Service type: LoadBalancer',
        reason: 'NoIPAssigned',
      },
    },
    {
      name: 'LoadBalancer with a cluster IP but no ingress yet (kstatus does not wait for it)',
      yaml: 'spec: {type: LoadBalancer, clusterIP: 10.0.0.8}\nstatus: {loadBalancer: {}}',
      want: ready,
    },
  ];
  it.each(cases)('$name', ({ yaml, want }) => {
    expect(computeStatus(kube('v1', 'Service', yaml))).toEqual(want);
  });
});
