import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createRestClient, type RestClient } from '../../scripts/control-plane/rest.js';

/** The shared control plane's coordinates (from global-setup.ts). */
export function controlPlane() {
  return inject('controlPlane');
}

export function adminClient(): RestClient {
  const cp = controlPlane();
  return createRestClient(cp.server, cp.adminToken);
}

/** A unique name with a readable prefix, so parallel test files never collide. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(3).toString('hex')}`;
}

/** Creates a fresh namespace for one test file or test; returns its name. */
export async function createNamespace(api: RestClient, prefix = 'test'): Promise<string> {
  const name = uniqueName(prefix);
  const res = await api.request('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  });
  if (res.status !== 201) throw new Error(`creating namespace ${name}: HTTP ${res.status}`);
  return name;
}

/** Polls `probe` until it returns a value (not undefined) or the timeout passes. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
