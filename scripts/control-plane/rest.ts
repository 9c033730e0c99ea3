import https from 'node:https';

/**
 * A tiny JSON client for the test control plane (bearer token, self-signed serving certificate).
 * Test support and the demo use it; the product's own cluster code lives in src/kube.
 */
export interface RestClient {
  request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    contentType?: string,
  ): Promise<RestResponse<T>>;
  /** Streams watch events until `stop()` or the server closes the stream (then `onClose`). */
  watch(
    path: string,
    onEvent: (type: string, obj: Record<string, unknown>) => void,
    onClose: (err?: Error) => void,
  ): { stop(): void };
}

export interface RestResponse<T> {
  status: number;
  body: T;
}

export function createRestClient(server: string, token: string): RestClient {
  const agent = new https.Agent({ keepAlive: true, rejectUnauthorized: false, maxSockets: 16 });
  const base = new URL(server);
  const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };

  return {
    request<T>(method: string, path: string, body?: unknown, contentType = 'application/json') {
      return new Promise<RestResponse<T>>((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const req = https.request(
          {
            host: base.hostname.replace(/^\[|\]$/g, ''),
            port: base.port,
            path,
            method,
            agent,
            headers: payload
              ? {
                  ...headers,
                  'Content-Type': contentType,
                  'Content-Length': String(Buffer.byteLength(payload)),
                }
              : headers,
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              let parsed: unknown = text;
              try {
                parsed = text ? JSON.parse(text) : undefined;
              } catch {
                // plain-text answers (readyz) stay strings
              }
              resolve({ status: res.statusCode ?? 0, body: parsed as T });
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        if (payload) req.write(payload);
        req.end();
      });
    },

    watch(path, onEvent, onClose) {
      let buffer = '';
      let closed = false;
      const finish = (err?: Error) => {
        if (closed) return;
        closed = true;
        onClose(err);
      };
      const req = https.request(
        {
          host: base.hostname.replace(/^\[|\]$/g, ''),
          port: base.port,
          path,
          method: 'GET',
          agent: false,
          rejectUnauthorized: false,
          headers,
        },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            finish(new Error(`watch ${path}: HTTP ${res.statusCode}`));
            return;
          }
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffer += chunk;
            let nl = buffer.indexOf('\n');
            while (nl >= 0) {
              const line = buffer.slice(0, nl).trim();
              buffer = buffer.slice(nl + 1);
              if (line) {
                const ev = JSON.parse(line) as { type: string; object: Record<string, unknown> };
                onEvent(ev.type, ev.object);
              }
              nl = buffer.indexOf('\n');
            }
          });
          res.on('end', () => finish());
          res.on('error', (e) => finish(e));
        },
      );
      req.on('error', (e) => finish(e));
      req.end();
      return {
        stop() {
          closed = true;
          req.destroy();
        },
      };
    },
  };
}
