import type http from 'node:http';
import { apiErrorFrom, KubeApiError } from './api-error.js';
import type { CredentialProvider, Credentials } from './credentials.js';
import { DefaultRetry, isThrottled, type RetryPolicy, withRetry } from './retry.js';
import type { Transport } from './transport.js';

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
 * HTTP to the API server over one keep-alive pool (see transport.ts: proxies, IPv6, TLS). Credentials come
 * from `credentials`, cached until they change; a 401 refreshes them (exec plugin, token file) and the
 * request is sent once more (the server did nothing with it). Other retries follow `retry`.
 */
export function createHttpClient(
  server: string,
  transport: Transport,
  credentials: CredentialProvider,
  options: { retry?: RetryPolicy } = {},
): HttpClient {
  const { agent, watchAgent, prefix } = transport;
  const retry = options.retry ?? DefaultRetry;

  const headersFor = (creds: Credentials): Record<string, string | string[]> => ({
    'User-Agent': UserAgent,
    ...creds.headers,
  });

  /** Runs `send` with the current credentials; after a 401, once more with refreshed ones, if there are any. */
  const authenticated = async <T>(send: (creds: Credentials) => Promise<T>): Promise<T> => {
    const creds = await credentials.get();
    try {
      return await send(creds);
    } catch (err) {
      if (!(err instanceof KubeApiError) || err.code !== 401) throw err;
      if (!(await credentials.refresh(creds))) throw err;
      return send(await credentials.get());
    }
  };

  const once = async <T>(method: string, path: string, o: RequestOptions, creds: Credentials): Promise<T> => {
    const headers = headersFor(creds);
    headers.Accept = o.accept ?? 'application/json';
    const payload =
      o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    if (payload !== undefined) {
      headers['Content-Type'] = o.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    return new Promise<T>((resolve, reject) => {
      const req = transport.request(
        {
          ...transport.options(creds),
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
      const timedOut = () =>
        req.destroy(Object.assign(new Error('request timed out'), { code: 'ETIMEDOUT' }));
      if (transport.agentTimesOut) req.on('timeout', timedOut);
      else req.setTimeout(transport.requestTimeoutMs, timedOut);
      req.on('error', reject);
      // headers and body in one write (one TLS record, one syscall)
      req.end(payload);
    });
  };

  return {
    server,
    request<T>(method: string, path: string, o: RequestOptions = {}) {
      const run = () => authenticated((creds) => once<T>(method, path, o, creds));
      if (o.idempotent) return withRetry(run, retry);
      // a non-idempotent call is retried only when the server says it did nothing (429)
      return withRetry(run, retry, Math.random, undefined, isThrottled);
    },
    async watch(path, onLine, onEnd) {
      let buffer = '';
      let done = false;
      let req: http.ClientRequest | undefined;
      const finish = (err?: Error) => {
        if (done) return;
        done = true;
        onEnd(err);
      };
      const open = (creds: Credentials, retried: boolean) => {
        const headers = headersFor(creds);
        headers.Accept = 'application/json';
        const r = transport.request(
          {
            ...transport.options(creds),
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
                const err = apiErrorFrom(
                  res.statusCode ?? 0,
                  body,
                  `watch ${path}`,
                  res.headers['retry-after'] as string | undefined,
                );
                if (err.code === 401 && !retried && !done) {
                  // refreshed credentials (exec plugin, token file) get one more try, as a request does
                  credentials
                    .refresh(creds)
                    .then(async (changed) => {
                      if (!changed || done) return finish(err);
                      open(await credentials.get(), true);
                    })
                    .catch((e: Error) => finish(e));
                  return;
                }
                finish(err);
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
                  r.destroy();
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
        r.on('error', (e) => finish(e));
        r.end();
        req = r;
      };
      open(await credentials.get(), false);
      return {
        stop() {
          done = true;
          req?.destroy();
        },
      };
    },
    close() {
      transport.destroy();
    },
  };
}
