import { describe, expect, it } from 'vitest';
import { computeStatus, hasKindRule, kindKey } from '../../../src/status/index.js';
import type { StatusResult } from '../../../src/status/types.js';
import { kube, y2u } from './y2u.js';

/** A custom resource: no kind rule, so the generic rules and then the Ready condition decide. */
const widget = (yaml: string) => kube('example.com/v1', 'Widget', yaml);

describe('generic rules (kstatus checkGenericProperties), before any kind rule', () => {
  const cases: { name: string; obj: ReturnType<typeof widget>; want: StatusResult }[] = [
    {
      name: 'deletionTimestamp ⇒ Terminating, whatever else',
      obj: widget(`
        metadata: {generation: 2, deletionTimestamp: "2024-05-01T12:00:00Z", finalizers: [example.com/cleanup]}
        status:
          observedGeneration: 1
          conditions:
          - {type: Stalled, status: "True"}`),
      want: { status: 'Terminating', message: 'Resource scheduled for deletion' },
    },
    {
      name: 'a Deployment being deleted is Terminating, not judged by its counts',
      obj: kube('apps/v1', 'Deployment', 'metadata: {deletionTimestamp: "2024-05-01T12:00:00Z"}'),
      want: { status: 'Terminating', message: 'Resource scheduled for deletion' },
    },
    {
      name: 'observedGeneration behind generation ⇒ InProgress, naming the kind',
      obj: widget(`
        metadata: {generation: 5}
        status:
          observedGeneration: 4
          conditions:
          - {type: Ready, status: "True"}`),
      want: {
        status: 'InProgress',
        message: 'Widget generation is 5, but latest observed generation is 4',
        reason: 'LatestGenerationNotObserved',
      },
    },
    {
      name: 'observedGeneration ahead of generation is a mismatch too',
      obj: widget('metadata: {generation: 1}\nstatus: {observedGeneration: 2}'),
      want: {
        status: 'InProgress',
        message: 'Widget generation is 1, but latest observed generation is 2',
        reason: 'LatestGenerationNotObserved',
      },
    },
    {
      name: 'no observedGeneration: the generation check is skipped',
      obj: widget('metadata: {generation: 7}\nstatus: {phase: Running}'),
      want: { status: 'Current', message: 'Resource is current' },
    },
    {
      name: 'Reconciling=True ⇒ InProgress with its reason and message',
      obj: widget(`
        metadata: {generation: 1}
        status:
          observedGeneration: 1
          conditions:
          - {type: Ready, status: "True"}
          - {type: Reconciling, status: "True", reason: Provisioning, message: creating the bucket}`),
      want: { status: 'InProgress', message: 'creating the bucket', reason: 'Provisioning' },
    },
    {
      name: 'Stalled=True ⇒ Failed with its reason and message',
      obj: widget(`
        status:
          conditions:
          - {type: Stalled, status: "True", reason: QuotaExceeded, message: project quota exceeded}`),
      want: { status: 'Failed', message: 'project quota exceeded', reason: 'QuotaExceeded' },
    },
    {
      name: 'the first of Reconciling/Stalled in list order wins',
      obj: widget(`
        status:
          conditions:
          - {type: Stalled, status: "True", reason: Broken, message: broken}
          - {type: Reconciling, status: "True", reason: Working, message: working}`),
      want: { status: 'Failed', message: 'broken', reason: 'Broken' },
    },
    {
      name: 'Reconciling and Stalled that are not True are ignored',
      obj: widget(`
        status:
          conditions:
          - {type: Reconciling, status: "False"}
          - {type: Stalled, status: "Unknown"}`),
      want: { status: 'Current', message: 'Resource is current' },
    },
    {
      name: 'Stalled on a built-in kind wins over its kind rule',
      obj: kube(
        'v1',
        'Service',
        'status: {conditions: [{type: Stalled, status: "True", reason: NoPorts, message: no ports}]}',
      ),
      want: { status: 'Failed', message: 'no ports', reason: 'NoPorts' },
    },
  ];
  it.each(cases)('$name', ({ obj, want }) => {
    expect(computeStatus(obj)).toEqual(want);
  });
});

