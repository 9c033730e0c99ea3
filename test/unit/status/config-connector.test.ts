import { describe, expect, it } from 'vitest';
import { computeStatus, isConfigConnector } from '../../../src/status/index.js';
import type { StatusResult } from '../../../src/status/types.js';
import { kube } from './y2u.js';

/** A Config Connector resource; kpt's own status reader replaces kstatus for these groups. */
const bucket = (yaml: string) => kube('storage.cnrm.cloud.google.com/v1beta1', 'StorageBucket', yaml);

describe('Config Connector resources (kpt ConfigConnectorStatusReader)', () => {
  const cases: { name: string; yaml: string; want: StatusResult }[] = [
    {
      name: 'being deleted',
      yaml: 'metadata: {generation: 1, deletionTimestamp: "2024-05-01T12:00:00Z"}',
      want: { status: 'Terminating', message: 'Resource scheduled for deletion' },
    },
    {
      name: 'no observedGeneration yet: an error in kpt, so Unknown (Current under plain kstatus)',
      yaml: 'metadata: {generation: 1}\nspec: {location: EU}',
      want: { status: 'Unknown', message: 'status.ObservedGeneration not found' },
    },
    {
      name: "observedGeneration that is not an integer: apimachinery's message",
      yaml: 'metadata: {generation: 1}\nstatus: {observedGeneration: "1"}',
      want: {
        status: 'Unknown',
        message:
          'looking up status.observedGeneration from resource: .status.observedGeneration accessor error: 1 is of the type string, expected int64',
      },
    },
    {
      name: "status that is not an object: apimachinery's message for the field under it",
      yaml: 'metadata: {generation: 1}\nstatus: ok',
      want: {
        status: 'Unknown',
        message:
          'looking up status.observedGeneration from resource: .status.observedGeneration accessor error: ok is of the type string, expected map[string]interface{}',
      },
    },
    {
      name: 'status that is a list',
      yaml: 'metadata: {generation: 1}\nstatus: [1, 2]',
      want: {
        status: 'Unknown',
        message:
          'looking up status.observedGeneration from resource: .status.observedGeneration accessor error: [1 2] is of the type []interface {}, expected map[string]interface{}',
      },
    },
    {
      name: 'status: null is absent, as in apimachinery',
      yaml: 'metadata: {generation: 1}\nstatus: null',
      want: { status: 'Unknown', message: 'status.ObservedGeneration not found' },
    },
    {
      name: 'observedGeneration: null is there but not an integer',
      yaml: 'metadata: {generation: 1}\nstatus: {observedGeneration: null}',
      want: {
        status: 'Unknown',
        message:
          'looking up status.observedGeneration from resource: .status.observedGeneration accessor error: <nil> is of the type <nil>, expected int64',
      },
    },
    {
      name: 'observedGeneration behind',
      yaml: `
        metadata: {generation: 2}
        status:
          observedGeneration: 1
          conditions:
          - {type: Ready, status: "True"}`,
      want: {
        status: 'InProgress',
        message: 'StorageBucket generation is 2, but latest observed generation is 1',
        reason: 'LatestGenerationNotObserved',
      },
    },
    {
      name: 'observed but no Ready condition',
      yaml: 'metadata: {generation: 1}\nstatus: {observedGeneration: 1}',
      want: { status: 'InProgress', message: 'Ready condition not set', reason: 'NoReadyCondition' },
    },
    {
      name: 'Ready=True',
      yaml: `
        metadata: {generation: 1}
        status:
          observedGeneration: 1
          conditions:
          - {type: Ready, status: "True", reason: UpToDate, message: The resource is up to date}`,
      want: { status: 'Current', message: 'Resource is Current' },
    },
    {
      name: 'Ready=False while still working',
      yaml: `
        metadata: {generation: 1}
        status:
          observedGeneration: 1
          conditions:
          - {type: Ready, status: "False", reason: DependencyNotReady, message: 'reference StorageBucket x is not ready'}`,
      want: {
        status: 'InProgress',
        message: 'reference StorageBucket x is not ready',
        reason: 'DependencyNotReady',
      },
    },
    {
      name: 'the last Ready condition counts',
      yaml: `
        metadata: {generation: 1}
        status:
          observedGeneration: 1
          conditions:
          - {type: Ready, status: "False", reason: Updating}
          - {type: Ready, status: "True"}`,
      want: { status: 'Current', message: 'Resource is Current' },
    },
    {
      name: 'the generic Stalled/Reconciling conditions are not consulted',
      yaml: `
        metadata: {generation: 1}
        status:
          observedGeneration: 1
          conditions:
          - {type: Stalled, status: "True", reason: Whatever}
          - {type: Ready, status: "True"}`,
      want: { status: 'Current', message: 'Resource is Current' },
    },
    {
      name: 'no metadata.generation is an error, reported as Unknown',
      yaml: 'status: {observedGeneration: 1}',
      want: { status: 'Unknown', message: 'metadata.generation not found' },
    },
  ];
  it.each(cases)('$name', ({ yaml, want }) => {
    expect(computeStatus(bucket(yaml))).toEqual(want);
  });

  it.each(['ManagementConflict', 'UpdateFailed', 'DeleteFailed', 'DependencyInvalid'])(
    'Ready=False with reason %s is Failed: it will not recover on its own',
    (reason) => {
      const obj = bucket(`
        metadata: {generation: 1}
        status:
          observedGeneration: 1
          conditions:
          - {type: Ready, status: "False", reason: ${reason}, message: 'Update call failed: error 403'}`);
      expect(computeStatus(obj)).toEqual({
        status: 'Failed',
        message: 'Update call failed: error 403',
        reason,
      });
    },
  );

  it('uses the generation rule for the ConfigConnector kind of core.cnrm.cloud.google.com too', () => {
    const cc = kube('core.cnrm.cloud.google.com/v1beta1', 'ConfigConnector', 'metadata: {generation: 1}');
    expect(computeStatus(cc)).toEqual({ status: 'Unknown', message: 'status.ObservedGeneration not found' });
  });
});

