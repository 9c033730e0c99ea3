import { describe, expect, it } from 'vitest';
import { KubeApiError } from '../../../src/kube/api-error.js';
import { isRetryable, withRetry } from '../../../src/kube/retry.js';

const policy = { attempts: 5, baseDelayMs: 100, maxDelayMs: 1000, budgetMs: 60_000 };

describe('withRetry', () => {
  it('retries throttling and server errors, honouring Retry-After, then succeeds', async () => {
    const delays: number[] = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls++;
        if (calls === 1) throw new KubeApiError(429, 'TooManyRequests', 'slow down', [], 3);
        if (calls === 2) throw new KubeApiError(503, 'ServiceUnavailable', 'busy');
        if (calls === 3) throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
        return 'ok';
      },
      policy,
      () => 0.5,
      async (ms) => void delays.push(ms),
    );
    expect(result).toBe('ok');
    expect(calls).toBe(4);
    expect(delays[0]).toBe(3000); // Retry-After wins over the jittered 50ms
    expect(delays.slice(1)).toEqual([100, 200]); // 0.5 × 200, 0.5 × 400
  });

  it('does not retry client errors or deterministic server errors', async () => {
    for (const err of [
      new KubeApiError(422, 'Invalid', 'bad field'),
      new KubeApiError(409, 'Conflict', 'conflict'),
      new KubeApiError(500, '', 'failed to create typed patch object: .spec.replicas: expected numeric'),
    ]) {
      let calls = 0;
      await expect(
        withRetry(
          async () => {
            calls++;
            throw err;
          },
          policy,
          () => 0,
          async () => {},
        ),
      ).rejects.toBe(err);
      expect(calls).toBe(1);
      expect(isRetryable(err)).toBe(false);
    }
  });

  it('gives up after the attempts run out', async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw new KubeApiError(500, 'InternalError', 'etcd timeout');
        },
        policy,
        () => 0,
        async () => {},
      ),
    ).rejects.toThrow('etcd timeout');
    expect(calls).toBe(5);
  });
});
