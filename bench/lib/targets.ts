import { fmtMs, fmtRatio, type Measurement, median } from './stats.js';

interface Check {
  target: string;
  where: string;
  measured: string;
  met: boolean;
}

function med(ms: Measurement[], scenario: string, tool: string, n: number, rtt: number): number | undefined {
  return median(
    ms
      .filter((m) => m.ok && m.scenario === scenario && m.tool === tool && m.n === n && m.rttMs === rtt)
      .map((m) => m.wallMs),
  );
}

/** The speed and request targets for one (N, RTT) block of the Roles package. */
function blockChecks(ms: Measurement[], n: number, rtt: number): Check[] {
  const checks: Check[] = [];
  const where = `N=${n}, ${rtt} ms RTT`;
  const ratio = (scenario: string, tool: string, min: number, what: string) => {
    const ours = med(ms, scenario, 'ours', n, rtt);
    const other = med(ms, scenario, tool, n, rtt);
    if (ours === undefined || other === undefined) return;
    checks.push({
      target: `${what}: ≥ ${min}x faster`,
      where,
      measured: `${fmtRatio(other / ours)} (${fmtMs(other)} vs ${fmtMs(ours)})`,
      met: other / ours >= min,
    });
  };
  ratio('first-apply', 'kpt', 10, 'first apply vs `kpt live apply`');
  ratio('noop-apply', 'kpt', 10, 'no-op re-apply vs `kpt live apply`');
  ratio('preview-first', 'kpt', 10, 'preview (first) vs `kpt live apply --dry-run --server-side`');
  ratio('preview-noop', 'kpt', 10, 'preview (no-op) vs `kpt live apply --dry-run --server-side`');
  ratio('preview-changed', 'kpt', 10, 'preview (changed) vs `kpt live apply --dry-run --server-side`');
  ratio('destroy', 'kpt', 10, 'destroy vs `kpt live destroy`');
  ratio('first-apply', 'kubectl', 5, 'first apply vs `kubectl apply --server-side`');
  ratio('noop-apply', 'kubectl', 5, 'no-op re-apply vs `kubectl apply --server-side`');
  const scenarios = [
    'preview-first',
    'first-apply',
    'preview-noop',
    'noop-apply',
    'changed-apply',
    'destroy',
  ];
  for (const [tool, suffix] of [
    ['ours', ''],
    ['ours-nopf', ' (`preflight: off`)'],
  ] as const) {
    for (const scenario of scenarios) {
      const rows = ms.filter(
        (m) =>
          m.ok && m.scenario === scenario && m.tool === tool && m.n === n && m.rttMs === rtt && m.requests,
      );
      const reqs = median(rows.map((m) => m.requests?.total ?? 0));
      if (reqs === undefined || !rows[0]?.objects) continue;
      const budget = rows[0].objects + (rows[0].kindNamespaces ?? 0);
      checks.push({
        target: `${scenario} requests${suffix} ≤ 1.2 × (objects + kind/ns pairs)`,
        where,
        measured: `${reqs} = ${(reqs / budget).toFixed(2)} × ${budget}`,
        met: reqs <= 1.2 * budget,
      });
    }
  }
  return checks;
}

/** The targets, checked against what this run measured (only what was measured). */
export function targetsTable(ms: Measurement[]): string {
  const checks: Check[] = [];
  const blocks = new Set(
    ms
      .filter((m) => m.kind === 'roles' && m.tool === 'ours' && m.n > 0 && m.scenario !== 'cold-start')
      .map((m) => `${m.n}|${m.rttMs}`),
  );
  for (const b of blocks) {
    const [n, rtt] = b.split('|').map(Number);
    checks.push(...blockChecks(ms, n, rtt));
  }
  for (const n of new Set(ms.filter((m) => m.scenario === 'cold-start').map((m) => m.n))) {
    const v = median(
      ms
        .filter((m) => m.ok && m.scenario === 'cold-start' && m.tool === 'action' && m.n === n)
        .map((m) => m.extra?.firstRequestMs ?? Number.NaN),
    );
    if (v !== undefined)
      checks.push({
        target: 'cold start of dist/index.js < 500 ms',
        where: `N=${n}`,
        measured: fmtMs(v),
        met: v < 500,
      });
  }
  for (const m of ms.filter((x) => x.scenario === 'peak-rss' && x.n >= 1000 && x.extra?.maxRssKb)) {
    const mb = (m.extra?.maxRssKb ?? 0) / 1024;
    checks.push({
      target: 'peak RSS < 250 MB',
      where: `N=${m.n}, ${m.label}`,
      measured: `${mb.toFixed(0)} MB`,
      met: mb < 250,
    });
  }
  const exits = ms.filter((m) => m.ok && m.scenario === 'exit-latency' && m.tool === 'ours');
  for (const key of new Set(exits.map((m) => `${m.n}|${m.rttMs}`))) {
    const [n, rtt] = key.split('|').map(Number);
    const v = median(
      exits.filter((m) => m.n === n && m.rttMs === rtt).map((m) => m.extra?.exitLatencyMs ?? Number.NaN),
    );
    if (v !== undefined)
      checks.push({
        target: 'exit within 200 ms of the last object turning Current',
        where: `N=${n} (+1 Deployment), ${rtt} ms RTT`,
        measured: fmtMs(v),
        met: v < 200,
      });
  }
  if (checks.length === 0) return '';
  const lines = ['### Targets (issue 9)', '', '| target | where | measured | met |', '|---|---|---|---|'];
  for (const c of checks)
    lines.push(`| ${c.target} | ${c.where} | ${c.measured} | ${c.met ? 'yes' : '**no**'} |`);
  return `${lines.join('\n')}\n`;
}
