import { describe, expect, it } from 'vitest';
import {
  goDuration,
  imageNotFoundMessage,
  missingConfig,
  normalizedImage,
} from '../../../scripts/control-plane/simulated-pod-status.js';

describe("the kubelet simulator's messages", () => {
  it.each([
    ['nginx', 'docker.io/library/nginx:latest'],
    ['example/app:1', 'docker.io/example/app:1'],
    ['registry.example.com/team/app:2', 'registry.example.com/team/app:2'],
    ['localhost:5000/app', 'localhost:5000/app:latest'],
    ['app@sha256:abc', 'docker.io/library/app@sha256:abc'],
  ])('normalises %s as containerd pulls it: %s', (image, want) => {
    expect(normalizedImage(image)).toBe(want);
  });

  it.each([
    [500, '500ms'],
    [1000, '1s'],
    [10_000, '10s'],
    [80_000, '1m20s'],
    [300_000, '5m0s'],
    [1500, '1.5s'],
  ])("prints %i ms as Go's Duration.String: %s", (ms, want) => {
    expect(goDuration(ms)).toBe(want);
  });

  it('words a missing tag as containerd does through the kubelet', () => {
    expect(imageNotFoundMessage('redis:alpin')).toBe(
      'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/redis:alpin": failed to resolve reference "docker.io/library/redis:alpin": docker.io/library/redis:alpin: not found',
    );
  });

  it('names the first Secret, ConfigMap or key the environment needs that is missing, as the kubelet does', async () => {
    const pod = {
      metadata: { namespace: 'ns' },
      spec: {
        containers: [
          {
            name: 'c',
            env: [
              { name: 'A', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'a' } } },
              { name: 'B', valueFrom: { secretKeyRef: { name: 'opt', key: 'b', optional: true } } },
              { name: 'C', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
            ],
            envFrom: [{ secretRef: { name: 'extra' } }],
          },
        ],
      },
    };
    const cluster = new Map<string, object>([['configmaps/cfg', { data: { a: '1' } }]]);
    const lookup = async (kind: string, name: string) => cluster.get(`${kind}/${name}`);
    expect(await missingConfig(pod, lookup)).toBe('secret "db" not found');
    cluster.set('secrets/db', { data: { user: 'x' } });
    expect(await missingConfig(pod, lookup)).toBe("couldn't find key password in Secret ns/db");
    cluster.set('secrets/db', { data: { password: 'x' } });
    expect(await missingConfig(pod, lookup)).toBe('secret "extra" not found');
    cluster.set('secrets/extra', {});
    expect(await missingConfig(pod, lookup)).toBeUndefined();
  });
});
