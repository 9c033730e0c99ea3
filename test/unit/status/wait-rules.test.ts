import { describe, expect, it } from 'vitest';
import {
  AWAITING_CONTROLLER_MESSAGE,
  aggregateStatus,
  awaitingController,
  isDisabledWait,
  type KStatus,
} from '../../../src/status/index.js';
import { kube } from './y2u.js';

describe('awaitingController (opt-in wait-for-controller)', () => {
  const fresh = kube('example.com/v1', 'Widget', 'spec: {size: 1}');
  const ctx = { hasStatusSubresource: true, touchedByRun: true, elapsedMs: 2_000, graceMs: 15_000 };
  const waiting = {
    status: 'InProgress',
    message: AWAITING_CONTROLLER_MESSAGE,
    reason: 'AwaitingController',
  };

  it('holds back a touched object with a status subresource and no status, within the grace period', () => {
    expect(awaitingController(fresh, ctx)).toEqual(waiting);
    expect(AWAITING_CONTROLLER_MESSAGE).toBe('waiting for its controller');
  });

  it.each([
    ['status: null', 'status: null'],
    ['status: {}', 'status: {}'],
  ])('treats %s as no status', (_name, yaml) => {
    expect(awaitingController(kube('example.com/v1', 'Widget', yaml), ctx)).toEqual(waiting);
  });

  it.each([
    ['the grace period has passed', fresh, { elapsedMs: 15_000 }],
    ['the rule is off (grace 0)', fresh, { graceMs: 0 }],
    ['this run did not create or change it', fresh, { touchedByRun: false }],
    ['its CRD has no status subresource', fresh, { hasStatusSubresource: false }],
    [
      'the controller has written a status',
      kube('example.com/v1', 'Widget', 'status: {observedGeneration: 1}'),
      {},
    ],
    [
      'it is being deleted',
      kube('example.com/v1', 'Widget', 'metadata: {deletionTimestamp: "2024-05-01T12:00:00Z"}'),
      {},
    ],
  ])('lets it go when %s', (_name, obj, override) => {
    expect(awaitingController(obj, { ...ctx, ...override })).toBeUndefined();
  });
});

describe('aggregateStatus (cli-utils AggregateStatus)', () => {
  const cases: { name: string; statuses: KStatus[]; desired: KStatus; want: KStatus }[] = [
    {
      name: 'any Failed wins',
      statuses: ['Current', 'Unknown', 'Failed'],
      desired: 'Current',
      want: 'Failed',
    },
    {
      name: 'then any Unknown',
      statuses: ['Current', 'Unknown', 'InProgress'],
      desired: 'Current',
      want: 'Unknown',
    },
    { name: 'all desired', statuses: ['Current', 'Current'], desired: 'Current', want: 'Current' },
    {
      name: 'all NotFound when deleting',
      statuses: ['NotFound', 'NotFound'],
      desired: 'NotFound',
      want: 'NotFound',
    },
    {
      name: 'otherwise InProgress',
      statuses: ['Current', 'Terminating'],
      desired: 'Current',
      want: 'InProgress',
    },
    { name: 'Current is not NotFound', statuses: ['Current'], desired: 'NotFound', want: 'InProgress' },
    { name: 'nothing to wait for', statuses: [], desired: 'Current', want: 'Current' },
  ];
  it.each(cases)('$name', ({ statuses, desired, want }) => {
    expect(aggregateStatus(statuses, desired)).toBe(want);
  });
});

describe('isDisabledWait (kapp.k14s.io/disable-wait)', () => {
  it.each([
    ['"" (what kapp writes)', '""', true],
    ['"true"', '"true"', true],
    ['"yes"', 'yes', true],
    ['"false"', '"false"', false],
  ])('annotation value %s ⇒ %s', (_name, value, want) => {
    const obj = kube('v1', 'ConfigMap', `metadata: {annotations: {kapp.k14s.io/disable-wait: ${value}}}`);
    expect(isDisabledWait(obj)).toBe(want);
  });

  it('is false without the annotation', () => {
    expect(isDisabledWait(kube('v1', 'ConfigMap', 'metadata: {annotations: {other: x}}'))).toBe(false);
    expect(isDisabledWait(kube('v1', 'ConfigMap'))).toBe(false);
  });
});
