import { describe, expect, it } from 'vitest';
import type { ObjectId } from '../../../src/common/object-id.js';
import { compareForApply, kindOrderIndex } from '../../../src/plan/kind-order.js';

const id = (group: string, kind: string, name = 'x', namespace = ''): ObjectId => ({
  group,
  kind,
  name,
  namespace,
});

describe('kindOrderIndex', () => {
  it.each([
    ['', 'Namespace', -22],
    ['', 'ResourceQuota', -21],
    ['apiextensions.k8s.io', 'CustomResourceDefinition', -19],
    ['', 'Service', -8],
    ['apps', 'Deployment', -4],
    ['policy', 'PodDisruptionBudget', -1],
    ['', 'Pod', 0],
    ['example.com', 'Widget', 0],
    // a listed kind in another group is just another kind
    ['example.com', 'Namespace', 0],
    ['admissionregistration.k8s.io', 'ValidatingWebhookConfiguration', 1],
  ])('%s/%s is %i', (group, kind, index) => {
    expect(kindOrderIndex(group, kind)).toBe(index);
  });
});

describe('compareForApply', () => {
  it('sorts every listed kind first, unlisted kinds by group then kind, validating webhooks last', () => {
    const expected = [
      id('', 'Namespace'),
      id('', 'ResourceQuota'),
      id('storage.k8s.io', 'StorageClass'),
      id('apiextensions.k8s.io', 'CustomResourceDefinition'),
      id('admissionregistration.k8s.io', 'MutatingWebhookConfiguration'),
      id('', 'ServiceAccount'),
      id('extensions', 'PodSecurityPolicy'),
      id('policy', 'PodSecurityPolicy'),
      id('rbac.authorization.k8s.io', 'Role'),
      id('rbac.authorization.k8s.io', 'ClusterRole'),
      id('rbac.authorization.k8s.io', 'RoleBinding'),
      id('rbac.authorization.k8s.io', 'ClusterRoleBinding'),
      id('', 'ConfigMap'),
      id('', 'Secret'),
      id('', 'Service'),
      id('', 'LimitRange'),
      id('scheduling.k8s.io', 'PriorityClass'),
      id('extensions', 'Deployment'),
      id('apps', 'Deployment'),
      id('apps', 'StatefulSet'),
      id('batch', 'CronJob'),
      id('policy', 'PodDisruptionBudget'),
      id('', 'PersistentVolumeClaim'),
      id('', 'Pod'),
      id('apps', 'DaemonSet'),
      id('batch', 'Job'),
      id('example.com', 'Widget'),
      id('networking.k8s.io', 'Ingress'),
      id('admissionregistration.k8s.io', 'ValidatingWebhookConfiguration'),
    ];
    // reversed and rotated so that neither the input order nor a stable sort can produce the answer
    const shuffled = [...expected].reverse();
    shuffled.push(...shuffled.splice(0, 7));
    expect([...shuffled].sort(compareForApply)).toEqual(expected);
  });

  it.each([
    ['same kind: namespace before name', id('', 'Pod', 'b', 'ns-a'), id('', 'Pod', 'a', 'ns-b')],
    ['same kind and namespace: by name', id('', 'Pod', 'a', 'ns'), id('', 'Pod', 'b', 'ns')],
    ['cluster-scoped (empty namespace) before namespaced', id('', 'Pod', 'z'), id('', 'Pod', 'a', 'ns')],
    ['byte order, not locale: upper case first', id('', 'Pod', 'Zed', 'ns'), id('', 'Pod', 'alpha', 'ns')],
    ['unlisted kinds: core group first', id('', 'Zebra'), id('apps', 'Alpha')],
  ])('%s', (_name, first, second) => {
    expect(compareForApply(first, second)).toBeLessThan(0);
    expect(compareForApply(second, first)).toBeGreaterThan(0);
  });

  it('is 0 only for the same id', () => {
    expect(compareForApply(id('', 'Pod', 'a', 'ns'), id('', 'Pod', 'a', 'ns'))).toBe(0);
  });
});