describe('the Ready condition, for kinds without a rule of their own', () => {
  const cases: { name: string; yaml: string; want: StatusResult }[] = [
    {
      name: 'Ready=True',
      yaml: 'status: {conditions: [{type: Ready, status: "True", reason: Synced}]}',
      want: { status: 'Current', message: 'Resource is Ready' },
    },
    {
      name: 'Ready=False',
      yaml: 'status: {conditions: [{type: Ready, status: "False", reason: Waiting, message: waiting for DNS}]}',
      want: { status: 'InProgress', message: 'waiting for DNS', reason: 'Waiting' },
    },
    {
      name: 'Ready=Unknown',
      yaml: 'status: {conditions: [{type: Ready, status: Unknown, reason: Pending, message: not checked yet}]}',
      want: { status: 'InProgress', message: 'not checked yet', reason: 'Pending' },
    },
    {
      name: 'Ready=False without reason or message',
      yaml: 'status: {conditions: [{type: Ready, status: "False"}]}',
      want: { status: 'InProgress', message: '' },
    },
    {
      name: 'a Ready condition with an odd status is skipped',
      yaml: 'status: {conditions: [{type: Ready, status: Maybe}]}',
      want: { status: 'Current', message: 'Resource is current' },
    },
    {
      name: 'other conditions alone decide nothing',
      yaml: 'status: {conditions: [{type: Synced, status: "False"}]}',
      want: { status: 'Current', message: 'Resource is current' },
    },
    {
      name: 'no status at all is Current at once (kstatus; see wait-for-controller)',
      yaml: 'spec: {size: 3}',
      want: { status: 'Current', message: 'Resource is current' },
    },
  ];
  it.each(cases)('$name', ({ yaml, want }) => {
    expect(computeStatus(widget(yaml))).toEqual(want);
  });

  it('applies to built-in kinds without a rule (Namespace)', () => {
    expect(computeStatus(y2u('apiVersion: v1\nkind: Namespace\nmetadata: {name: apps}'))).toEqual({
      status: 'Current',
      message: 'Resource is current',
    });
  });

  it('is not consulted for kinds with a rule (a Service with Ready=False is still ready)', () => {
    const svc = kube('v1', 'Service', 'status: {conditions: [{type: Ready, status: "False"}]}');
    expect(computeStatus(svc)).toEqual({ status: 'Current', message: 'Service is ready' });
  });
});

describe('fields of the wrong shape give Unknown, as a kstatus compute error does', () => {
  const cases: { name: string; yaml: string; message: string }[] = [
    {
      name: 'status.conditions not a list',
      yaml: 'status: {conditions: {type: Ready}}',
      message: 'status.conditions: expected a list, found object',
    },
    {
      name: 'a condition status that is not a string (unquoted True in YAML)',
      yaml: 'status: {conditions: [{type: Ready, status: True}]}',
      message: 'status.conditions[0].status: expected a string, found boolean',
    },
    {
      name: 'a condition that is not an object',
      yaml: 'status: {conditions: [Ready]}',
      message: 'status.conditions[0]: expected an object, found string',
    },
    { name: 'status not an object', yaml: 'status: ok', message: 'status: expected an object, found string' },
    {
      name: 'a generation that is not an integer',
      yaml: 'metadata: {generation: "2"}',
      message:
        'looking up metadata.generation from resource: .metadata.generation accessor error: 2 is of the type string, expected int64',
    },
    {
      name: 'an observedGeneration of null (cli-utils reads it with NestedInt64: there, but not an integer)',
      yaml: 'metadata: {generation: 2}\nstatus: {observedGeneration: null}',
      message:
        'looking up status.observedGeneration from resource: .status.observedGeneration accessor error: <nil> is of the type <nil>, expected int64',
    },
    {
      name: 'a status that is not an object, with a generation to compare',
      yaml: 'metadata: {generation: 2}\nstatus: ok',
      message:
        'looking up status.observedGeneration from resource: .status.observedGeneration accessor error: ok is of the type string, expected map[string]interface{}',
    },
  ];
  it.each(cases)('$name', ({ yaml, message }) => {
    expect(computeStatus(widget(yaml))).toEqual({ status: 'Unknown', message });
  });
});

describe('kindKey / hasKindRule', () => {
  it.each([
    ['v1', 'Pod', 'Pod', true],
    ['apps/v1', 'Deployment', 'apps/Deployment', true],
    ['batch/v1beta1', 'CronJob', 'batch/CronJob', true],
    [
      'apiextensions.k8s.io/v1beta1',
      'CustomResourceDefinition',
      'apiextensions.k8s.io/CustomResourceDefinition',
      true,
    ],
    ['v1', 'Namespace', 'Namespace', false],
    ['networking.k8s.io/v1', 'Ingress', 'networking.k8s.io/Ingress', false],
    ['example.com/v1', 'Pod', 'example.com/Pod', false],
  ])('%s %s ⇒ %s (rule: %s)', (apiVersion, kind, key, rule) => {
    const obj = kube(apiVersion, kind);
    expect(kindKey(obj)).toBe(key);
    expect(hasKindRule(obj)).toBe(rule);
  });
});
