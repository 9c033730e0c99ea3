/**
 * Two builds of the action, measured turn about on one server: the way to tell a regression from noise on a
 * busy machine. Each build gets its own package of N Roles (its own namespace and inventory, first applied by
 * that build), then the runs alternate A, B, A, B… so both see the same load. Prints each build's median,
 * quartiles and the median of the paired differences (B − A).
 *
 *   node --import tsx bench/ab-action.ts --a ../old/dist/index.js --b dist/index.js
 *     [--mode apply] [--n 300] [--latency 10] [--runs 21] [--version 1.37.2] [--prof DIR]
 *
 * `--prof DIR` runs both with `node --cpu-prof`, a V8 CPU profile per run in DIR/A and DIR/B.
 *
 * On stderr, after the runs: the last run of each build as the API server saw it (its requests, by time after
 * spawn), to see whether a difference is start-up or waiting.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startControlPlane } from '../scripts/control-plane/control-plane.js';
import { AuditReader } from './audit-count.js';
import { phases } from './audit-timeline.js';
import { generatePackage } from './generate-package.js';
import { actionEnv } from './lib/action-env.js';
import { createNamespace, kubeconfigFor, startProxyProcess } from './lib/cluster-ops.js';
import { spawnTimed } from './lib/process.js';
import { waitForQuietServer } from './lib/server-cpu.js';
import { fmtMs, median } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    mode: { type: 'string', default: 'apply' },
    n: { type: 'string', default: '300' },
    latency: { type: 'string', default: '10' },
    runs: { type: 'string', default: '21' },
    version: { type: 'string' },
    prof: { type: 'string' },
  },
});
if (!values.a || !values.b) throw new Error('--a and --b (two dist/index.js files) are required');
const bundles = { A: path.resolve(values.a), B: path.resolve(values.b) };
const n = Number(values.n);
const runs = Number(values.runs);
const rtt = Number(values.latency);

const log = (line: string) => console.error(`[ab ${new Date().toISOString().slice(11, 19)}] ${line}`);
const cp = await startControlPlane({ log, version: values.version });
const proxy = rtt > 0 ? await startProxyProcess(new URL(cp.server), rtt / 2) : undefined;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-ab-'));
const kubeconfig = proxy
  ? kubeconfigFor(cp.kubeconfigPath, `https://127.0.0.1:${proxy.port}`, path.join(work, 'kubeconfig'))
  : cp.kubeconfigPath;
const cpuDir = path.dirname(cp.kubeconfigPath);

const windows: Record<'A' | 'B', { startMs: number; endMs: number }[]> = { A: [], B: [] };

async function once(which: 'A' | 'B', mode: string): Promise<number> {
  const ns = `ab-${which.toLowerCase()}`;
  await waitForQuietServer(cpuDir);
  const prof = values.prof ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values.prof, which)}`] : [];
  const r = await spawnTimed(process.execPath, [...prof, bundles[which]], {
    env: actionEnv(work, ns, mode, kubeconfig),
    cwd: work,
  });
  if (r.code !== 0)
    throw new Error(`${which} (${mode}) exited ${r.code}:\n${r.stdout.slice(-2000)}\n${r.stderrTail}`);
  windows[which].push({ startMs: r.startMs, endMs: r.endMs });
  return r.wallMs;
}

const times: Record<'A' | 'B', number[]> = { A: [], B: [] };
try {
  for (const which of ['A', 'B'] as const) {
    const ns = `ab-${which.toLowerCase()}`;
    await createNamespace(cp.admin, ns);
    generatePackage({ dir: path.join(work, ns), n, kind: 'roles', namespace: ns });
    await once(which, 'apply');
  }
  for (let i = 0; i < runs; i++) {
    // alternate which goes first, so neither always follows the other
    for (const which of i % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const))
      times[which].push(await once(which, values.mode!));
    log(`run ${i + 1}/${runs}: A ${fmtMs(times.A.at(-1))}, B ${fmtMs(times.B.at(-1))}`);
  }
  // where the runs spent their time, from the server's side (ms after spawn): the last run's requests, and
  // for every run the first request, the Lease create (the lock), the first and last request after it, exit
  const events = new AuditReader(cp.auditLogPath).read();
  for (const which of ['A', 'B'] as const) {
    const marks: Record<string, number[]> = { first: [], lock: [], 'after lock': [], last: [], exit: [] };
    let lines: string[] = [];
    for (const w of windows[which].slice(2)) {
      const mine = events.filter(
        (e) => e.at >= w.startMs && e.at <= w.endMs && e.userAgent.includes('kpt-live-action'),
      );
      const at = (e: { at: number } | undefined) => (e ? e.at - w.startMs : Number.NaN);
      const lockAt = mine.findIndex((e) => e.verb === 'create' && e.uri.includes('/leases'));
      marks.first.push(at(mine[0]));
      marks.lock.push(at(mine[lockAt]));
      marks['after lock'].push(at(mine[lockAt + 1]));
      marks.last.push(at(mine.at(-1)));
      marks.exit.push(w.endMs - w.startMs);
      lines = phases(mine).map(
        (p) => `  +${(p.firstMs - w.startMs).toFixed(0).padStart(5)} ms ${p.count} × ${p.verb} ${p.pattern}`,
      );
    }
    console.log(
      `${which}, medians over runs 3–: ${Object.entries(marks)
        .map(([k, xs]) => `${k} +${fmtMs(median(xs))}`)
        .join(', ')}`,
    );
    console.error(`last run of ${which}, requests by ms after spawn:\n${lines.join('\n')}`);
  }
} finally {
  await proxy?.stop();
  await cp.stop();
  fs.rmSync(work, { recursive: true, force: true });
}

const q = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.floor(p * (xs.length - 1))];
const diffs = times.A.map((a, i) => times.B[i] - a);
console.log(
  `## A/B: ${values.mode}, ${n} Roles, ~${rtt} ms RTT, ${runs} alternating runs, server ${cp.version}`,
);
console.log(`Machine: ${os.cpus()[0]?.model}, nproc ${os.cpus().length}; node ${process.version}`);
console.log('| build | median | 25th–75th percentile | min–max |');
console.log('|---|---:|---:|---:|');
for (const which of ['A', 'B'] as const) {
  const xs = times[which];
  console.log(
    `| ${which}: ${path.relative(process.cwd(), bundles[which]) || bundles[which]} | ${fmtMs(median(xs))} | ${fmtMs(q(xs, 0.25))}–${fmtMs(q(xs, 0.75))} | ${fmtMs(Math.min(...xs))}–${fmtMs(Math.max(...xs))} |`,
  );
}
console.log(
  `Paired difference B − A: median ${fmtMs(median(diffs))}, 25th–75th percentile ${fmtMs(q(diffs, 0.25))}–${fmtMs(q(diffs, 0.75))}`,
);
