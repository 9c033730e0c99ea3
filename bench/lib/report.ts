import { formatVerbs } from '../audit-count.js';
import { type Cell, fmtMs, fmtRatio, type Measurement, summarise } from './stats.js';
import { Steps } from './tools.js';

export interface MachineInfo {
  date: string;
  cpu: string;
  nproc: number;
  memoryGb: number;
  node: string;
  kpt: string;
  kubectl: string;
  server: string;
  command: string;
}

const scenarioTitle: Record<string, string> = {
  'preview-first': 'preview (first)',
  'first-apply': 'first apply',
  'preview-noop': 'preview (no-op)',
  'noop-apply': 'no-op re-apply',
  'preview-changed': 'preview (10% changed + 10% pruned)',
  'changed-apply': 'apply 10% changed + 10% pruned',
  destroy: 'destroy',
};

const toolOrder = [
  'ours',
  'ours-nopf',
  'ours-nostatus',
  'action',
  'ours-esbuild',
  'ours-tsx',
  'floor',
  'floor-kpt',
  'kpt',
  'kpt-ssa',
  'kubectl',
  'kubectl-prune',
];

function groupBy<T>(xs: T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const list = m.get(k) ?? [];
    list.push(x);
    m.set(k, list);
  }
  return m;
}

function rttLabel(rtt: number): string {
  return rtt === 0 ? 'no added latency' : `~${rtt} ms RTT (proxy ${rtt / 2} ms each way)`;
}

function budget(c: Cell): number | undefined {
  return c.objects === undefined ? undefined : c.objects + (c.kindNamespaces ?? 0);
}

function runsText(c: Cell): string {
  return c.ok === c.runs ? String(c.runs) : `${c.ok}/${c.runs} ok`;
}

/**
 * Medians of the CPU each run cost: the command's own (user + system, `/usr/bin/time -v`) and the API server's
 * and etcd's while it ran (`/proc`; their background work included). On a machine whose cores the client and
 * the server share, that CPU is wall time.
 */
function cpuText(c: Cell): string {
  const { cpuMs, apiserverCpuMs, etcdCpuMs } = c.extra;
  if (cpuMs === undefined && apiserverCpuMs === undefined) return '–';
  const f = (ms: number | undefined) => (ms === undefined ? '–' : fmtMs(ms));
  return `${f(cpuMs)} / ${f(apiserverCpuMs)} / ${f(etcdCpuMs)}`;
}

/** The lifecycle table of one (kind, N, RTT) block. */
function lifecycleTable(ms: Measurement[]): string[] {
  const lines = [
    '| scenario | command | median | per object | runs | min–max | peak RSS | CPU: command / API server / etcd | requests (median) | requests ÷ (objects + kind/ns) | ÷ ours | ÷ floor | ÷ floor + ResourceGroup |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const step of Steps) {
    const rows = ms.filter((m) => m.scenario === step);
    if (rows.length === 0) continue;
    const cells = new Map([...groupBy(rows, (m) => m.tool)].map(([t, xs]) => [t, summarise(xs)]));
    const ours = cells.get('ours')?.medianMs;
    const floor = cells.get('floor')?.medianMs;
    const floorKpt = cells.get('floor-kpt')?.medianMs;
    const ratio = (to: number | undefined, c: Cell) =>
      fmtRatio(c.medianMs !== undefined && to ? c.medianMs / to : undefined);
    for (const tool of toolOrder) {
      const c = cells.get(tool);
      if (!c) continue;
      const b = budget(c);
      const perObject = c.medianMs !== undefined && c.objects ? c.medianMs / c.objects : undefined;
      const rss = c.extra.maxRssKb;
      lines.push(
        `| ${scenarioTitle[step]} | ${c.label} | ${fmtMs(c.medianMs)} | ${perObject === undefined ? '–' : `${perObject.toFixed(2)} ms`} | ` +
          `${runsText(c)} | ${fmtMs(c.minMs)}–${fmtMs(c.maxMs)} | ${rss ? `${(rss / 1024).toFixed(0)} MB` : '–'} | ` +
          `${cpuText(c)} | ` +
          `${c.requests ?? '–'} | ${b && c.requests !== undefined ? (c.requests / b).toFixed(2) : '–'} | ` +
          `${tool === 'ours' ? '1' : ratio(ours, c)} | ${tool === 'floor' ? '1' : ratio(floor, c)} | ` +
          `${tool === 'floor-kpt' ? '1' : ratio(floorKpt, c)} |`,
      );
      for (const e of c.errors)
        lines.push(
          `|  | ↳ failed: ${e.replace(/\|/g, '/').replace(/\n/g, ' ').slice(0, 200)} | | | | | | | | | | | |`,
        );
    }
  }
  return lines;
}

