/**
 * The benchmarks, side by side on one local control plane: this project vs kpt and kubectl.
 *
 *   node --import tsx bench/run.ts <scenario...> | --all  [--n 100,300,1000] [--latency 0,10,30] [--runs 5]
 *     [--kpt-runs R] [--kubectl-runs R]
 *     [--tools ours,ours-nopf,ours-nostatus,action,ours-esbuild,ours-tsx,floor,floor-kpt,kpt,kpt-ssa,kubectl,
 *       kubectl-prune]
 *     [--kind roles|mixed]
 *     [--exit-n 100] [--concurrency C] [--out bench/results/NAME.md]
 *
 * Scenarios: preview-first first-apply preview-noop noop-apply preview-changed changed-apply destroy
 * (one package lifecycle per tool and run; steps not asked for run unmeasured as setup), exit-latency,
 * cold-start, peak-rss, bundle-size. `--latency` is the added round trip in ms (a proxy adds half each way).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startControlPlane } from '../scripts/control-plane/control-plane.js';
import { startKubeletSimulator } from '../scripts/control-plane/kubelet-simulator.js';
import { AuditReader, countRequests } from './audit-count.js';
import { kubeconfigFor, startProxyProcess } from './lib/cluster-ops.js';
import { type BenchContext, runLifecycle } from './lib/lifecycle.js';
import { renderReport } from './lib/report.js';
import { measureColdStart, measureExitLatency, measureMonorepo, measurePeakRss } from './lib/scenarios.js';
import type { Measurement } from './lib/stats.js';
import { targetsTable } from './lib/targets.js';
import { benchDir, detectTools, repoDir, type Step, Steps, type ToolName } from './lib/tools.js';

const Extra = ['exit-latency', 'cold-start', 'peak-rss', 'bundle-size', 'monorepo'] as const;
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    all: { type: 'boolean', default: false },
    n: { type: 'string', default: '100,300,1000' },
    latency: { type: 'string', default: '0,10,30' },
    runs: { type: 'string', default: '5' },
    'kpt-runs': { type: 'string' },
    'kubectl-runs': { type: 'string' },
    tools: {
      type: 'string',
      default: 'ours,ours-nopf,action,ours-esbuild,floor,floor-kpt,kpt,kpt-ssa,kubectl,kubectl-prune',
    },
    kind: { type: 'string', default: 'roles' },
    'exit-n': { type: 'string', default: '100' },
    concurrency: { type: 'string' },
    out: { type: 'string' },
  },
});
const known = new Set<string>([...Steps, ...Extra]);
const scenarios = new Set<string>(values.all ? [...known] : positionals);
for (const s of scenarios)
  if (!known.has(s)) throw new Error(`unknown scenario ${s}; known: ${[...known].join(' ')}`);
if (scenarios.size === 0) throw new Error(`name a scenario (${[...known].join(' ')}) or --all`);
if (values.kind !== 'roles' && values.kind !== 'mixed') throw new Error('--kind must be roles or mixed');
const list = (s: string) => s.split(',').filter(Boolean).map(Number);
const ns = list(values.n);
const latencies = list(values.latency);
const runs = Number(values.runs);
const toolNames = values.tools.split(',') as ToolName[];
const runsFor: Record<ToolName, number> = {
  ours: runs,
  'ours-tsx': runs,
  'ours-nopf': runs,
  'ours-nostatus': runs,
  action: runs,
  'ours-esbuild': runs,
  floor: runs,
  'floor-kpt': runs,
  kpt: Number(values['kpt-runs'] ?? runs),
  'kpt-ssa': Number(values['kpt-runs'] ?? runs),
  kubectl: Number(values['kubectl-runs'] ?? runs),
  'kubectl-prune': Number(values['kubectl-runs'] ?? runs),
};
const stamp = new Date().toISOString().replace(/[:]/g, '-').slice(0, 19);
const outMd = path.resolve(values.out ?? path.join(benchDir, 'results', `run-${stamp}.md`));
const log = (line: string): void =>
  void process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

const tools = detectTools(toolNames);
const notes: string[] = [];
// A GitHub-hosted runner does not set it; a machine that points it at the whole system bundle makes every
// Node process (ours, the action, the floor) parse ~150 certificates at start, ~50 ms here.
if (process.env.NODE_EXTRA_CA_CERTS && !process.env.BENCH_KEEP_EXTRA_CA_CERTS) {
  notes.push(
    `NODE_EXTRA_CA_CERTS (${process.env.NODE_EXTRA_CA_CERTS}) unset for every command, as on a GitHub-hosted runner (BENCH_KEEP_EXTRA_CA_CERTS=1 keeps it).`,
  );
  delete process.env.NODE_EXTRA_CA_CERTS;
}
notes.push(
  'Each measured command starts once kube-apiserver and etcd have been idle (≤ 10% of a core over 500 ms, at most 20 s of waiting; `settledMs` in the .jsonl), so no tool pays for the one before it.',
);
for (const t of tools) if (t.missing) notes.push(`${t.name}: missing (${t.missing}); not run.`);
const present = tools.filter((t) => !t.missing);
for (const t of present)
  if (runsFor[t.name] !== runs)
    notes.push(`${t.name}: ${runsFor[t.name]} run(s) per scenario (ours: ${runs}).`);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-bench-'));
const bundle = path.join(work, 'run-ours.mjs');
const floor = path.join(work, 'floor.mjs');
for (const [entry, outfile] of [
  ['run-ours.ts', bundle],
  ['floor.ts', floor],
])
  execFileSync(
    path.join(repoDir, 'node_modules/.bin/esbuild'),
    [
      path.join(benchDir, entry),
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--target=node20',
      '--minify',
      `--outfile=${outfile}`,
      "--banner:js=import{createRequire}from'node:module';const require=createRequire(import.meta.url);",
      '--log-level=warning',
    ],
    { stdio: 'inherit' },
  );

log('starting the control plane');
const cp = await startControlPlane({ log });
const sim = await startKubeletSimulator(cp.admin);
const measurements: Measurement[] = [];
const rawPath = outMd.replace(/\.md$/, '.jsonl');
fs.mkdirSync(path.dirname(outMd), { recursive: true });

const kptVersion = tools.find((t) => t.name === 'kpt')?.version ?? 'not used';
const kubectlVersion = tools.find((t) => t.name === 'kubectl')?.version ?? 'not used';
const serverVersion = ((await cp.admin.request('GET', '/version')).body as { gitVersion: string }).gitVersion;
const info = {
  date: new Date().toISOString().slice(0, 16).replace('T', ' '),
  cpu: os.cpus()[0]?.model ?? 'unknown CPU',
  nproc: os.availableParallelism(),
  memoryGb: Math.round(os.totalmem() / 1024 ** 3),
  node: process.version,
  kpt: kptVersion,
  kubectl: kubectlVersion,
  server: serverVersion,
  command: `node --import tsx bench/run.ts ${process.argv.slice(2).join(' ')}`,
};

const loads: string[] = [];
const write = () => {
  const loadNote = `1-minute load average when each block started and ended (other work on this machine shows here): ${loads.join(', ')}.`;
  const md = `${renderReport(info, measurements, [...notes, loadNote])}\n${targetsTable(measurements)}`;
  fs.writeFileSync(outMd, md);
  fs.writeFileSync(rawPath, measurements.map((m) => JSON.stringify(m)).join('\n') + '\n');
};

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  sim.stop();
  await cp.stop();
  fs.rmSync(work, { recursive: true, force: true });
};
process.once('SIGINT', () => void shutdown().then(() => process.exit(130)));

try {
  // the ResourceGroup CRD, installed once up front (kpt's own command when kpt is there, else ours: the same
  // CRD); the kpt-compatible floor writes ResourceGroups and installs nothing
  if (present.some((t) => t.family === 'kpt'))
    execFileSync('/usr/bin/kpt', ['live', 'install-resource-group', '--kubeconfig', cp.kubeconfigPath], {
      stdio: 'ignore',
    });
  else if (present.some((t) => t.name === 'floor-kpt'))
    execFileSync(
      process.execPath,
      [path.join(repoDir, 'bin/kpt-live.js'), 'install-resource-group', '--kubeconfig', cp.kubeconfigPath],
      { stdio: 'ignore' },
    );
  const ctxBase = {
    cp,
    work,
    bundle,
    floor,
    kind: values.kind as 'roles' | 'mixed',
    concurrency: values.concurrency ? Number(values.concurrency) : undefined,
    log,
  };
  const lifecycleSteps = new Set<Step>(Steps.filter((s) => scenarios.has(s)));
  const audit = new AuditReader(cp.auditLogPath);
  for (const [li, rtt] of latencies.entries()) {
    const proxy = rtt > 0 ? await startProxyProcess(new URL(cp.server), rtt / 2) : undefined;
    const kubeconfig = proxy
      ? kubeconfigFor(
          cp.kubeconfigPath,
          `https://127.0.0.1:${proxy.port}`,
          path.join(work, `proxy-${rtt}.kubeconfig`),
        )
      : cp.kubeconfigPath;
    try {
      for (const n of ns) {
        const block: Measurement[] = [];
        loads.push(`N=${n}/${rtt} ms: ${os.loadavg()[0].toFixed(1)}`);
        const ctx: BenchContext = {
          ...ctxBase,
          n,
          rttMs: rtt,
          kubeconfig,
          record: (m) => void block.push(m),
        };
        if (lifecycleSteps.size > 0) {
          // warm-up (unmeasured): every tool once at a small N, so the first measured run is not the server's first
          if (li === 0 && n === ns[0])
            for (const t of present)
              await runLifecycle({ ...ctx, n: 20, record: () => {} }, t, -1, new Set());
          // each round starts with another tool (ours, action, floor, ... then action, floor, ..., ours): the
          // server's leftovers from the previous round (the deleted namespace's objects) fall on every tool alike
          for (let rep = 0; rep < Math.max(...present.map((t) => runsFor[t.name])); rep++)
            for (const t of rotated(present, rep))
              if (rep < runsFor[t.name]) {
                log(`N=${n} RTT=${rtt}ms run ${rep + 1}: ${t.name}`);
                await runLifecycle(ctx, t, rep, lifecycleSteps);
              }
        }
        if (scenarios.has('exit-latency') && n === ns[0]) {
          for (let rep = 0; rep < runs; rep++)
            for (const t of present.filter(
              (x) => x.name === 'ours' || x.name === 'ours-tsx' || x.name === 'kpt',
            ))
              if (rep < runsFor[t.name])
                await measureExitLatency({ ...ctx, n: Number(values['exit-n']) }, t, rep);
        }
        if (scenarios.has('cold-start') && li === 0)
          for (let rep = 0; rep < runs; rep++)
            await measureColdStart({ ...ctx, kubeconfig: cp.kubeconfigPath }, rep);
        if (scenarios.has('peak-rss') && li === 0) await measurePeakRss(ctx);
        if (scenarios.has('monorepo') && n === ns[0])
          for (let rep = 0; rep < runs; rep++) await measureMonorepo(ctx, rep);
        loads[loads.length - 1] += ` → ${os.loadavg()[0].toFixed(1)} at its end`;
        // the audit log is written in batches (up to 1 s late)
        await new Promise((r) => setTimeout(r, 2500));
        // the times are kept even when counting fails
        measurements.push(...block);
        write();
        const events = audit.read();
        for (const m of block) {
          const family =
            m.tool.startsWith('ours') || m.tool === 'action'
              ? 'ours'
              : m.tool.startsWith('floor')
                ? 'floor'
                : m.tool.startsWith('kpt')
                  ? 'kpt'
                  : 'kubectl';
          m.requests = countRequests(events, { fromMs: m.startMs, toMs: m.endMs, family });
          if (m.scenario === 'cold-start') {
            const first = events
              .filter(
                (e) =>
                  e.at >= m.startMs &&
                  e.at <= m.endMs &&
                  e.userAgent.startsWith(m.tool === 'floor' ? 'bench-floor/' : 'kpt-live-action/'),
              )
              .reduce((a, e) => Math.min(a, e.at), Number.POSITIVE_INFINITY);
            m.extra = { ...m.extra, firstRequestMs: first - m.startMs };
            if (!Number.isFinite(first)) m.ok = false;
          }
        }
        write();
      }
    } finally {
      await proxy?.stop();
    }
  }
  if (scenarios.has('bundle-size')) {
    const dist = path.join(repoDir, 'dist/index.js');
    const bytes = fs.statSync(dist).size;
    const gzipBytes = Number(
      execFileSync('bash', ['-c', `gzip -9 -c '${dist}' | wc -c`], { encoding: 'utf8' }),
    );
    measurements.push({
      scenario: 'bundle-size',
      tool: 'action',
      label: 'dist/index.js',
      n: 0,
      rttMs: 0,
      kind: values.kind,
      rep: 0,
      ok: true,
      startMs: 0,
      endMs: 0,
      wallMs: 0,
      extra: { bytes, gzipBytes, benchBundleBytes: fs.statSync(bundle).size },
    });
  }
  write();
  log(`results: ${path.relative(process.cwd(), outMd)} (raw: ${path.relative(process.cwd(), rawPath)})`);
  process.stdout.write(fs.readFileSync(outMd, 'utf8'));
} finally {
  await shutdown();
}
// stray handles (the simulator's watches) must not keep the bench alive
process.exit(0);

/** `items` rotated left by `by` places. */
function rotated<T>(items: readonly T[], by: number): T[] {
  const k = items.length ? by % items.length : 0;
  return [...items.slice(k), ...items.slice(0, k)];
}
