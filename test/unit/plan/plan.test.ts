import { describe, expect, it } from 'vitest';
import {
  buildPlan,
  dependenciesOf,
  dependentsOf,
  formatPlan,
  formatPlanErrors,
  type Plan,
  waveIndexOf,
} from '../../../src/plan/index.js';
import type { ObjectId } from '../../../src/plan/object-id.js';
import { objects, short, shortWaves } from './objects.js';

// The shared wordpress-with-dependencies package, namespaces defaulted to `default` as the loader does.
const WORDPRESS = objects(`
apiVersion: v1
kind: Service
metadata:
  name: wordpress
  namespace: default
  annotations:
    config.kubernetes.io/depends-on: apps/namespaces/default/StatefulSet/wordpress-mysql
spec: {type: LoadBalancer}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: wordpress
  namespace: default
  annotations:
    config.kubernetes.io/depends-on: apps/namespaces/default/StatefulSet/wordpress-mysql
---
apiVersion: v1
kind: Service
metadata: {name: wordpress-mysql, namespace: default}
spec: {clusterIP: None}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: wordpress-mysql, namespace: default}
`);

const id = (group: string, kind: string, namespace: string, name: string): ObjectId => ({
  group,
  kind,
  namespace,
  name,
});

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

describe('plan lookups', () => {
  const plan = buildPlan({ apply: WORDPRESS, prune: [] });
  const mysql = id('apps', 'StatefulSet', 'default', 'wordpress-mysql');
  const web = id('apps', 'Deployment', 'default', 'wordpress');

  it.each([
    ['StatefulSet', mysql, 0],
    ['Deployment', web, 1],
    ['an object not in the plan', id('', 'Pod', 'default', 'x'), undefined],
  ])('waveIndexOf %s', (_name, target, wave) => {
    expect(waveIndexOf(plan, target)).toBe(wave);
  });

  it('dependenciesOf and dependentsOf follow direct edges only', () => {
    expect(dependenciesOf(plan, web)).toEqual([mysql]);
    expect(dependenciesOf(plan, mysql)).toEqual([]);
    expect(dependentsOf(plan, mysql).map(short)).toEqual([
      'Service/default/wordpress',
      'Deployment/default/wordpress',
    ]);
    expect(dependentsOf(plan, web)).toEqual([]);
  });

  it('returns copies, so callers cannot corrupt the cached index', () => {
    dependentsOf(plan, mysql).pop();
    expect(dependentsOf(plan, mysql)).toHaveLength(2);
  });

  it('waveIndexOf uses the prune waves for pruned objects', () => {
    const destroy: Plan = buildPlan({ apply: [], prune: WORDPRESS, destroy: true });
    expect(waveIndexOf(destroy, web)).toBe(0);
    expect(waveIndexOf(destroy, mysql)).toBe(1);
  });
});

describe('formatPlan', () => {
  it('prints waves, edges and errors', () => {
    const plan = buildPlan({
      apply: WORDPRESS,
      prune: objects(`
apiVersion: v1
kind: Namespace
metadata: {name: old}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  namespace: old
  annotations: {config.kubernetes.io/depends-on: /ConfigMap/nowhere}
`),
    });
    expect(formatPlan(plan)).toBe(
      [
        'plan: 2 apply waves (4 objects), 1 prune wave (1 object)',
        'apply wave 1:',
        '  service/wordpress-mysql (default)',
        '  statefulset.apps/wordpress-mysql (default)',
        'apply wave 2:',
        '  service/wordpress (default)',
        '  deployment.apps/wordpress (default)',
        'prune wave 1:',
        '  namespace/old',
        'dependencies:',
        '  configmap/cm (old) -> namespace/old (implicit)',
        '  service/wordpress (default) -> statefulset.apps/wordpress-mysql (default)',
        '  deployment.apps/wordpress (default) -> statefulset.apps/wordpress-mysql (default)',
        'errors:',
        '  invalid object: "old_cm__ConfigMap": invalid "config.kubernetes.io/depends-on" annotation: ' +
          'external dependency: /namespaces/old/ConfigMap/cm -> /ConfigMap/nowhere',
      ].join('\n'),
    );
  });

  it('names delete waves for destroy', () => {
    const text = formatPlan(buildPlan({ apply: [], prune: WORDPRESS, destroy: true }));
    expect(text.split('\n').slice(0, 2)).toEqual(['plan: 2 delete waves (4 objects)', 'delete wave 1:']);
  });
});
