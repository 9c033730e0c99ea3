import { describe, expect, it } from 'vitest';
import { buildPlan, dependentsOf } from '../../../src/plan/index.js';
import { objects, short, shortWaves } from './objects.js';
import { id, WORDPRESS } from './wordpress.js';

describe('buildPlan apply waves', () => {
  it('wordpress: MySQL StatefulSet and Service first, the depending Service and Deployment after', () => {
    const plan = buildPlan({ apply: WORDPRESS, prune: [] });
    expect(shortWaves(plan.applyWaves)).toEqual([
      ['Service/default/wordpress-mysql', 'StatefulSet/default/wordpress-mysql'],
      ['Service/default/wordpress', 'Deployment/default/wordpress'],
    ]);
    expect(plan.pruneWaves).toEqual([]);
    expect(plan.errors).toEqual([]);
    expect(plan.edges).toEqual([
      {
        from: id('', 'Service', 'default', 'wordpress'),
        to: id('apps', 'StatefulSet', 'default', 'wordpress-mysql'),
        implicit: false,
      },
      {
        from: id('apps', 'Deployment', 'default', 'wordpress'),
        to: id('apps', 'StatefulSet', 'default', 'wordpress-mysql'),
        implicit: false,
      },
    ]);
  });

  it.each([
    {
      name: 'no dependencies: one wave in kind order, whatever the input order',
      yaml: `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: hook}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: app}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: app}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b, namespace: app}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: app}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: reader}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: sa, namespace: app}
`,
      waves: [
        [
          'ServiceAccount/app/sa',
          'ClusterRole/reader',
          'ConfigMap/app/a',
          'ConfigMap/app/b',
          'Deployment/app/web',
          'Widget/app/w',
          'ValidatingWebhookConfiguration/hook',
        ],
      ],
    },
    {
      name: 'a Namespace in the package goes in its own wave before what lives in it',
      yaml: `
apiVersion: v1
kind: Pod
metadata: {name: pod-a, namespace: continue-err-namespace}
---
apiVersion: v1
kind: Namespace
metadata: {name: continue-err-namespace}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: outside, namespace: default}
`,
      waves: [
        ['Namespace/continue-err-namespace', 'ConfigMap/default/outside'],
        ['Pod/continue-err-namespace/pod-a'],
      ],
    },
    {
      name: 'CRD before its custom resources (kpt e2e crd-and-cr)',
      yaml: `
apiVersion: kpt.dev/v1
kind: Custom
metadata: {name: cr}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: customs.kpt.dev}
spec:
  group: kpt.dev
  names: {kind: Custom, plural: customs}
  scope: Cluster
`,
      waves: [['CustomResourceDefinition/customs.kpt.dev'], ['Custom/cr']],
    },
    {
      name: 'a chain makes one wave per link',
      yaml: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  namespace: ns
  annotations: {config.kubernetes.io/depends-on: /namespaces/ns/ConfigMap/b}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: b
  namespace: ns
  annotations: {config.kubernetes.io/depends-on: /namespaces/ns/ConfigMap/a}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
`,
      waves: [['ConfigMap/ns/a'], ['ConfigMap/ns/b'], ['ConfigMap/ns/c']],
    },
  ])('$name', ({ yaml, waves }) => {
    expect(shortWaves(buildPlan({ apply: objects(yaml), prune: [] }).applyWaves)).toEqual(waves);
  });
});

describe('buildPlan prune waves', () => {
  const FIRST = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: first-nginx, namespace: prune-depends-on}
`;
  const SECOND = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: second-nginx
  namespace: prune-depends-on
  annotations:
    config.kubernetes.io/depends-on: apps/namespaces/prune-depends-on/Deployment/first-nginx
`;
  const CM = `
apiVersion: v1
kind: ConfigMap
metadata: {name: cm, namespace: prune-depends-on}
`;

  it('prunes dependents first (kpt e2e prune-depends-on: second-nginx, then first-nginx)', () => {
    const plan = buildPlan({ apply: objects(CM), prune: objects(`${FIRST}---${SECOND}`) });
    expect(shortWaves(plan.applyWaves)).toEqual([['ConfigMap/prune-depends-on/cm']]);
    expect(shortWaves(plan.pruneWaves)).toEqual([
      ['Deployment/prune-depends-on/second-nginx'],
      ['Deployment/prune-depends-on/first-nginx'],
    ]);
  });

  it('reverses the kind order inside a prune wave', () => {
    const plan = buildPlan({
      apply: [],
      prune: objects(`${SECOND}---
apiVersion: v1
kind: Namespace
metadata: {name: gone}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm-2, namespace: other}
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: other}
---${FIRST}`),
    });
    expect(shortWaves(plan.pruneWaves)).toEqual([
      ['Deployment/prune-depends-on/second-nginx'],
      [
        'Deployment/prune-depends-on/first-nginx',
        'Service/other/svc',
        'ConfigMap/other/cm-2',
        'Namespace/gone',
      ],
    ]);
  });

  it('keeps the edge from a package object to a prune object so the engine can refuse that prune', () => {
    const plan = buildPlan({
      apply: objects(`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: prune-depends-on
  annotations: {config.kubernetes.io/depends-on: /namespaces/prune-depends-on/ConfigMap/cm}
`),
      prune: objects(CM),
    });
    expect(plan.errors).toEqual([]);
    expect(shortWaves(plan.applyWaves)).toEqual([['Deployment/prune-depends-on/web']]);
    expect(shortWaves(plan.pruneWaves)).toEqual([['ConfigMap/prune-depends-on/cm']]);
    expect(dependentsOf(plan, id('', 'ConfigMap', 'prune-depends-on', 'cm')).map(short)).toEqual([
      'Deployment/prune-depends-on/web',
    ]);
  });

  it('never prunes an object that is also in the package', () => {
    const plan = buildPlan({ apply: objects(CM), prune: objects(`${CM}---${FIRST}`) });
    expect(shortWaves(plan.applyWaves)).toEqual([['ConfigMap/prune-depends-on/cm']]);
    expect(shortWaves(plan.pruneWaves)).toEqual([['Deployment/prune-depends-on/first-nginx']]);
  });
});

describe('buildPlan destroy', () => {
  it('deletes the whole inventory in reverse waves', () => {
    const inventory = objects(`
apiVersion: v1
kind: Namespace
metadata: {name: app}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec: {group: example.com, names: {kind: Widget, plural: widgets}}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: app}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm, namespace: app}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: app
  annotations: {config.kubernetes.io/depends-on: /namespaces/app/ConfigMap/cm}
`);
    const plan = buildPlan({ apply: [], prune: inventory, destroy: true });
    expect(plan.destroy).toBe(true);
    expect(plan.applyWaves).toEqual([]);
    expect(shortWaves(plan.pruneWaves)).toEqual([
      ['Deployment/app/web'],
      ['Widget/app/w', 'ConfigMap/app/cm'],
      ['CustomResourceDefinition/widgets.example.com', 'Namespace/app'],
    ]);
  });

  it('reverses wordpress: depending objects are deleted before MySQL', () => {
    const plan = buildPlan({ apply: [], prune: WORDPRESS, destroy: true });
    expect(shortWaves(plan.pruneWaves)).toEqual([
      ['Deployment/default/wordpress', 'Service/default/wordpress'],
      ['StatefulSet/default/wordpress-mysql', 'Service/default/wordpress-mysql'],
    ]);
  });
});
