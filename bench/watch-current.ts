/**
 * An independent observer for the exit-latency scenario: watches one Deployment straight at the API server
 * (not through the latency proxy) and prints `CURRENT <epoch ms>` the moment it is Current by kstatus'
 * Deployment rules (written here from cli-utils' rules, not imported from src/, so the engine under test
 * does not judge itself). Prints `READY` once the watch is established.
 *
 *   node --import tsx bench/watch-current.ts --server https://127.0.0.1:6443 --token T --namespace ns --name late
 */
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

type Obj = Record<string, unknown>;

/** Epoch milliseconds with sub-millisecond precision (comparable across processes on one machine). */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** kstatus (cli-utils) Deployment: every replica count matches, NewReplicaSetAvailable and Available=True. */
export function deploymentIsCurrent(d: Obj): boolean {
  const meta = (d.metadata ?? {}) as Obj;
  const spec = (d.spec ?? {}) as Obj;
  const status = (d.status ?? {}) as Obj;
  if (meta.deletionTimestamp) return false;
  const generation = Number(meta.generation ?? 0);
  if (Number(status.observedGeneration ?? -1) < generation) return false;
  const want = Number(spec.replicas ?? 1);
  const n = (k: string) => Number(status[k] ?? 0);
  if (want > n('replicas') || want > n('updatedReplicas') || n('replicas') > want) return false;
  if (n('updatedReplicas') > n('availableReplicas') || want > n('readyReplicas')) return false;
  const conditions = (status.conditions ?? []) as Obj[];
  const progressing = conditions.some(
    (c) => c.type === 'Progressing' && c.status === 'True' && c.reason === 'NewReplicaSetAvailable',
  );
  const available = conditions.some((c) => c.type === 'Available' && c.status === 'True');
  return progressing && available;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      namespace: { type: 'string' },
      name: { type: 'string', default: 'late' },
    },
  });
  if (!values.server || !values.token || !values.namespace)
    throw new Error('--server, --token and --namespace are required');
  const base = new URL(values.server);
  const path =
    `/apis/apps/v1/namespaces/${values.namespace}/deployments?watch=true` +
    `&fieldSelector=${encodeURIComponent(`metadata.name=${values.name}`)}`;
  const req = https.request(
    {
      host: base.hostname,
      port: base.port,
      path,
      rejectUnauthorized: false,
      headers: { Authorization: `Bearer ${values.token}`, 'User-Agent': 'bench-watcher/1' },
    },
    (res) => {
      if (res.statusCode !== 200) {
        process.stderr.write(`watch failed: HTTP ${res.statusCode}\n`);
        process.exit(2);
      }
      process.stdout.write('READY\n');
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (!line.trim()) continue;
          const at = nowMs();
          const ev = JSON.parse(line) as { type: string; object: Obj };
          if (ev.type !== 'DELETED' && deploymentIsCurrent(ev.object)) {
            process.stdout.write(`CURRENT ${at.toFixed(3)}\n`);
            req.destroy();
            process.exit(0);
          }
        }
      });
    },
  );
  req.on('error', (e) => {
    process.stderr.write(`watch error: ${e.message}\n`);
    process.exit(2);
  });
  req.end();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