function requestDetail(ms: Measurement[]): string[] {
  const lines: string[] = [];
  for (const step of Steps) {
    const rows = ms.filter((m) => m.scenario === step && m.tool === 'ours');
    if (rows.length === 0) continue;
    const c = summarise(rows);
    if (!c.verbs) continue;
    lines.push(
      `- ${scenarioTitle[step]}: ${c.requests} requests (${formatVerbs(c.verbs)}; ${c.dryRun ?? 0} dry-run) for ` +
        `${c.objects} objects in ${c.kindNamespaces} kind/namespace pair(s)`,
    );
  }
  return lines;
}

export function renderReport(info: MachineInfo, all: Measurement[], notes: string[]): string {
  const out: string[] = [
    `## Results ${info.date}`,
    '',
    `Machine: ${info.cpu}, nproc ${info.nproc}, ${info.memoryGb} GB memory; node ${info.node}; ` +
      `kpt ${info.kpt}; kubectl ${info.kubectl}; API server ${info.server} (local control plane, audit log at Metadata level).`,
    '',
    `Command: \`${info.command}\``,
    '',
    'Times are wall-clock, spawn to exit of each command in its own process (cold start included), medians ' +
      'of the runs shown; `÷ ours` is the median of that command divided by ours (`kpt-live`, the shipped CLI ' +
      'bundle), `÷ floor` divided by the floor (bench/floor.ts: a bare server-side-apply loop), `÷ floor + ' +
      'ResourceGroup` by the kpt-compatible floor (the same loop plus the ResourceGroup write before and its ' +
      'status write after). Peak RSS from ' +
      '`/usr/bin/time -v`. Requests are counted from the API server audit log per user agent.',
    '',
  ];
  for (const n of notes) out.push(`> ${n}`);
  if (notes.length) out.push('');
  const lifecycle = all.filter((m) => (Steps as readonly string[]).includes(m.scenario));
  const blocks = groupBy(lifecycle, (m) => `${m.kind}|${m.n}|${m.rttMs}`);
  for (const [key, ms] of blocks) {
    const [kind, n, rtt] = key.split('|');
    out.push(`### ${n} ${kind === 'roles' ? 'Roles' : 'mixed objects'}, ${rttLabel(Number(rtt))}`, '');
    out.push(...lifecycleTable(ms), '');
    const detail = requestDetail(ms);
    if (detail.length) out.push('Our requests, by verb (median run):', '', ...detail, '');
  }
  out.push(...extraTables(all));
  return `${out.join('\n')}\n`;
}

