import { describe, expect, it } from 'vitest';
import { buildDependencyGraph } from '../../../src/plan/dependency-graph.js';
import { objects, short } from './objects.js';

/** Edges as `from -> to` (with `~` for implicit ones), in the graph's order. */
function edgesOf(yaml: string): string[] {
  return buildDependencyGraph(objects(yaml)).edges.map(
    (e) => `${short(e.from)} ${e.implicit ? '~>' : '->'} ${short(e.to)}`,
  );
}

const CRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
`;

describe('buildDependencyGraph edges', () => {
  it.each([
    {
      name: 'custom resource -> its CRD (matched on spec.group + spec.names.kind, any version)',
      yaml: `${CRD}
---
apiVersion: example.com/v1beta1
kind: Widget
metadata: {name: w, namespace: ns}
---
apiVersion: other.example.com/v1
kind: Widget
metadata: {name: not-this-group, namespace: ns}
`,
      edges: ['Widget/ns/w ~> CustomResourceDefinition/widgets.example.com'],
    },
    {
      name: 'no CRD edge when the CRD is not in the set',
      yaml: `apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}`,
      edges: [],
    },
    {
      name: 'namespaced objects -> their Namespace, only when it is in the set',
      yaml: `
apiVersion: v1
kind: Namespace
metadata: {name: app}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm, namespace: app}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: app}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: elsewhere, namespace: other}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: cluster-scoped}
`,
      edges: ['ConfigMap/app/cm ~> Namespace/app', 'Deployment/app/web ~> Namespace/app'],
    },
    {
      name: 'a custom resource in a package Namespace gets both implicit edges',
      yaml: `${CRD}
---
apiVersion: v1
kind: Namespace
metadata: {name: ns}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: ns}
`,
      edges: ['Widget/ns/w ~> Namespace/ns', 'Widget/ns/w ~> CustomResourceDefinition/widgets.example.com'],
    },
    {
      name: 'explicit depends-on (namespaced and cluster-scoped references, spaces trimmed)',
      yaml: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  annotations:
    config.kubernetes.io/depends-on: apps/namespaces/default/StatefulSet/db, /PersistentVolume/pv
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv}
`,
      edges: [
        'Deployment/default/web -> PersistentVolume/pv',
        'Deployment/default/web -> StatefulSet/default/db',
      ],
    },
    {
      name: 'an explicit edge that duplicates an implicit one is kept once, as explicit',
      yaml: `
apiVersion: v1
kind: Namespace
metadata: {name: app}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  namespace: app
  annotations: {config.kubernetes.io/depends-on: /Namespace/app}
`,
      edges: ['ConfigMap/app/cm -> Namespace/app'],
    },
    {
      name: 'the same object listed twice is one vertex',
      yaml: `
apiVersion: v1
kind: Namespace
metadata: {name: app}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm, namespace: app}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm, namespace: app}
`,
      edges: ['ConfigMap/app/cm ~> Namespace/app'],
    },
  ])('$name', ({ yaml, edges }) => {
    expect(edgesOf(yaml)).toEqual(edges);
  });

  it('lists each object once, in input order', () => {
    const graph = buildDependencyGraph(
      objects(`
apiVersion: v1
kind: ConfigMap
metadata: {name: b, namespace: ns}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b, namespace: ns}
`),
    );
    expect(graph.ids.map(short)).toEqual(['ConfigMap/ns/b', 'ConfigMap/ns/a']);
    expect(graph.errors).toEqual([]);
  });
});

describe('buildDependencyGraph errors (kpt messages)', () => {
  const A = 'config.kubernetes.io/depends-on';
  const pod = (dependsOn: string): string => `
apiVersion: v1
kind: Pod
metadata:
  name: test-pod
  namespace: test-namespace
  annotations: {${A}: "${dependsOn}"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: foo, namespace: test-namespace}
`;

  it.each([
    {
      name: 'external dependency',
      dependsOn: 'apps/namespaces/test-namespace/Deployment/missing',
      messages: [
        `invalid "${A}" annotation: external dependency: /namespaces/test-namespace/Pod/test-pod -> apps/namespaces/test-namespace/Deployment/missing`,
      ],
    },
    {
      name: 'a namespaced dependency without its namespace is external (no defaulting)',
      dependsOn: 'apps/Deployment/foo',
      messages: [
        `invalid "${A}" annotation: external dependency: /namespaces/test-namespace/Pod/test-pod -> apps/Deployment/foo`,
      ],
    },
    {
      name: 'duplicate dependency',
      dependsOn:
        'apps/namespaces/test-namespace/Deployment/foo,apps/namespaces/test-namespace/Deployment/foo',
      messages: [
        `invalid "${A}" annotation: duplicate dependency: /namespaces/test-namespace/Pod/test-pod -> apps/namespaces/test-namespace/Deployment/foo`,
      ],
    },
    {
      name: 'wrong number of fields',
      dependsOn: 'invalid-obj-ref',
      messages: [
        `invalid "${A}" annotation: failed to parse object reference (index: 0): expected 3 or 5 fields, found 1: "invalid-obj-ref"`,
      ],
    },
    {
      name: 'missing "namespaces" field, reported with its index',
      dependsOn: 'apps/namespaces/test-namespace/Deployment/foo, apps/ns/test-namespace/Deployment/foo',
      messages: [
        `invalid "${A}" annotation: failed to parse object reference (index: 1): missing "namespaces" field: "apps/ns/test-namespace/Deployment/foo"`,
      ],
    },
    {
      name: 'empty annotation (kpt parses one empty reference)',
      dependsOn: '',
      messages: [
        `invalid "${A}" annotation: failed to parse object reference (index: 0): expected 3 or 5 fields, found 1: ""`,
      ],
    },
    {
      name: 'duplicate and external together, in reference order',
      dependsOn:
        '/ConfigMap/gone,apps/namespaces/test-namespace/Deployment/foo,apps/namespaces/test-namespace/Deployment/foo',
      messages: [
        `invalid "${A}" annotation: external dependency: /namespaces/test-namespace/Pod/test-pod -> /ConfigMap/gone`,
        `invalid "${A}" annotation: duplicate dependency: /namespaces/test-namespace/Pod/test-pod -> apps/namespaces/test-namespace/Deployment/foo`,
      ],
    },
  ])('$name', ({ dependsOn, messages }) => {
    const graph = buildDependencyGraph(objects(pod(dependsOn)));
    expect(graph.errors.map((e) => e.message)).toEqual(messages);
    for (const e of graph.errors) expect(short(e.id)).toBe('Pod/test-namespace/test-pod');
  });

  it('still adds the valid edge of an annotation that also has a duplicate', () => {
    const graph = buildDependencyGraph(
      objects(
        pod('apps/namespaces/test-namespace/Deployment/foo,apps/namespaces/test-namespace/Deployment/foo'),
      ),
    );
    expect(graph.edges.map((e) => `${short(e.from)} -> ${short(e.to)}`)).toEqual([
      'Pod/test-namespace/test-pod -> Deployment/test-namespace/foo',
    ]);
  });
});
