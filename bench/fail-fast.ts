/**
 * Time to red: how long `apply` takes to fail a package of 5 Deployments (2 replicas each) rolled from a good
 * image to one whose containers crash-loop, with fail-fast (the default) and without it (`fail-fast: false`,
 * kpt's wait: until the reconcile timeout). Runs on its own local control plane with the kubelet simulator,
 * whose crash back-off is set per run: `1s` (the simulator's default, what the tests use) and `10s` (a real
 * kubelet's: restart at once, then after 10 s, 20 s, 40 s ...).
 *
 *   node --import tsx bench/fail-fast.ts [--runs 3] [--backoff 1s,10s] [--timeout 5m] [--without-runs 1]
 *
 * `--without-runs 0` skips the runs without fail-fast (each takes the whole `--timeout`). Prints one line per
 * run and a table of medians; the numbers are wall time from the start of the apply to its result.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startControlPlane } from '../scripts/control-plane/control-plane.js';
import { startKubeletSimulator } from '../scripts/control-plane/kubelet-simulator.js';
import { defaultRunOptions } from '../src/apply/run-options.js';
import { formatDuration, parseDuration } from '../src/common/duration.js';
import { connect } from '../src/kube/connect.js';
import { runPackage } from '../src/pipeline/run-package.js';
import { createNamespace } from './lib/cluster-ops.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    backoff: { type: 'string', default: '1s,10s' },
    timeout: { type: 'string', default: '5m' },
    'without-runs': { type: 'string', default: '1' },
  },
});
const runs = Number(values.runs);
const withoutRuns = Number(values['without-runs']);
const timeoutMs = parseDuration(values.timeout);
if (timeoutMs === undefined || !(runs >= 1) || !(withoutRuns >= 0))
  throw new Error('--runs N (>= 1), --without-runs N (>= 0) and --timeout DURATION');
const backoffs = values.backoff.split(',').filter(Boolean);

const deployment = (name: string, image: string, behavior: string, backoff: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: 2
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata:
      labels: {app: ${name}}
      annotations: {sim.kpt-live-action.dev/behavior: ${behavior}, sim.kpt-live-action.dev/backoff: "${backoff}"}
    spec: {containers: [{name: app, image: "${image}"}]}
`;

function writePackage(dir: string, ns: string, image: string, behavior: string, backoff: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'Kptfile'),
    'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n',
  );
  fs.writeFileSync(
    path.join(dir, 'resourcegroup.yaml'),
    `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: inventory\n  namespace: ${ns}\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${ns}\n`,
  );
  for (let i = 0; i < 5; i++)
    fs.writeFileSync(path.join(dir, `web-${i}.yaml`), deployment(`web-${i}`, image, behavior, backoff));
}

const log = (line: string) => process.stderr.write(`${line}\n`);
log('starting the control plane');
const cp = await startControlPlane({ log });
const sim = await startKubeletSimulator(cp.admin);
const conn = await connect({ kubeconfigPath: cp.kubeconfigPath });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-bench-ff-'));
const rows: { mode: string; backoff: string; ms: number[]; outcome: string; message: string }[] = [];
let seq = 0;

/** One time-to-red: apply the good image, then the crashing one, timing the second apply. */
async function timeToRed(failFast: boolean, backoff: string) {
  const ns = `bench-ff-${process.pid}-${seq++}`;
  await createNamespace(cp.admin, ns);
  const repo = path.join(work, ns);
  const dir = path.join(repo, 'pkg');
  const apply = (options: Parameters<typeof defaultRunOptions>[0]) =>
    runPackage(conn.client, 'pkg', 'apply', {
      repoRoot: repo,
      defaultNamespace: ns,
      options: defaultRunOptions(options),
    });
  writePackage(dir, ns, 'example/app:1', 'ready', backoff);
  const good = await apply({});
  if (good.exitCode !== 0) throw new Error(`the good image did not apply: ${good.error ?? good.outcome}`);
  writePackage(dir, ns, 'example/app:2', 'crashloop', backoff);
  const started = Date.now();
  const bad = await apply({ failFast, reconcileTimeoutMs: timeoutMs });
  const ms = Date.now() - started;
  const first = bad.run?.objects.find((o) => o.id.kind === 'Deployment');
  return { ms, outcome: `${bad.outcome} (exit ${bad.exitCode})`, message: first?.message ?? bad.error ?? '' };
}

try {
  for (const backoff of backoffs) {
    for (const [mode, failFast, n] of [
      ['fail-fast', true, runs],
      ['without (kpt)', false, withoutRuns],
    ] as const) {
      if (n === 0) continue;
      const row = { mode, backoff, ms: [] as number[], outcome: '', message: '' };
      for (let i = 0; i < n; i++) {
        const r = await timeToRed(failFast, backoff);
        log(
          `${mode}, back-off ${backoff}, run ${i + 1}: ${formatDuration(r.ms)}  ${r.outcome}  ${r.message}`,
        );
        row.ms.push(r.ms);
        row.outcome = r.outcome;
        row.message = r.message;
      }
      rows.push(row);
    }
  }
} finally {
  conn.client.close();
  sim.stop();
  await cp.stop();
  fs.rmSync(work, { recursive: true, force: true });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
console.log(
  `\nTime to red, 5 Deployments rolled to a crash-looping image (Kubernetes ${cp.version}, reconcile timeout ${values.timeout}, ${os.availableParallelism()} CPUs)\n`,
);
console.log('| mode | crash back-off | runs | median | min | max | outcome | first Deployment |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.mode} | ${r.backoff} | ${r.ms.length} | ${formatDuration(median(r.ms))} | ${formatDuration(Math.min(...r.ms))} | ${formatDuration(Math.max(...r.ms))} | ${r.outcome} | ${r.message.replace(/\|/g, '\\|')} |`,
  );
