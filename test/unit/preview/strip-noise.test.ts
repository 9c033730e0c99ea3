import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { stripNoise } from '../../../src/preview/strip-noise.js';

const live: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'shop',
    uid: '6f1c',
    resourceVersion: '1234',
    generation: 3,
    creationTimestamp: '2024-01-01T00:00:00Z',
    selfLink: '/apis/apps/v1/namespaces/shop/deployments/web',
    managedFields: [{ manager: 'kpt-live-action', operation: 'Apply' }],
    deletionGracePeriodSeconds: 30,
    labels: { app: 'web' },
    annotations: {
      'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"Deployment"}',
      'deployment.kubernetes.io/revision': '7',
      'config.k8s.io/owning-inventory': 'inv-1',
    },
  },
  spec: { replicas: 2 },
  status: { readyReplicas: 2 },
};

describe('stripNoise', () => {
  it('drops server-written metadata, status and tool annotations, keeping what a user sets', () => {
    expect(stripNoise(live)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'web',
        namespace: 'shop',
        deletionGracePeriodSeconds: 30,
        labels: { app: 'web' },
        annotations: { 'config.k8s.io/owning-inventory': 'inv-1' },
      },
      spec: { replicas: 2 },
    });
  });

  it('removes an annotations map that only held noise, so it equals an object without annotations', () => {
    const obj: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm', annotations: { 'deployment.kubernetes.io/revision': '1' } },
    };
    expect(stripNoise(obj).metadata).toEqual({ name: 'cm' });
  });

  it('does not modify its input', () => {
    const before = structuredClone(live);
    stripNoise(live);
    expect(live).toEqual(before);
  });
});
