import { describe, expect, it } from 'vitest';
import { computeStatus } from '../../../src/status/index.js';
import type { StatusResult } from '../../../src/status/types.js';
import { kube } from './y2u.js';

const cases: { name: string; yaml: string; want: StatusResult }[] = [
  {
    name: 'metadata.generation is required',
    yaml: `
      status: {observedGeneration: 1, desiredNumberScheduled: 1}`,
    want: {
      status: 'InProgress',
      message: 'DaemonSet metadata.generation not found',
      reason: 'NoGeneration',
    },
  },
  {
    name: 'status.observedGeneration is required (the controller has not looked yet)',
    yaml: `
      metadata: {generation: 1}
      status: {desiredNumberScheduled: 1}`,
    want: {
      status: 'InProgress',
      message: 'DaemonSet status.observedGeneration not found',
      reason: 'NoObservedGeneration',
    },
  },
  {
    name: 'desiredNumberScheduled is required',
    yaml: `
      metadata: {generation: 1}
      status: {observedGeneration: 1}`,
    want: {
      status: 'InProgress',
      message: 'Missing .status.desiredNumberScheduled',
      reason: 'NoDesiredNumber',
    },
  },
  {
    name: 'not scheduled on every node yet',
    yaml: `
      metadata: {generation: 1}
      status: {observedGeneration: 1, desiredNumberScheduled: 2, currentNumberScheduled: 1}`,
    want: { status: 'InProgress', message: 'Current: 1/2', reason: 'LessCurrent' },
  },
  {
    name: 'not updated on every node yet',
    yaml: `
      metadata: {generation: 1}
      status: {observedGeneration: 1, desiredNumberScheduled: 2, currentNumberScheduled: 2, updatedNumberScheduled: 1}`,
    want: { status: 'InProgress', message: 'Updated: 1/2', reason: 'LessUpdated' },
  },
  {
    name: 'not available on every node yet',
    yaml: `
      metadata: {generation: 1}
      status:
        observedGeneration: 1
        desiredNumberScheduled: 2
        currentNumberScheduled: 2
        updatedNumberScheduled: 2
        numberAvailable: 1
        numberReady: 2`,
    want: { status: 'InProgress', message: 'Available: 1/2', reason: 'LessAvailable' },
  },
  {
    name: 'not ready on every node yet',
    yaml: `
      metadata: {generation: 1}
      status:
        observedGeneration: 1
        desiredNumberScheduled: 2
        currentNumberScheduled: 2
        updatedNumberScheduled: 2
        numberAvailable: 2
        numberReady: 1`,
    want: { status: 'InProgress', message: 'Ready: 1/2', reason: 'LessReady' },
  },
  {
    name: 'running on every node',
    yaml: `
      metadata: {generation: 1}
      status:
        observedGeneration: 1
        desiredNumberScheduled: 2
        currentNumberScheduled: 2
        updatedNumberScheduled: 2
        numberAvailable: 2
        numberReady: 2`,
    want: { status: 'Current', message: 'All replicas scheduled as expected. Replicas: 2' },
  },
  {
    name: 'no matching nodes',
    yaml: `
      metadata: {generation: 1}
      status: {observedGeneration: 1, desiredNumberScheduled: 0}`,
    want: { status: 'Current', message: 'All replicas scheduled as expected. Replicas: 0' },
  },
];

describe('DaemonSet status (kstatus daemonsetConditions)', () => {
  it.each(cases)('$name', ({ yaml, want }) => {
    expect(computeStatus(kube('apps/v1', 'DaemonSet', yaml))).toEqual(want);
  });

  it('applies the same rule to extensions/v1beta1 DaemonSets', () => {
    expect(computeStatus(kube('extensions/v1beta1', 'DaemonSet', 'status: {}'))).toEqual({
      status: 'InProgress',
      message: 'DaemonSet metadata.generation not found',
      reason: 'NoGeneration',
    });
  });
});
