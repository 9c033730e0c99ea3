import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { RestClient } from '../../scripts/control-plane/rest.js';
import { benchDir } from './tools.js';

/** Creates a namespace (as the admin: not counted as any tool's request). */
export async function createNamespace(admin: RestClient, name: string): Promise<void> {
  const res = await admin.request('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'bench.kpt-live-action.dev/run': 'true' } },
  });
  if (res.status !== 201) throw new Error(`creating namespace ${name}: HTTP ${res.status}`);
}

/** Deletes a namespace and waits until the namespace controller has removed it and its contents. */
export async function deleteNamespace(admin: RestClient, name: string, timeoutMs = 180_000): Promise<void> {
  await admin.request('DELETE', `/api/v1/namespaces/${name}`);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await admin.request('GET', `/api/v1/namespaces/${name}`);
    if (res.status === 404) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`namespace ${name} still terminating after ${timeoutMs / 1000}s`);
}

/** A copy of a kubeconfig whose server is `server` (the proxy); TLS is unchanged (insecure-skip-tls-verify). */
export function kubeconfigFor(source: string, server: string, dest: string): string {
  const text = fs.readFileSync(source, 'utf8').replace(/server: .*/, `server: ${server}`);
  fs.writeFileSync(dest, text, { mode: 0o600 });
  return dest;
}

export interface ProxyProcess {
  port: number;
  stop(): Promise<void>;
}

/** Starts bench/latency-proxy.ts in its own process (its timers then never wait on the bench's event loop). */
export async function startProxyProcess(target: URL, delayMs: number): Promise<ProxyProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(benchDir, 'latency-proxy.ts'),
      '--target',
      `${target.hostname}:${target.port}`,
      '--delay-ms',
      String(delayMs),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], cwd: path.resolve(benchDir, '..') },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /LISTEN (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`latency proxy exited (code ${code})`)));
  });
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        if (child.pid) process.kill(child.pid, 'SIGTERM');
      }),
  };
}