function extraTables(all: Measurement[]): string[] {
  const out: string[] = [];
  const exit = all.filter((m) => m.scenario === 'exit-latency');
  if (exit.length) {
    out.push(
      '### Exit latency',
      '',
      'Time from the last object turning Current (a Deployment whose pod the kubelet simulator makes Ready ' +
        'after 3 s), as seen by an independent watcher process connected straight to the API server, to the ' +
        'exit of the applying process.',
      '',
      '| package | latency | command | exit after last Current (median) | runs | min–max | whole apply (median) |',
      '|---|---|---|---:|---:|---:|---:|',
    );
    for (const [key, ms] of groupBy(exit, (m) => `${m.n}|${m.rttMs}|${m.tool}`)) {
      const [n, rtt] = key.split('|');
      const c = summarise(ms);
      const lat = ms.filter((m) => m.ok).map((m) => m.extra?.exitLatencyMs ?? Number.NaN);
      out.push(
        `| ${n} Roles + 1 late Deployment | ${rttLabel(Number(rtt))} | ${c.label} | ${fmtMs(c.extra.exitLatencyMs)} | ` +
          `${runsText(c)} | ${fmtMs(Math.min(...lat))}–${fmtMs(Math.max(...lat))} | ${fmtMs(c.medianMs)} |`,
      );
    }
    out.push('');
  }
  const cold = all.filter((m) => m.scenario === 'cold-start');
  if (cold.length) {
    out.push(
      '### Cold start',
      '',
      'Process spawn to the first API request (its `requestReceivedTimestamp` in the audit log), preview mode, ' +
        'no added latency.',
      '',
      '| package | process | to first request (median) | runs | min–max | whole preview (median) |',
      '|---|---|---:|---:|---:|---:|',
    );
    for (const [key, ms] of groupBy(cold, (m) => `${m.n}|${m.tool}`)) {
      const c = summarise(ms);
      const firsts = ms.filter((m) => m.ok).map((m) => m.extra?.firstRequestMs ?? Number.NaN);
      out.push(
        `| ${key.split('|')[0]} Roles | ${c.label} | ${fmtMs(c.extra.firstRequestMs)} | ${runsText(c)} | ` +
          `${fmtMs(Math.min(...firsts))}–${fmtMs(Math.max(...firsts))} | ${fmtMs(c.medianMs)} |`,
      );
    }
    out.push('');
  }
  const mono = all.filter((m) => m.scenario === 'monorepo');
  if (mono.length) {
    out.push(
      '### Monorepo: many packages in one action run',
      '',
      '`node dist/index.js` with `mode: preview`, `comment: false` and `packages:` listing them (previews run ' +
        'up to 8 packages at once on one client: one connection pool, one discovery).',
      '',
      '| latency | run | median | runs | min–max | ÷ one package |',
      '|---|---|---:|---:|---:|---:|',
    );
    for (const [rtt, ms] of groupBy(mono, (m) => String(m.rttMs))) {
      const cells = [...groupBy(ms, (m) => m.label)].map(([, xs]) => summarise(xs));
      const single = cells.find((c) => c.label.includes('one package'))?.medianMs;
      for (const c of cells)
        out.push(
          `| ${rttLabel(Number(rtt))} | ${c.label} | ${fmtMs(c.medianMs)} | ${runsText(c)} | ${fmtMs(c.minMs)}–${fmtMs(c.maxMs)} | ` +
            `${fmtRatio(c.medianMs !== undefined && single ? c.medianMs / single : undefined)} |`,
        );
    }
    out.push('');
  }
  const rss = all.filter((m) => m.scenario === 'peak-rss');
  if (rss.length) {
    out.push('### Peak RSS', '', '| package | process and step | peak RSS | wall |', '|---|---|---:|---:|');
    for (const m of rss)
      out.push(
        `| ${m.n} Roles | ${m.label} | ${m.extra?.maxRssKb ? `${(m.extra.maxRssKb / 1024).toFixed(0)} MB` : '–'} | ${fmtMs(m.wallMs)} |`,
      );
    out.push('');
  }
  const bundle = all.filter((m) => m.scenario === 'bundle-size');
  for (const m of bundle)
    out.push(
      `### Bundle size`,
      '',
      `${m.label}: ${((m.extra?.bytes ?? 0) / 1e6).toFixed(2)} MB (${((m.extra?.gzipBytes ?? 0) / 1e6).toFixed(2)} MB gzipped)` +
        (m.extra?.benchBundleBytes
          ? `; for comparison, bench/run-ours.ts bundled by esbuild (same engine, tree-shaken): ${(m.extra.benchBundleBytes / 1e6).toFixed(2)} MB`
          : ''),
      '',
    );
  return out;
}
