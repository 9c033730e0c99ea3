/**
 * A TCP proxy on loopback that delays every chunk by a fixed time in each direction, in order, so a local
 * API server behaves like a remote one (`--delay-ms 5` ≈ 10 ms round trip). Bytes pass through untouched:
 * TLS ends at the API server, so a kubeconfig pointed at the proxy (with the server's CA or
 * insecure-skip-tls-verify) works unchanged.
 *
 *   node --import tsx bench/latency-proxy.ts --target 127.0.0.1:6443 --delay-ms 5 [--port 0]
 *   → prints `LISTEN <port>` and runs until SIGTERM/SIGINT.
 */
import net from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

export interface LatencyProxy {
  port: number;
  stop(): Promise<void>;
}

/** Starts the proxy; `delayMs` is applied once per direction (the round trip gains twice that). */
export async function startLatencyProxy(options: {
  targetHost: string;
  targetPort: number;
  delayMs: number;
  port?: number;
}): Promise<LatencyProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: options.targetHost, port: options.targetPort });
    for (const s of [client, upstream]) {
      s.setNoDelay(true);
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    forward(client, upstream, options.delayMs);
    forward(upstream, client, options.delayMs);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Copies `from` to `to`, each chunk `delayMs` later. Timers of equal duration fire in the order they were
 * set, so the byte order is kept; end and errors travel with the same delay.
 */
function forward(from: net.Socket, to: net.Socket, delayMs: number): void {
  const later = (fn: () => void) => (delayMs > 0 ? setTimeout(fn, delayMs) : fn());
  let ended = false;
  from.on('data', (chunk: Buffer) => later(() => !to.destroyed && to.write(chunk)));
  from.on('end', () => {
    ended = true;
    later(() => !to.destroyed && to.end());
  });
  from.on('error', () => later(() => to.destroy()));
  // a close after a clean end leaves `to` to flush and close on its own
  from.on('close', () => !ended && later(() => to.destroy()));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      target: { type: 'string' },
      'delay-ms': { type: 'string', default: '5' },
      port: { type: 'string', default: '0' },
    },
  });
  const m = /^([^:]+):(\d+)$/.exec(values.target ?? '');
  if (!m) throw new Error('--target host:port is required (the API server, e.g. 127.0.0.1:6443)');
  const proxy = await startLatencyProxy({
    targetHost: m[1],
    targetPort: Number(m[2]),
    delayMs: Number(values['delay-ms']),
    port: Number(values.port),
  });
  process.stdout.write(`LISTEN ${proxy.port}\n`);
  const stop = () => void proxy.stop().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
