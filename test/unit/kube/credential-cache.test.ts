import { describe, expect, it } from 'vitest';
import { cachedCredential, renewAt } from '../../../src/kube/credential-cache.js';
import { parseExecCredential } from '../../../src/kube/exec-plugin.js';

/** A credential source whose answers the test releases by hand (a plain async function, no cluster). */
function source(expiresIn?: number, clock = { now: 0 }) {
  let calls = 0;
  const pending: (() => void)[] = [];
  const fetch = () => {
    calls++;
    const n = calls;
    return new Promise<{ n: number; expiresAt?: number }>((resolve) => {
      pending.push(() =>
        resolve({ n, expiresAt: expiresIn === undefined ? undefined : clock.now + expiresIn }),
      );
    });
  };
  return {
    fetch,
    calls: () => calls,
    release: () => {
      for (const p of pending.splice(0)) p();
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('cachedCredential', () => {
  it('runs once for many concurrent callers (single flight) and caches an answer without expiry', async () => {
    const s = source();
    const c = cachedCredential(s.fetch);
    const waiting = Array.from({ length: 32 }, () => c.get());
    await tick();
    s.release();
    const got = await Promise.all(waiting);
    expect(new Set(got.map((g) => g.value.n))).toEqual(new Set([1]));
    expect((await c.get()).value.n).toBe(1);
    expect(s.calls()).toBe(1);
    expect(c.fetches).toBe(1);
  });

  it('renews shortly before expiry, once, however many requests are in flight', async () => {
    const clock = { now: 1_000_000 };
    const s = source(60_000, clock);
    const c = cachedCredential(s.fetch, () => clock.now);
    const first = c.get();
    await tick();
    s.release();
    expect((await first).value.n).toBe(1);
    clock.now += 45_000;
    expect((await c.get()).value.n).toBe(1);
    clock.now += 6_000; // within 10 s of expiry
    const burst = Array.from({ length: 32 }, () => c.get());
    await tick();
    expect(s.calls()).toBe(2);
    s.release();
    expect(new Set((await Promise.all(burst)).map((g) => g.value.n))).toEqual(new Set([2]));
  });

  it('a 401 refreshes once: callers holding the same generation share one fetch, later ones reuse it', async () => {
    const s = source();
    const c = cachedCredential(s.fetch);
    const g = c.get();
    await tick();
    s.release();
    const { generation } = await g;
    const refreshes = Array.from({ length: 10 }, () => c.refresh(generation));
    await tick();
    s.release();
    const after = await Promise.all(refreshes);
    expect(after.every((a) => a.generation === generation + 1)).toBe(true);
    // a request that failed with the old generation after the refresh finished does not start another
    expect((await c.refresh(generation)).generation).toBe(generation + 1);
    expect(s.calls()).toBe(2);
  });

  it('a failed fetch is not cached: the next caller tries again', async () => {
    let n = 0;
    const c = cachedCredential(async (): Promise<{ n: number; expiresAt?: number }> => {
      n++;
      if (n === 1) throw new Error('plugin failed');
      return { n };
    });
    await expect(c.get()).rejects.toThrow('plugin failed');
    expect((await c.get()).value.n).toBe(2);
  });

  it('renewAt: a fifth of the life before expiry, at most 10 s', () => {
    expect(renewAt(0, 3_600_000)).toBe(3_590_000);
    expect(renewAt(0, 20_000)).toBe(16_000);
  });
});

describe('parseExecCredential', () => {
  const v1 = 'client.authentication.k8s.io/v1';
  const cred = (status: object, apiVersion = v1) =>
    JSON.stringify({ apiVersion, kind: 'ExecCredential', status });

  it('reads a token and its expiry, or a certificate pair', () => {
    expect(
      parseExecCredential(cred({ token: 't', expirationTimestamp: '2030-01-01T00:00:00Z' }), v1, 'p'),
    ).toEqual({
      token: 't',
      clientCertificateData: undefined,
      clientKeyData: undefined,
      expiresAt: Date.parse('2030-01-01T00:00:00Z'),
    });
    expect(
      parseExecCredential(cred({ clientCertificateData: 'C', clientKeyData: 'K' }), v1, 'p'),
    ).toMatchObject({
      clientCertificateData: 'C',
      clientKeyData: 'K',
      expiresAt: undefined,
    });
  });

  it.each([
    ['not json', /not an ExecCredential/],
    [JSON.stringify({ kind: 'Other' }), /not kind ExecCredential/],
    [
      cred({ token: 't' }, 'client.authentication.k8s.io/v1beta1'),
      /returned client\.authentication\.k8s\.io\/v1beta1/,
    ],
    [cred({}), /neither a token nor a client certificate/],
    [cred({ clientCertificateData: 'C' }), /only one of/],
    [cred({ token: 't', expirationTimestamp: 'soon' }), /not a time/],
  ])('refuses %j', (out, message) => {
    expect(() => parseExecCredential(out, v1, 'my-plugin')).toThrow(message);
  });
});
