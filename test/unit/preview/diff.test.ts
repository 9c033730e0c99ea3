import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { diffObjects } from '../../../src/preview/diff.js';

interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: { containerPort: number }[];
  resources?: unknown;
}

type Deployment = KubeObject & {
  spec: {
    replicas: number;
    selector: unknown;
    template: { metadata: unknown; spec: { containers: Container[]; dnsPolicy?: string } };
  };
};

function deployment(patch: (d: Deployment) => void = () => {}): KubeObject {
  const d: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', labels: { app: 'web', 'app.kubernetes.io/name': 'web' } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            { name: 'web', image: 'nginx:1.25', args: ['--a', '--b'], ports: [{ containerPort: 80 }] },
            { name: 'sidecar', image: 'envoy:1' },
          ],
          dnsPolicy: 'ClusterFirst',
        },
      },
    },
  };
  patch(d);
  return d;
}

/** The +/- lines of a diff, without context. */
const changedLines = (diff: string) => diff.split('\n').filter((l) => l.startsWith('+') || l.startsWith('-'));

describe('diffObjects', () => {
  it('reports exactly the changed field, and only its lines change in the diff', () => {
    const { changes, diff } = diffObjects(
      deployment(),
      deployment((d) => {
        d.spec.replicas = 3;
      }),
    );
    expect(changes).toEqual([{ path: 'spec.replicas', op: 'change', before: '1', after: '3' }]);
    expect(changedLines(diff)).toEqual(['-  replicas: 1', '+  replicas: 3']);
    expect(diff.split('\n')).toHaveLength(2 + 3 + 3);
  });

  it('ignores noise: status, managedFields, resourceVersion, generation, uid, timestamps', () => {
    const live = deployment((d) => {
      Object.assign(d.metadata, {
        uid: 'u',
        resourceVersion: '9',
        generation: 4,
        creationTimestamp: 'x',
        managedFields: [{}],
      });
      d.status = { replicas: 1 };
    });
    expect(diffObjects(live, deployment())).toEqual({ changes: [], diff: '' });
  });

  it('matches containers by name, so a container inserted first does not shift the comparison', () => {
    const desired = deployment((d) => {
      d.spec.template.spec.containers.unshift({ name: 'init-ish', image: 'busybox' });
      d.spec.template.spec.containers[2].image = 'envoy:2';
    });
    const { changes } = diffObjects(deployment(), desired);
    expect(changes).toEqual([
      { path: 'spec.template.spec.containers[0]', op: 'add', after: '{"name":"init-ish","image":"busybox"}' },
      { path: 'spec.template.spec.containers[2].image', op: 'change', before: 'envoy:1', after: 'envoy:2' },
    ]);
  });

  it('compares lists of scalars as one value', () => {
    const { changes } = diffObjects(
      deployment(),
      deployment((d) => {
        d.spec.template.spec.containers[0].args = ['--a'];
      }),
    );
    expect(changes).toEqual([
      {
        path: 'spec.template.spec.containers[0].args',
        op: 'change',
        before: '["--a","--b"]',
        after: '["--a"]',
      },
    ]);
  });

  it('does not report fields only the live object has outside labels/annotations/data, unless asked', () => {
    const desired = deployment((d) => {
      delete d.spec.template.spec.dnsPolicy;
      delete (d.metadata.labels as Record<string, string>)['app.kubernetes.io/name'];
    });
    const quiet = diffObjects(deployment(), desired);
    expect(quiet.changes).toEqual([
      { path: 'metadata.labels["app.kubernetes.io/name"]', op: 'remove', before: 'web' },
    ]);
    expect(quiet.diff).not.toContain('dnsPolicy');
    const loud = diffObjects(deployment(), desired, { reportRemovals: true });
    expect(loud.changes.map((c) => c.path)).toEqual([
      'metadata.labels["app.kubernetes.io/name"]',
      'spec.template.spec.dnsPolicy',
    ]);
    expect(changedLines(loud.diff)).toEqual([
      '-    app.kubernetes.io/name: web',
      '-      dnsPolicy: ClusterFirst',
    ]);
  });

  it('reports a whole new map once, at its top', () => {
    const { changes } = diffObjects(
      deployment(),
      deployment((d) => {
        d.spec.template.spec.containers[0].resources = { limits: { cpu: '1' } };
      }),
    );
    expect(changes).toEqual([
      { path: 'spec.template.spec.containers[0].resources', op: 'add', after: '{"limits":{"cpu":"1"}}' },
    ]);
  });

  it('shows a create as every line added and no field changes', () => {
    const { changes, diff } = diffObjects(undefined, deployment());
    expect(changes).toEqual([]);
    expect(diff.split('\n').every((l) => l.startsWith('+'))).toBe(true);
    expect(diff).toContain('+  replicas: 1');
  });

  it('keeps the desired key order even when the live object lists keys differently', () => {
    const live = deployment();
    const reordered = {
      kind: live.kind,
      metadata: live.metadata,
      apiVersion: live.apiVersion,
      spec: live.spec,
    } as KubeObject;
    expect(
      diffObjects(
        reordered,
        deployment((d) => {
          d.spec.replicas = 2;
        }),
      ).diff.startsWith(' '),
    ).toBe(true);
    expect(
      changedLines(
        diffObjects(
          reordered,
          deployment((d) => {
            d.spec.replicas = 2;
          }),
        ).diff,
      ),
    ).toHaveLength(2);
  });

  it('reports Secret keys redacted, with sizes and without values', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const secret = (data: Record<string, string>): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data,
    });
    const result = diffObjects(
      secret({ password: b64('old-password-1'), user: b64('admin-user') }),
      secret({ password: b64('new-password-12'), user: b64('admin-user'), token: b64('tok-tok-tok') }),
    );
    expect(result.changes).toEqual([
      { path: 'data.password', op: 'change', redacted: true, beforeBytes: 14, afterBytes: 15 },
      { path: 'data.token', op: 'add', redacted: true, afterBytes: 11 },
    ]);
    expect(changedLines(result.diff)).toEqual([
      '-  password: (hidden, 14 bytes)',
      '+  password: (hidden, 15 bytes, changed)',
      '+  token: (hidden, 11 bytes)',
    ]);
    const text = JSON.stringify(result);
    for (const value of [
      'old-password-1',
      'new-password-12',
      'tok-tok-tok',
      b64('new-password-12'),
      b64('admin-user'),
    ]) {
      expect(text).not.toContain(value);
    }
  });

  it('hides values of other Secrets wherever they show up', () => {
    const cm = (note: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', annotations: { note } },
      data: { url: `db://u:${note}@h` },
    });
    const result = diffObjects(cm('pw-one-1234'), cm('pw-two-5678'), {
      secretValues: ['pw-one-1234', 'pw-two-5678'],
    });
    expect(result.changes).toEqual([
      { path: 'metadata.annotations.note', op: 'change', redacted: true },
      { path: 'data.url', op: 'change', before: 'db://u:***@h', after: 'db://u:***@h' },
    ]);
    expect(result.diff).not.toMatch(/pw-(one|two)/);
  });
});
