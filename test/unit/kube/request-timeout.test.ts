import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { CredentialProvider } from '../../../src/kube/credentials.js';
import { createHttpClient } from '../../../src/kube/http-client.js';
import { createTransport } from '../../../src/kube/transport.js';
import { throwawayCert } from '../../support/pki.js';

/**
 * The request pool's idle limit is set once on each pooled socket (not by every request): a request whose
 * server goes silent still fails as timed out, a slow answer inside the limit is not cut, and a pooled
 * connection that sat idle between requests is not held against the next one.
 */

/** A local HTTPS server: `/silent` never answers, `/slow?ms=N` answers after N ms, anything else at once. */
async function server() {
  let connections = 0;
  const sockets = new Set<Socket>();
  const srv = https.createServer(throwawayCert(), (req, res) => {
    const url = new URL(req.url ?? '/', 'https://x');
    if (url.pathname === '/silent') return; // the connection stays open, nothing comes back
    const answer = () => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ path: url.pathname }));
    };
    const ms = Number(url.searchParams.get('ms') ?? 0);
    if (ms > 0) setTimeout(answer, ms);
    else answer();
  });
  srv.on('secureConnection', (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => srv.close(() => r()));
    },
  };
}

const credentials: CredentialProvider = {
  get: async () => ({ headers: {}, execGeneration: 0 }),
  refresh: async () => false,
  execRuns: 0,
};
const once = { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, budgetMs: 1000 };

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function clientFor(url: string, requestTimeoutMs: number) {
  const transport = await createTransport(
    { name: 'local', server: url, insecureSkipTlsVerify: true },
    { requestTimeoutMs },
  );
  cleanup.push(() => transport.destroy());
  return { transport, http: createHttpClient(url, transport, credentials, { retry: once }) };
}

describe('request idle timeout', () => {
  it('fails a request whose server stays silent, with ETIMEDOUT, after the limit', async () => {
    const s = await server();
    cleanup.push(s.close);
    const { transport, http } = await clientFor(s.url, 300);
    expect(transport.agentTimesOut).toBe(true);
    const started = Date.now();
    await expect(http.request('GET', '/silent', { idempotent: true })).rejects.toMatchObject({
      code: 'ETIMEDOUT',
    });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(5000);
  });

  it('lets an answer slower than most but inside the limit through, and reuses the connection', async () => {
    const s = await server();
    cleanup.push(s.close);
    const { http } = await clientFor(s.url, 800);
    await expect(http.request('GET', '/slow?ms=400', { idempotent: true })).resolves.toEqual({
      path: '/slow',
    });
    // idle in the pool for longer than the slow answer took, then used again: one connection in all
    await new Promise((r) => setTimeout(r, 300));
    await expect(http.request('GET', '/slow?ms=400', { idempotent: true })).resolves.toEqual({
      path: '/slow',
    });
    await expect(http.request('GET', '/fast', { idempotent: true })).resolves.toEqual({ path: '/fast' });
    expect(s.connections()).toBe(1);
  });
});
