import { describe, expect, it } from 'vitest';
import {
  buildPlan,
  dependenciesOf,
  dependentsOf,
  formatPlan,
  type Plan,
  waveIndexOf,
} from '../../../src/plan/index.js';
import { objects, short } from './objects.js';
import { id, WORDPRESS } from './wordpress.js';

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
