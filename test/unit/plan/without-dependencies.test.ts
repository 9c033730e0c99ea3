import { describe, expect, it } from 'vitest';
import { idKey } from '../../../src/common/object-id.js';
import { withoutDependencies } from '../../../src/plan/dependency-graph.js';
import { buildPlan } from '../../../src/plan/plan.js';
import { obj, objects, short } from './objects.js';
import { WORDPRESS } from './wordpress.js';

/**
 * withoutDependencies reads the first wave from the objects alone (the pre-flight's early dry-runs pick from
 * it before the plan exists): it must agree with the plan's first wave.
 */
const mixed = objects(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec: {group: example.com, names: {kind: Widget, plural: widgets}, scope: Namespaced}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: other}
---
apiVersion: v1
kind: Namespace
metadata: {name: team}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: in-team, namespace: team}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: free, namespace: other}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: waits
  namespace: other
  annotations: {config.kubernetes.io/depends-on: /namespaces/other/ConfigMap/free}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: reader}
`);

const firstWave = (objs: typeof mixed) =>
  (buildPlan({ apply: objs, prune: [] }).applyWaves[0] ?? []).map(idKey).sort();

describe('withoutDependencies', () => {
  it('leaves out what depends on a CRD or a Namespace of the set, or says depends-on', () => {
    expect(withoutDependencies(mixed).map(short).sort()).toEqual([
      'ClusterRole/reader',
      'ConfigMap/other/free',
      'CustomResourceDefinition/widgets.example.com',
      'Namespace/team',
    ]);
  });

  it.each([
    ['a mixed package', mixed],
    ['the wordpress package', WORDPRESS],
    [
      'objects in namespaces the package does not create',
      [
        obj('v1', 'ConfigMap', 'a', 'x'),
        obj('v1', 'Secret', 's', 'y'),
        obj('apps/v1', 'Deployment', 'd', 'x'),
      ],
    ],
  ])('agrees with the plan’s first wave: %s', (_, objs) => {
    expect(withoutDependencies(objs).map(idKey).sort()).toEqual(firstWave(objs));
  });
});
