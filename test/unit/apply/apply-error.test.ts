import { describe, expect, it } from 'vitest';
import {
  ApplyRejection,
  explainApplyError,
  fieldConflicts,
  isUnanswered,
} from '../../../src/apply/apply-error.js';
import { KubeApiError } from '../../../src/kube/api-error.js';
import { UnknownKindError } from '../../../src/kube/cluster-client.js';

/** A 409 as kube-apiserver answers a server-side apply that conflicts (one cause per field and manager). */
function conflict(causes: { field: string; message: string }[]): KubeApiError {
  return new KubeApiError(
    409,
    'Conflict',
    `apply deployments.apps web: Apply failed with ${causes.length} conflict(s)`,
    causes.map((c) => ({ type: 'FieldManagerConflict', ...c })),
  );
}

describe('fieldConflicts', () => {
  it('reads manager, operation and subresource from each cause', () => {
    const err = conflict([
      { field: '.spec.replicas', message: 'conflict with "kubectl" using apps/v1 at 2026-11-23T10:00:00Z' },
      { field: '.data.a', message: 'conflict with "helm"' },
      {
        field: '.spec.replicas',
        message: 'conflict with "kube-controller-manager" with subresource "scale" using autoscaling/v1',
      },
    ]);
    expect(fieldConflicts(err)).toEqual([
      { field: '.spec.replicas', manager: 'kubectl', operation: 'Update' },
      { field: '.data.a', manager: 'helm', operation: 'Apply' },
      {
        field: '.spec.replicas',
        manager: 'kube-controller-manager',
        subresource: 'scale',
        operation: 'Update',
      },
    ]);
  });

  it('is undefined for anything but a 409 with causes', () => {
    expect(fieldConflicts(new KubeApiError(422, 'Invalid', 'bad'))).toBeUndefined();
    expect(fieldConflicts(new KubeApiError(409, 'Conflict', 'already exists'))).toBeUndefined();
    expect(fieldConflicts(new Error('x'))).toBeUndefined();
  });
});

describe('explainApplyError', () => {
  it('names each field, its manager (a subresource too) and both fixes, never "did not answer"', () => {
    const err = explainApplyError(
      conflict([
        {
          field: '.spec.replicas',
          message: 'conflict with "kube-controller-manager" with subresource "scale" using autoscaling/v1',
        },
      ]),
    );
    expect(err).toBeInstanceOf(ApplyRejection);
    expect(err.message).toBe(
      'conflict: 1 field of the package is owned by another field manager: .spec.replicas is owned by field ' +
        'manager "kube-controller-manager" through the scale subresource (an autoscaler or `kubectl scale` sets it). ' +
        'Remove that field from the package (the other manager keeps it), or take it over with force-conflicts ' +
        '(--force-conflicts)',
    );
    expect(err.message).not.toMatch(/could not complete|did not answer|unreachable/);
    expect(isUnanswered(err)).toBe(false);
  });

  it('names several fields', () => {
    const err = explainApplyError(
      conflict([
        { field: '.data.a', message: 'conflict with "kubectl"' },
        { field: '.data.b', message: 'conflict with "helm" using v1' },
      ]),
    );
    expect(err.message).toContain('2 fields of the package are owned by another field manager');
    expect(err.message).toContain(
      '.data.a is owned by field manager "kubectl"; .data.b is owned by field manager "helm" (an update',
    );
  });

  it('keeps the immutable-field hint', () => {
    const err = explainApplyError(
      new KubeApiError(422, 'Invalid', 'spec.selector: field is immutable', [
        { field: 'spec.selector', message: 'field is immutable' },
      ]),
    );
    expect(err.message).toMatch(/fallback-on-replace/);
  });
});

describe('isUnanswered', () => {
  it.each([
    [new KubeApiError(429, 'TooManyRequests', 'slow down'), true],
    [new KubeApiError(503, 'ServiceUnavailable', 'x'), true],
    [Object.assign(new Error('reset'), { code: 'ECONNRESET' }), true],
    [new KubeApiError(409, 'Conflict', 'x'), false],
    [new KubeApiError(422, 'Invalid', 'x'), false],
    [new KubeApiError(500, 'InternalError', 'failed to create typed patch object'), false],
    [new UnknownKindError('example.com/v1', 'Gizmo'), false],
  ])('%s: %s', (err, expected) => {
    expect(isUnanswered(err)).toBe(expected);
  });
});
