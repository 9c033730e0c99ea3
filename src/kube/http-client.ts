import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { apiErrorFrom } from './api-error.js';
import { DefaultRetry, isThrottled, type RetryPolicy, withRetry } from './retry.js';

export interface RequestOptions {
  body?: unknown;
  contentType?: string;
  accept?: string;
  /** Retry on throttling, server errors and dropped connections (only for idempotent calls). */
  idempotent?: boolean;
  /** Words for error messages: `get deployments.apps web`. */
  what?: string;
}

export interface HttpClient {
  readonly server: string;
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  /** Opens a watch stream; events arrive until `stop()` or the stream ends (then `onEnd`). */
  watch(
    path: string,
    onLine: (event: WatchEvent) => void,
    onEnd: (err?: Error) => void,
  ): Promise<{ stop(): void }>;
  close(): void;
}

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: Record<string, unknown>;
}

export const UserAgent = 'kpt-live-action/0.1';

/**
 * HTTP to the API server over one keep-alive agent: TLS and credentials come from the kubeconfig
 * (client-node does the auth, exec plugins included); retries follow `retry`.
 */
export async function createHttpClient(
  kc: KubeConfig,
  options: { maxSockets?: number; retry?: RetryPolicy } = {},
): Promise<HttpClient> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('no current cluster in kubeconfig');
  const base = new URL(cluster.server);
  const secure = base.protocol === 'https:';
  const probe: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(probe);
  const agentOptions: https.AgentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 32,
    ca: probe.ca,
    cert: probe.cert,
    key: probe.key,
    pfx: probe.pfx,
    passphrase: probe.passphrase,
    servername: probe.servername,
  };
  if (probe.rejectUnauthorized !== undefined) agentOptions.rejectUnauthorized = probe.rejectUnauthorized;
  const agent = secure
    ? new https.Agent(agentOptions)
    : new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 32 });
  // watches hold their connection for minutes: keep them off the request pool
  const watchAgent = secure
    ? new https.Agent({ ...agentOptions, keepAlive: false, maxSockets: Infinity })
    : new http.Agent();
  const retry = options.retry ?? DefaultRetry;
  const prefix = base.pathname.replace(/\/$/, '');

  const headersFor = async (): Promise<Record<string, string>> => {
    const opts: https.RequestOptions = {};
    await kc.applyToHTTPSOptions(opts);
    const h: Record<string, string> = { 'User-Agent': UserAgent };
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (typeof v === 'string') h[k] = v;
    if (opts.auth) h.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
    return h;
  };

  const once = async <T>(method: string, path: string, o: RequestOptions): Promise<T> => {
    const headers = await headersFor();
    headers.Accept = o.accept ?? 'application/json';
    const payload =
      o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    if (payload !== undefined) {
      headers['Content-Type'] = o.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    const mod = secure ? https : http;
    return new Promise<T>((resolve, reject) => {
      const req = mod.request(
        {
          host: base.hostname,
          port: base.port || (secure ? 443 : 80),
          path: prefix + path,
          method,
          agent,
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          // a connection dropped mid-answer: a network error the retry policy knows (no-op after `end`)
          res.on('close', () => {
            if (!res.complete)
              reject(Object.assign(new Error('connection closed mid-response'), { code: 'ECONNRESET' }));
          });
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = text;
            if (text && (res.headers['content-type'] ?? '').includes('json')) {
              try {
                body = JSON.parse(text);
              } catch {
                // keep the text
              }
            }
            const code = res.statusCode ?? 0;
            if (code >= 200 && code < 300) resolve(body as T);
            else
              reject(
                apiErrorFrom(
                  code,
                  body,
                  o.what ?? `${method} ${path}`,
                  res.headers['retry-after'] as string | undefined,
                ),
              );
          });
        },
      );
      req.setTimeout(60_000, () =>
        req.destroy(Object.assign(new Error('request timed out'), { code: 'ETIMEDOUT' })),
      );
      req.on('error', reject);
      // headers and body in one write (one TLS record, one syscall)
      req.end(payload);
    });
  };

  return {
    server: cluster.server,
    request<T>(method: string, path: string, o: RequestOptions = {}) {
      const run = () => once<T>(method, path, o);
      if (o.idempotent) return withRetry(run, retry);
      // a non-idempotent call is retried only when the server says it did nothing (429)
      return withRetry(run, retry, Math.random, undefined, isThrottled);
    },
    async watch(path, onLine, onEnd) {
      const headers = await headersFor();
      headers.Accept = 'application/json';
      const mod = secure ? https : http;
      let buffer = '';
      let done = false;
      const finish = (err?: Error) => {
        if (done) return;
        done = true;
        onEnd(err);
      };
      const req = mod.request(
        {
          host: base.hostname,
          port: base.port || (secure ? 443 : 80),
          path: prefix + path,
          method: 'GET',
          agent: watchAgent,
          headers,
        },
        (res) => {
          if ((res.statusCode ?? 0) !== 200) {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('error', (e) => finish(e));
            res.on('close', () =>
              finish(new Error(`watch ${path}: HTTP ${res.statusCode}, connection closed`)),
            );
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              let body: unknown = text;
              try {
                body = JSON.parse(text);
              } catch {
                // text
              }
              finish(
                apiErrorFrom(
                  res.statusCode ?? 0,
                  body,
                  `watch ${path}`,
                  res.headers['retry-after'] as string | undefined,
                ),
              );
            });
            return;
          }
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffer += chunk;
            for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
              const line = buffer.slice(0, nl).trim();
              buffer = buffer.slice(nl + 1);
              if (!line) continue;
              try {
                onLine(JSON.parse(line) as WatchEvent);
              } catch (err) {
                finish(err as Error);
                req.destroy();
                return;
              }
            }
          });
          res.on('end', () => finish());
          res.on('error', (e) => finish(e));
          res.on('aborted', () => finish(new Error('watch aborted')));
          // a dropped connection may end with only `close` (no `end`): the caller must hear of it to resume
          res.on('close', () => finish(res.complete ? undefined : new Error('watch connection closed')));
        },
      );
      req.on('error', (e) => finish(e));
      req.end();
      return {
        stop() {
          done = true;
          req.destroy();
        },
      };
    },
    close() {
      agent.destroy();
      watchAgent.destroy();
    },
  };
}
