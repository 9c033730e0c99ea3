import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Credentials } from './credentials.js';
import type { KubeCluster } from './kubeconfig-file.js';
import { KubeConfigError } from './kubeconfig-file.js';
import { hostOf, proxyFor } from './proxy.js';

/** A request whose connection stays silent this long fails as timed out (ETIMEDOUT, retried). */
const RequestIdleTimeoutMs = 60_000;

/**
 * How requests reach the API server: the server's address (IPv6 brackets removed), one keep-alive agent for
 * requests and one for watches (direct, or through the proxy kubectl would use: CONNECT for https), and the
 * TLS options of each request. TLS options go with each request, not into the agent, so a client
 * certificate an exec plugin rotates gets new connections from the same pool (Node keys pooled sockets by
 * their TLS options) and proxy agents, which keep their own options for the proxy, verify the API server.
 */
export interface Transport {
  readonly secure: boolean;
  readonly host: string;
  readonly port: number;
  /** Path prefix of the server URL (`/k8s/clusters/c-1` behind Rancher), no trailing slash. */
  readonly prefix: string;
  readonly proxy?: URL;
  readonly agent: http.Agent;
  /** A request whose connection stays silent this long fails as timed out (ETIMEDOUT). */
  readonly requestTimeoutMs: number;
  /**
   * Whether `agent` sets requestTimeoutMs on each socket it opens (a request then only listens for
   * `timeout`); otherwise (proxy agents) each request sets it on its socket.
   */
  readonly agentTimesOut: boolean;
  readonly watchAgent: http.Agent;
  /** Request options for one request with these credentials. */
  options(creds: Credentials): https.RequestOptions;
  request: typeof https.request;
  destroy(): void;
}

export async function createTransport(
  cluster: KubeCluster,
  options: { maxSockets?: number; env?: NodeJS.ProcessEnv; requestTimeoutMs?: number } = {},
): Promise<Transport> {
  const base = new URL(cluster.server);
  const secure = base.protocol === 'https:';
  const proxy = proxyFor(base, cluster.proxyUrl, options.env ?? process.env);
  const maxSockets = options.maxSockets ?? 32;
  const requestTimeoutMs = options.requestTimeoutMs ?? RequestIdleTimeoutMs;
  // the proxy agents (and what they bring: agent-base, debug) are loaded only for a proxy
  const agents = proxy
    ? await Promise.all([import('http-proxy-agent'), import('https-proxy-agent')])
    : undefined;
  const makeAgent = (keepAlive: boolean, max: number): http.Agent => {
    const opts = { keepAlive, maxSockets: max };
    if (!proxy || !agents)
      return keepAlive
        ? // the idle limit is set once on each pooled socket, not re-armed by every request (~60 µs each)
          secure
          ? new https.Agent({ ...opts, timeout: requestTimeoutMs })
          : new http.Agent({ ...opts, timeout: requestTimeoutMs })
        : secure
          ? new https.Agent(opts)
          : new http.Agent(opts);
    const [{ HttpProxyAgent }, { HttpsProxyAgent }] = agents;
    if (secure) {
      const a = new HttpsProxyAgent(proxy, opts);
      a.protocol = 'https:';
      return a;
    }
    const a = new HttpProxyAgent(proxy, opts);
    a.protocol = 'http:';
    return a;
  };
  // watches hold their connection for minutes: keep them off the request pool
  const agent = makeAgent(true, maxSockets);
  const watchAgent = makeAgent(false, Infinity);
  if (!proxy) {
    // pools named by the TLS context too (see contextFor)
    const name = agent.getName.bind(agent);
    agent.getName = (o) => {
      const ctx = (o as { secureContext?: SecureContext } | undefined)?.secureContext;
      const n = ctx && contextNumbers.get(ctx);
      return n ? `${name(o)}:${n}` : name(o);
    };
  }

  let ca: string | undefined;
  if (cluster.caData) ca = Buffer.from(cluster.caData, 'base64').toString('utf8');
  else if (cluster.caFile) {
    try {
      ca = fs.readFileSync(cluster.caFile, 'utf8');
    } catch (err) {
      throw new KubeConfigError(
        `cluster "${cluster.name}": cannot read certificate-authority ${cluster.caFile}: ${(err as Error).message}`,
      );
    }
  }
  const tls: https.RequestOptions = {};
  if (secure) {
    if (ca) tls.ca = ca;
    if (cluster.insecureSkipTlsVerify) tls.rejectUnauthorized = false;
    if (cluster.tlsServerName) tls.servername = cluster.tlsServerName;
  }
  const host = hostOf(base);
  const port = Number(base.port || (secure ? 443 : 80));
  // One TLS context per client certificate, built once: without it every new connection of the pool parses
  // the CA bundle and the key again (tls.connect makes a context from ca/cert/key when given none). Without
  // a proxy, requests carry only the context, not the PEM texts: the agent names its pools from the request
  // options, several times per request, and a name made of kilobytes of PEM costs ~25 µs each time. The pool
  // agent adds the context's number to the name instead, so a rotated certificate still gets connections of
  // its own. Proxy agents get ca/cert/key as before (they name and connect by them).
  const contexts = new Map<string, SecureContext>();
  const contextNumbers = new WeakMap<SecureContext, number>();
  let contextsMade = 0;
  const contextFor = (o: https.RequestOptions): SecureContext => {
    const key = `${o.cert ?? ''}\0${o.key ?? ''}`;
    let ctx = contexts.get(key);
    if (!ctx) {
      // no CA and no verification (insecure-skip-tls-verify): an empty CA list, not Node's ~150 public roots,
      // which nothing would check against and which cost every process ~25 ms to load
      const ca = o.ca ?? (o.rejectUnauthorized === false ? [] : undefined);
      ctx = createSecureContext({ ca, cert: o.cert, key: o.key });
      if (contexts.size >= 8) contexts.clear(); // rotated certificates: keep only recent ones
      contexts.set(key, ctx);
      contextNumbers.set(ctx, ++contextsMade);
    }
    return ctx;
  };
  let last: { creds: Credentials; options: https.RequestOptions } | undefined;
  return {
    secure,
    host,
    port,
    prefix: base.pathname.replace(/\/$/, ''),
    proxy,
    agent,
    requestTimeoutMs,
    agentTimesOut: !proxy,
    watchAgent,
    options(creds) {
      // one object per credentials (they change only on rotation): requests copy it, never change it
      if (last?.creds === creds) return last.options;
      const o: https.RequestOptions = { host, port, ...tls };
      if (secure && creds.cert && creds.key) {
        o.cert = creds.cert;
        o.key = creds.key;
      }
      if (!secure) return o;
      // a tls.connect option the agent passes on (not in RequestOptions' type)
      const secureContext = contextFor(o);
      const options = proxy
        ? { ...o, secureContext }
        : {
            host,
            port,
            rejectUnauthorized: tls.rejectUnauthorized,
            servername: tls.servername,
            secureContext,
          };
      last = { creds, options };
      return options;
    },
    request: (secure ? https.request : http.request) as typeof https.request,
    destroy() {
      agent.destroy();
      watchAgent.destroy();
    },
  };
}
