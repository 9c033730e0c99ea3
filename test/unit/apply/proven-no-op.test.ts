import { describe, expect, it } from 'vitest';
import { provenNoOp } from '../../../src/apply/proven-no-op.js';
import type { KubeObject } from '../../../src/common/kube-object.js';

const ours = 'kpt-live-action';
const inventory = { 'config.k8s.io/owning-inventory': 'inv-1' };

/** The Deployment we apply (with our owning-inventory annotation, as the pre-flight sends it). */
function manifest(): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'team', labels: { app: 'web' }, annotations: { ...inventory } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.25',
              ports: [{ containerPort: 80 }],
              env: [{ name: 'A', value: '1' }],
            },
          ],
        },
      },
    },
  };
}

/** Our field set for manifest(), as a 1.37 API server records it (a port's key has the defaulted protocol). */
function ourFields(): Record<string, unknown> {
  return {
    'f:metadata': {
      'f:annotations': { 'f:config.k8s.io/owning-inventory': {} },
      'f:labels': { 'f:app': {} },
    },
    'f:spec': {
      'f:replicas': {},
      'f:selector': {},
      'f:template': {
        'f:metadata': { 'f:labels': { 'f:app': {} } },
        'f:spec': {
          'f:containers': {
            'k:{"name":"web"}': {
              '.': {},
              'f:env': { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
              'f:image': {},
              'f:name': {},
              'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
            },
          },
        },
      },
    },
  };
}

/** The live Deployment after our apply: server defaults, status, a sidecar and a label of another manager. */
function live(): KubeObject {
  const m = manifest();
  const spec = m.spec as { template: { spec: { containers: Record<string, unknown>[] } } };
  spec.template.spec.containers[0].ports = [{ containerPort: 80, protocol: 'TCP' }];
  spec.template.spec.containers[0].imagePullPolicy = 'IfNotPresent';
  spec.template.spec.containers.push({ name: 'proxy', image: 'envoy' });
  return {
    ...m,
    metadata: {
      ...m.metadata,
      uid: '9c1f',
      resourceVersion: '1818',
      generation: 1,
      labels: { app: 'web', team: 'a' },
      managedFields: [
        {
          manager: ours,
          operation: 'Apply',
          apiVersion: 'apps/v1',
          time: '2026-11-25T01:58:13Z',
          fieldsType: 'FieldsV1',
          fieldsV1: ourFields(),
        },
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          apiVersion: 'apps/v1',
          subresource: 'status',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:status': { 'f:replicas': {} } },
        },
      ],
    },
    spec: { ...(m.spec as object), strategy: { type: 'RollingUpdate' } },
    status: { replicas: 1 },
  };
}

type Edit = (o: KubeObject) => void;
const spec = (o: KubeObject) =>
  o.spec as {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    template: { spec: { containers: Record<string, unknown>[] } };
  };
const container = (o: KubeObject, i = 0) => spec(o).template.spec.containers[i];

