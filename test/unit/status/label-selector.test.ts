import { describe, expect, it } from 'vitest';
import { commonSelector, selectorQuery } from '../../../src/status/rollout/label-selector.js';
import { kube } from './y2u.js';

const workload = (selector: string) => kube('apps/v1', 'Deployment', `spec: {selector: ${selector}}`);

describe('selectorQuery (a spec.selector as the API takes it)', () => {
  it.each([
    ['{matchLabels: {app: web, tier: front}}', 'app=web,tier=front'],
    [
      '{matchExpressions: [{key: env, operator: In, values: [prod, dev]}, {key: canary, operator: DoesNotExist}]}',
      'env in (dev,prod),!canary',
    ],
    [
      '{matchLabels: {app: web}, matchExpressions: [{key: track, operator: NotIn, values: [b]}, {key: x, operator: Exists}]}',
      'app=web,track notin (b),x',
    ],
  ])('%s is %s', (selector, want) => {
    expect(selectorQuery(workload(selector))).toBe(want);
  });

  it.each([
    ['no selector', kube('apps/v1', 'Deployment', 'spec: {}')],
    ['an empty selector', workload('{}')],
    ['an unknown operator', workload('{matchExpressions: [{key: a, operator: Near}]}')],
    ['a label value that is not a string', workload('{matchLabels: {replicas: 3}}')],
  ])('is undefined for %s (the whole namespace is read)', (_name, obj) => {
    expect(selectorQuery(obj)).toBeUndefined();
  });
});

describe('commonSelector (one LIST/WATCH of pods for all workloads of a namespace)', () => {
  it("is the workloads' selector when they share one", () => {
    expect(
      commonSelector([workload('{matchLabels: {app: web}}'), workload('{matchLabels: {app: web}}')]),
    ).toBe('app=web');
  });

  it('is `key in (...)` over a matchLabels key every workload has', () => {
    expect(
      commonSelector([
        workload('{matchLabels: {app: web, tier: front}}'),
        workload('{matchLabels: {app: api}}'),
        workload('{matchLabels: {app: worker}}'),
      ]),
    ).toBe('app in (api,web,worker)');
  });

  it('reads the namespace whole rather than send a set of more than 50 values', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => workload(`{matchLabels: {app: w${i}}}`));
    expect(commonSelector(many(50))).toMatch(/^app in \(/);
    expect(commonSelector(many(51))).toBeUndefined();
  });

  it('is undefined (whole namespace) when no key is shared, or for no workloads', () => {
    expect(
      commonSelector([workload('{matchLabels: {app: web}}'), workload('{matchLabels: {name: api}}')]),
    ).toBeUndefined();
    expect(commonSelector([])).toBeUndefined();
  });
});
