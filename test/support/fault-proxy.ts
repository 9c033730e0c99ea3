import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { throwawayCert } from './pki.js';

/**
 * An HTTPS proxy on loopback in front of the real API server that injects the faults real networks and
 * overloaded servers produce, for a seeded fraction of requests:
 *
 *   throttle      429 with Retry-After (the server did nothing)
 *   error-500     500 InternalError, before forwarding (the server did nothing)
 *   error-503     503 ServiceUnavailable, before forwarding
 *   reset-before  the connection is destroyed before forwarding
 *   reset-after   the request IS forwarded and answered, then the connection is destroyed before the client
 *                 hears the answer: the one fault whose effect the client cannot know, as on a real network
 *   slow          the answer is held back for a while
 *
 * and watch streams that drop after a while (every watch, when `watchDropMs` is set). Whether a request
 * gets a fault depends only on the seed, the request (method, path, query without resourceVersion) and how
 * many such requests came before, not on timing or interleaving, so a failing seed replays closely.
 * The client authenticates to the real server with its own bearer token, passed through unchanged.
 */

export type FaultKind = 'throttle' | 'error-500' | 'error-503' | 'reset-before' | 'reset-after' | 'slow';
export const AllFaults: readonly FaultKind[] = [
  'throttle',
  'error-500',
  'error-503',
  'reset-before',
  'reset-after',
  'slow',
];

export interface FaultProxyOptions {
  /** The real API server, e.g. `https://127.0.0.1:6443` (its certificate is not checked). */
  target: string;
  seed: number;
  /** Fraction of requests that get a fault (0..1). */
  rate: number;
  kinds?: readonly FaultKind[];
  /** How long a slow answer is held back: [min, max] ms. */
  slowMs?: [number, number];
  /** Every watch stream is cut after [min, max] ms. */
  watchDropMs?: [number, number];
  retryAfterSeconds?: number;
  /** Only requests this accepts may get a fault (default: all). */
  eligible?: (method: string, url: URL) => boolean;
  /**
   * Awaited before a request is forwarded: what another client does to the cluster between the moment the
   * request was sent and the moment the API server gets it (a controller's write racing ours).
   */
  beforeForward?: (method: string, url: URL) => Promise<void> | void;
}

export interface ProxyRecord {
  method: string;
  path: string;
  fault?: FaultKind | 'watch-drop';
  /** When the request reached the proxy (ms since the epoch). */
  at: number;
  /** The request reached the API server. */
  forwarded: boolean;
  /** When it was sent on to the API server. */
  forwardedAt?: number;
  /** The status the API server answered (when forwarded). */
  status?: number;
  watch: boolean;
}

export interface FaultProxy {
  url: string;
  records: ProxyRecord[];
  /** How many requests got each fault. */
  counts(): Record<string, number>;
  /** A kubeconfig file for this proxy with a bearer token (insecure-skip-tls-verify: the cert is throwaway). */
  kubeconfig(token: string, extra?: { impersonate?: string; namespace?: string }): string;
  close(): Promise<void>;
}

/** mulberry32: a tiny seeded PRNG, good enough to pick faults. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a, to turn a request key into a PRNG seed. */
function hash(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const statusBody = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code });

