import { describe, expect, it } from 'vitest';
import { buildPlan, formatPlanErrors } from '../../../src/plan/index.js';
import { objects, shortWaves } from './objects.js';
import { id } from './wordpress.js';

describe('buildPlan errors', () => {
  const cycle = objects(`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: foo
  namespace: default
  annotations: {config.kubernetes.io/depends-on: apps/namespaces/default/Deployment/bar}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: bar
  namespace: default
  annotations: {config.kubernetes.io/depends-on: apps/namespaces/default/Deployment/foo}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  namespace: default
  annotations: {config.kubernetes.io/depends-on: apps/namespaces/default/Deployment/foo}
---
apiVersion: v1
kind: Pod
metadata: {name: fine, namespace: default}
`);

  it('reports a cycle on every object left in it, with the sorted remaining edges', () => {
    const plan = buildPlan({ apply: cycle, prune: [] });
    const message = [
      'cyclic dependency:',
      '- /namespaces/default/ConfigMap/cm -> apps/namespaces/default/Deployment/foo',
      '- apps/namespaces/default/Deployment/bar -> apps/namespaces/default/Deployment/foo',
      '- apps/namespaces/default/Deployment/foo -> apps/namespaces/default/Deployment/bar',
    ].join('\n');
    expect(plan.errors).toEqual([
      { id: id('', 'ConfigMap', 'default', 'cm'), message },
      { id: id('apps', 'Deployment', 'default', 'bar'), message },
      { id: id('apps', 'Deployment', 'default', 'foo'), message },
    ]);
    // like kpt, the objects outside the cycle keep their waves
    expect(shortWaves(plan.applyWaves)).toEqual([['Pod/default/fine']]);
    expect(formatPlanErrors(plan.errors)).toBe(
      'invalid objects: ["default_cm__ConfigMap", "default_bar_apps_Deployment", "default_foo_apps_Deployment"] ' +
        message,
    );
  });

  it('reports a self-dependency as a one-edge cycle', () => {
    const plan = buildPlan({
      apply: objects(`
apiVersion: v1
kind: ConfigMap
metadata:
  name: me
  namespace: ns
  annotations: {config.kubernetes.io/depends-on: /namespaces/ns/ConfigMap/me}
`),
      prune: [],
    });
    expect(formatPlanErrors(plan.errors)).toBe(
      'invalid object: "ns_me__ConfigMap": cyclic dependency:\n- /namespaces/ns/ConfigMap/me -> /namespaces/ns/ConfigMap/me',
    );
    expect(plan.applyWaves).toEqual([]);
  });

  it('formats several invalid objects as kpt does when it exits early', () => {
    const plan = buildPlan({
      apply: objects(`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: foo
  namespace: default
  annotations: {config.kubernetes.io/depends-on: invalid-obj-ref}
---
apiVersion: v1
kind: Pod
metadata:
  name: test-pod
  namespace: test-namespace
  annotations:
    config.kubernetes.io/depends-on: /namespaces/test-namespace/Secret/secret-name,/Namespace/x,/Namespace/x
`),
      prune: [],
    });
    expect(formatPlanErrors(plan.errors)).toBe(
      '2 errors:\n' +
        '- invalid object: "default_foo_apps_Deployment": invalid "config.kubernetes.io/depends-on" annotation: ' +
        'failed to parse object reference (index: 0): expected 3 or 5 fields, found 1: "invalid-obj-ref"\n' +
        '- invalid object: "test-namespace_test-pod__Pod": 3 errors:\n' +
        '  - invalid "config.kubernetes.io/depends-on" annotation: external dependency: ' +
        '/namespaces/test-namespace/Pod/test-pod -> /namespaces/test-namespace/Secret/secret-name\n' +
        '  - invalid "config.kubernetes.io/depends-on" annotation: external dependency: ' +
        '/namespaces/test-namespace/Pod/test-pod -> /Namespace/x\n' +
        '  - invalid "config.kubernetes.io/depends-on" annotation: duplicate dependency: ' +
        '/namespaces/test-namespace/Pod/test-pod -> /Namespace/x\n' +
        '  \n',
    );
    expect(plan.applyWaves).toEqual([]);
    expect(formatPlanErrors([])).toBe('');
  });

  it('validates the depends-on of prune objects too (their dependencies must be in the set)', () => {
    const plan = buildPlan({
      apply: [],
      prune: objects(`
apiVersion: v1
kind: ConfigMap
metadata:
  name: old
  namespace: ns
  annotations: {config.kubernetes.io/depends-on: /namespaces/ns/ConfigMap/long-gone}
`),
    });
    expect(plan.errors.map((e) => e.message)).toEqual([
      'invalid "config.kubernetes.io/depends-on" annotation: external dependency: ' +
        '/namespaces/ns/ConfigMap/old -> /namespaces/ns/ConfigMap/long-gone',
    ]);
    expect(plan.pruneWaves).toEqual([]);
  });
});
