import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { appliedAt, isStaleDeadline } from '../../../src/status/stale-deadline.js';
import { observe } from '../../../src/status/wait-for-objects.js';

/** A Deployment rolled back to its old ReplicaSet: generation observed, the failed rollout's deadline kept. */
const rolledBack = (deadlineAt: string): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'shop',
    generation: 3,
    managedFields: [
      { manager: 'kubectl-edit', operation: 'Update', time: '2026-01-01T10:00:09Z' },
      { manager: 'kpt-live-action', operation: 'Apply', time: '2026-01-01T10:00:05Z' },
    ],
  },
  spec: { replicas: 2, progressDeadlineSeconds: 3 },
  status: {
    observedGeneration: 3,
    replicas: 3,
    updatedReplicas: 2,
    readyReplicas: 2,
    availableReplicas: 2,
    conditions: [
      { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
      {
        type: 'Progressing',
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
        message: 'ReplicaSet "web-7f9c" has timed out progressing.',
        lastUpdateTime: deadlineAt,
        lastTransitionTime: deadlineAt,
      },
    ],
  },
});

describe('a progress deadline an earlier rollout passed', () => {
  it('reads when our apply changed the object from its own managedFields entry', () => {
    expect(appliedAt(rolledBack('2026-01-01T10:00:02Z'), 'kpt-live-action')).toBe('2026-01-01T10:00:05Z');
    expect(appliedAt(rolledBack('2026-01-01T10:00:02Z'), 'other')).toBeUndefined();
    expect(appliedAt(undefined, 'kpt-live-action')).toBeUndefined();
  });

  it('is stale when set no later than the apply (same second included), and judges the rollout after it', () => {
    expect(isStaleDeadline(rolledBack('2026-01-01T10:00:02Z'), '2026-01-01T10:00:05Z')).toBe(true);
    expect(isStaleDeadline(rolledBack('2026-01-01T10:00:05Z'), '2026-01-01T10:00:05Z')).toBe(true);
    expect(isStaleDeadline(rolledBack('2026-01-01T10:00:09Z'), '2026-01-01T10:00:05Z')).toBe(false);
    expect(isStaleDeadline(rolledBack('2026-01-01T10:00:02Z'), undefined)).toBe(false);
    expect(
      isStaleDeadline({ ...rolledBack('2026-01-01T10:00:02Z'), kind: 'StatefulSet' }, '2026-01-01T10:00:05Z'),
    ).toBe(false);
  });

  it('keeps the wait going instead of failing it; a deadline this rollout passed still fails it', () => {
    const opts = { condition: 'Current' as const, timeoutMs: 60_000 };
    const target = {
      ref: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' },
      appliedGeneration: 3,
    };
    const at = '2026-01-01T10:00:05Z';
    expect(observe({ ...target, appliedAt: at }, rolledBack('2026-01-01T10:00:02Z'), opts, 0)).toEqual({
      status: 'InProgress',
      message: 'progress deadline exceeded by an earlier rollout: waiting for this one',
    });
    expect(observe({ ...target, appliedAt: at }, rolledBack('2026-01-01T10:00:09Z'), opts, 0)).toMatchObject({
      status: 'Failed',
      message: 'Progress deadline exceeded',
    });
    expect(observe(target, rolledBack('2026-01-01T10:00:02Z'), opts, 0)).toMatchObject({ status: 'Failed' });
  });
});