export async function startFaultProxy(opts: FaultProxyOptions): Promise<FaultProxy> {
  const kinds = opts.kinds ?? AllFaults;
  const target = new URL(opts.target);
  const upstream = new https.Agent({ keepAlive: true, rejectUnauthorized: false, maxSockets: 64 });
  const seen = new Map<string, number>();
  const records: ProxyRecord[] = [];
  const open = new Set<ServerResponse>();
  const between = (r: () => number, [lo, hi]: [number, number]) => Math.round(lo + r() * (hi - lo));

  /** The fault for this request, decided by seed + request key + occurrence only. */
  const decide = (method: string, url: URL) => {
    const q = new URLSearchParams(url.searchParams);
    q.delete('resourceVersion');
    q.sort();
    const key = `${method} ${url.pathname}?${q}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const r = prng(hash(`${key}#${n}`, opts.seed));
    const faulted = r() < opts.rate && (opts.eligible?.(method, url) ?? true);
    const kind = kinds[Math.floor(r() * kinds.length)];
    return { fault: faulted ? kind : undefined, r };
  };

  const forward = (req: IncomingMessage, body: Buffer, onResponse: (up: IncomingMessage) => void) => {
    const headers = { ...req.headers, host: target.host };
    const up = https.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers,
        agent: upstream,
      },
      onResponse,
    );
    up.on('error', () => req.socket.destroy());
    up.end(body);
    return up;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'https://proxy.local');
    const watch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
    const { fault, r } = decide(method, url);
    const record: ProxyRecord = {
      method,
      path: url.pathname + url.search,
      fault,
      at: Date.now(),
      forwarded: false,
      watch,
    };
    records.push(record);
    open.add(res);
    res.on('close', () => open.delete(res));

    if (fault === 'throttle') {
      res.writeHead(429, {
        'Content-Type': 'application/json',
        'Retry-After': String(opts.retryAfterSeconds ?? 1),
      });
      res.end(
        statusBody(429, 'TooManyRequests', 'fault injected: too many requests, please try again later'),
      );
      return;
    }
    if (fault === 'error-500' || fault === 'error-503') {
      const code = fault === 'error-500' ? 500 : 503;
      res.writeHead(code, { 'Content-Type': 'application/json' });
      res.end(
        statusBody(
          code,
          code === 500 ? 'InternalError' : 'ServiceUnavailable',
          'fault injected: the server is having a bad moment',
        ),
      );
      return;
    }
    if (fault === 'reset-before') {
      req.socket.destroy();
      return;
    }
    const delay = fault === 'slow' ? between(r, opts.slowMs ?? [300, 1500]) : 0;
    setTimeout(async () => {
      await opts.beforeForward?.(method, url);
      record.forwarded = true;
      record.forwardedAt = Date.now();
      const up = forward(req, body, (answer) => {
        record.status = answer.statusCode;
        if (fault === 'reset-after') {
          // the server has done it; the client never hears so (a watch never ends: cut it at once)
          answer.resume();
          if (watch) {
            req.socket.destroy();
            up.destroy();
          } else answer.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        if (watch && opts.watchDropMs && answer.statusCode === 200) {
          const timer = setTimeout(
            () => {
              if (!record.fault || record.fault === 'slow') record.fault = 'watch-drop';
              req.socket.destroy();
              up.destroy();
            },
            between(r, opts.watchDropMs),
          );
          res.on('close', () => clearTimeout(timer));
        }
      });
      // the client went away (a stopped watch): stop the upstream request too
      res.on('close', () => {
        if (!res.writableFinished) up.destroy();
      });
    }, delay);
  };

  const server = https.createServer(throwawayCert(), (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
    req.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    records,
    counts() {
      const c: Record<string, number> = { requests: records.length };
      for (const r of records) if (r.fault) c[r.fault] = (c[r.fault] ?? 0) + 1;
      return c;
    },
    kubeconfig(token, extra = {}) {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fault-proxy-kc-')), 'kubeconfig');
      const lines = [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: proxied',
        '  cluster:',
        `    server: ${url}`,
        '    insecure-skip-tls-verify: true',
        'users:',
        '- name: proxied',
        '  user:',
        `    token: ${token}`,
        ...(extra.impersonate ? [`    as: ${extra.impersonate}`] : []),
        'contexts:',
        '- name: proxied',
        '  context:',
        '    cluster: proxied',
        '    user: proxied',
        `    namespace: ${extra.namespace ?? 'default'}`,
        'current-context: proxied',
        '',
      ];
      fs.writeFileSync(file, lines.join('\n'), { mode: 0o600 });
      return file;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.socket?.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
        upstream.destroy();
      }),
  };
}