describe('ConfigConnectorContext (status.healthy)', () => {
  const cases: { name: string; yaml: string; want: StatusResult }[] = [
    {
      name: 'healthy',
      yaml: 'metadata: {generation: 2}\nstatus: {healthy: true}',
      want: { status: 'Current', message: 'status.healthy is true' },
    },
    {
      name: 'unhealthy',
      yaml: 'status: {healthy: false}',
      want: { status: 'InProgress', message: 'status.healthy is false', reason: 'NotReady' },
    },
    {
      name: 'not reported yet',
      yaml: 'spec: {googleServiceAccount: sa@project.iam.gserviceaccount.com}',
      want: { status: 'InProgress', message: 'status.healthy property not set', reason: 'NotReady' },
    },
    {
      name: "healthy that is not a boolean: apimachinery's NestedBool message",
      yaml: 'status: {healthy: "true"}',
      want: {
        status: 'Unknown',
        message:
          'looking up status.healthy from resource: .status.healthy accessor error: true is of the type string, expected bool',
      },
    },
    {
      name: 'healthy: null is there but not a boolean',
      yaml: 'status: {healthy: null}',
      want: {
        status: 'Unknown',
        message:
          'looking up status.healthy from resource: .status.healthy accessor error: <nil> is of the type <nil>, expected bool',
      },
    },
    {
      name: 'healthy that is a number',
      yaml: 'status: {healthy: 1}',
      want: {
        status: 'Unknown',
        message:
          'looking up status.healthy from resource: .status.healthy accessor error: 1 is of the type int64, expected bool',
      },
    },
  ];
  it.each(cases)('$name', ({ yaml, want }) => {
    const ctx = kube('core.cnrm.cloud.google.com/v1beta1', 'ConfigConnectorContext', yaml);
    expect(computeStatus(ctx)).toEqual(want);
  });
});

describe('isConfigConnector', () => {
  it.each([
    ['storage.cnrm.cloud.google.com/v1beta1', true],
    ['core.cnrm.cloud.google.com/v1beta1', true],
    ['cnrm.cloud.google.com/v1', true],
    ['cloud.google.com/v1', false],
    ['example.com/v1', false],
    ['v1', false],
  ])('%s ⇒ %s', (apiVersion, want) => {
    expect(isConfigConnector(kube(apiVersion, 'Thing'))).toBe(want);
  });
});