describe('provenNoOp', () => {
  it('proves an object our last apply left as it is, whatever else the server and others added', () => {
    expect(provenNoOp(live(), manifest(), ours)).toBe(true);
  });

  it('is false when the manifest changed: a value, an added or a removed field, a list item', () => {
    const changes: [string, Edit][] = [
      ['a value', (m) => (spec(m).replicas = 2)],
      ['an atomic map', (m) => (spec(m).selector.matchLabels.tier = 'x')],
      ['an added field', (m) => (container(m).command = ['nginx'])],
      ['a removed field', (m) => delete container(m).image],
      ['a removed annotation', (m) => (m.metadata.annotations = {})],
      ['an added list item', (m) => (container(m).env as unknown[]).push({ name: 'B', value: '2' })],
      ['a changed merge key', (m) => (container(m).ports = [{ containerPort: 81 }])],
      ['a null', (m) => ((m.metadata as Record<string, unknown>).creationTimestamp = null)],
      ['an empty map', (m) => (container(m).resources = {})],
    ];
    for (const [what, edit] of changes) {
      const m = manifest();
      edit(m);
      expect(provenNoOp(live(), m, ours), what).toBe(false);
    }
  });

  it('is false when the live object moved: another writer changed a value we set, or deleted it', () => {
    const drifts: [string, Edit][] = [
      ['a changed value', (l) => (container(l).image = 'nginx:1.26')],
      ['a removed list item', (l) => (container(l, 0).env = [])],
      ['a normalised value', (l) => (spec(l).replicas = '1' as unknown as number)],
      ['being deleted', (l) => (l.metadata.deletionTimestamp = '2026-11-25T02:00:00Z')],
    ];
    for (const [what, edit] of drifts) {
      const l = live();
      edit(l);
      expect(provenNoOp(l, manifest(), ours), what).toBe(false);
    }
  });

  it('is false unless one Apply entry of ours, of the same apiVersion and no subresource, owns the fields', () => {
    const entries: [string, (e: Record<string, unknown>[]) => void][] = [
      ['no entry of ours', (e) => e.shift()],
      ['another version', (e) => (e[0].apiVersion = 'apps/v1beta2')],
      ['an update, not an apply', (e) => (e[0].operation = 'Update')],
      ['a subresource', (e) => (e[0].subresource = 'scale')],
      ['two entries', (e) => e.push({ ...e[0], operation: 'Update' })],
      [
        'a field taken from us',
        (e) => delete (e[0].fieldsV1 as { 'f:spec': Record<string, unknown> })['f:spec']['f:replicas'],
      ],
    ];
    for (const [what, edit] of entries) {
      const l = live();
      edit(l.metadata.managedFields as Record<string, unknown>[]);
      expect(provenNoOp(l, manifest(), ours), what).toBe(false);
    }
  });

  it('matches merge-keyed items one to one, in the live order, others between them', () => {
    const twoEnv = (o: KubeObject, env: { name: string; value: string }[]) => {
      container(o).env = env;
      return o;
    };
    const a = { name: 'A', value: '1' };
    const b = { name: 'B', value: '2' };
    const l = (env: { name: string; value: string }[]) => {
      const o = twoEnv(live(), env);
      // our set then lists B's entry too
      const withB = JSON.stringify(ourFields()).replace(
        '"f:env":{',
        '"f:env":{"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{},"f:value":{}},',
      );
      (o.metadata.managedFields as Record<string, unknown>[])[0].fieldsV1 = JSON.parse(withB);
      return o;
    };
    const m = twoEnv(manifest(), [a, b]);
    expect(provenNoOp(l([a, b]), m, ours)).toBe(true);
    expect(provenNoOp(l([a, { name: 'X', value: '0' }, b]), m, ours)).toBe(true);
    expect(provenNoOp(l([b, a]), m, ours)).toBe(false);
    expect(provenNoOp(l([a]), m, ours)).toBe(false);
    expect(provenNoOp(l([a, b]), twoEnv(manifest(), [a, a]), ours)).toBe(false);
  });

  it('reads set lists item for item, in order', () => {
    const cm = (finalizers: string[]): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'team', finalizers, annotations: { ...inventory } },
      data: { a: '1' },
    });
    const withEntry = (o: KubeObject, fieldsV1: Record<string, unknown>): KubeObject => ({
      ...o,
      metadata: {
        ...o.metadata,
        managedFields: [
          { manager: ours, operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1 },
        ],
      },
    });
    const fields = {
      'f:data': { 'f:a': {} },
      'f:metadata': {
        'f:annotations': { 'f:config.k8s.io/owning-inventory': {} },
        'f:finalizers': { 'v:"a.dev/x"': {}, 'v:"a.dev/y"': {} },
      },
    };
    const l = withEntry(cm(['a.dev/x', 'other.dev/z', 'a.dev/y']), fields);
    expect(provenNoOp(l, cm(['a.dev/x', 'a.dev/y']), ours)).toBe(true);
    expect(provenNoOp(l, cm(['a.dev/y', 'a.dev/x']), ours)).toBe(false);
    expect(provenNoOp(l, cm(['a.dev/x']), ours)).toBe(false);
    expect(provenNoOp(l, cm(['a.dev/x', 'a.dev/w']), ours)).toBe(false);
  });
});
