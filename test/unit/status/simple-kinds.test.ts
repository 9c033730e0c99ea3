import { describe, expect, it } from 'vitest';
import { computeStatus } from '../../../src/status/index.js';
import type { StatusResult } from '../../../src/status/types.js';
import { kube } from './y2u.js';

describe('kinds that are always ready (kstatus alwaysReady)', () => {
  const cases = [
    ['v1', 'ConfigMap', 'data: {a: b}'],
    ['v1', 'Secret', 'type: Opaque'],
    ['batch/v1', 'CronJob', 'spec: {schedule: "* * * * *"}'],
    ['batch/v1beta1', 'CronJob', 'spec: {schedule: "* * * * *"}'],
  ] as const;
  it.each(cases)('%s %s', (apiVersion, kind, yaml) => {
    expect(computeStatus(kube(apiVersion, kind, yaml))).toEqual({
      status: 'Current',
      message: 'Resource is always ready',
    });
  });

  it('does not consult their Ready condition', () => {
    const cm = kube('v1', 'ConfigMap', 'status: {conditions: [{type: Ready, status: "False"}]}');
    expect(computeStatus(cm).status).toBe('Current');
  });
});

describe('PodDisruptionBudget status (kstatus pdbConditions)', () => {
  const cases: { name: string; apiVersion: string; yaml: string; want: StatusResult }[] = [
    {
      name: 'observed (policy/v1beta1, as the test server serves it)',
      apiVersion: 'policy/v1beta1',
      yaml: 'metadata: {generation: 1}\nstatus: {observedGeneration: 1, disruptionsAllowed: 0}',
      want: { status: 'Current', message: 'AllowedDisruptions has been computed.' },
    },
    {
      name: 'policy/v1',
      apiVersion: 'policy/v1',
      yaml: 'metadata: {generation: 3}\nstatus: {observedGeneration: 3}',
      want: { status: 'Current', message: 'AllowedDisruptions has been computed.' },
    },
    {
      name: 'a new spec not yet observed',
      apiVersion: 'policy/v1',
      yaml: 'metadata: {generation: 2}\nstatus: {observedGeneration: 1}',
      want: {
        status: 'InProgress',
        message: 'PodDisruptionBudget generation is 2, but latest observed generation is 1',
        reason: 'LatestGenerationNotObserved',
      },
    },
  ];
  it.each(cases)('$name', ({ apiVersion, yaml, want }) => {
    expect(computeStatus(kube(apiVersion, 'PodDisruptionBudget', yaml))).toEqual(want);
  });
});

describe('CustomResourceDefinition status (kstatus CRDConditions)', () => {
  const cases: { name: string; yaml: string; want: StatusResult }[] = [
    {
      name: 'established',
      yaml: `
        status:
          conditions:
          - {type: NamesAccepted, status: "True", reason: NoConflicts}
          - {type: Established, status: "True", reason: InitialNamesAccepted}`,
      want: { status: 'Current', message: 'CRD is established' },
    },
    {
      name: 'names clash with another CRD',
      yaml: `
        status:
          conditions:
          - {type: NamesAccepted, status: "False", reason: ListKindConflict, message: '"WidgetList" is already in use'}
          - {type: Established, status: "False", reason: NotAccepted, message: not all names are accepted}`,
      want: { status: 'Failed', message: '"WidgetList" is already in use', reason: 'ListKindConflict' },
    },
    {
      name: 'not established for another reason than installing',
      yaml: `
        status:
          conditions:
          - {type: Established, status: "False", reason: NotAccepted, message: not all names are accepted}`,
      want: { status: 'Failed', message: 'not all names are accepted', reason: 'NotAccepted' },
    },
    {
      name: 'still installing',
      yaml: `
        status:
          conditions:
          - {type: NamesAccepted, status: "True"}
          - {type: Established, status: "False", reason: Installing, message: the initial names have been accepted}`,
      want: { status: 'InProgress', message: 'Install in progress', reason: 'Installing' },
    },
    {
      name: 'no conditions yet',
      yaml: 'spec: {group: example.com}',
      want: { status: 'InProgress', message: 'Install in progress', reason: 'Installing' },
    },
    {
      name: 'the first decisive condition wins',
      yaml: `
        status:
          conditions:
          - {type: Established, status: "True"}
          - {type: NamesAccepted, status: "False", reason: ListKindConflict}`,
      want: { status: 'Current', message: 'CRD is established' },
    },
  ];
  it.each(cases)('$name', ({ yaml, want }) => {
    const crd = kube('apiextensions.k8s.io/v1', 'CustomResourceDefinition', yaml);
    expect(computeStatus(crd)).toEqual(want);
  });
});
