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
  const ratio = (scenario: string, tool: string, min: number, what: string, ourTool = 'ours') => {
    const ours = med(ms, scenario, ourTool, n, rtt);
    const other = med(ms, scenario, tool, n, rtt);
    if (ours === undefined || other === undefined) return;
    checks.push({
      target: `${what}: ≥ ${min}x faster`,
      where,
      measured: `${fmtRatio(other / ours)} (${fmtMs(other)} vs ${fmtMs(ours)})`,
      met: other / ours >= min,
    });
  };
  // the shipped CLI and the action within 1.5x of the floor (bench/floor.ts)
  const nearFloor = (scenario: string, ourTool: string, what: string) => {
    const ours = med(ms, scenario, ourTool, n, rtt);
    const floor = med(ms, scenario, 'floor', n, rtt);
    if (ours === undefined || floor === undefined) return;
    checks.push({
      target: `${what} within 1.5x the floor`,
      where,
      measured: `${fmtRatio(ours / floor)} (${fmtMs(ours)} vs floor ${fmtMs(floor)})`,
      met: ours / floor <= 1.5,
    });
  };
  for (const [tool, name] of [
    ['ours', '`kpt-live apply`'],
    ['action', '`node dist/index.js`'],
  ] as const) {
    nearFloor('first-apply', tool, `first apply, ${name},`);
    nearFloor('noop-apply', tool, `no-op re-apply, ${name},`);
  }
  ratio('first-apply', 'kpt', 10, 'first apply, the action, vs `kpt live apply`', 'action');
  ratio('noop-apply', 'kpt', 10, 'no-op re-apply, the action, vs `kpt live apply`', 'action');
  ratio('first-apply', 'kubectl', 5, 'first apply, the action, vs `kubectl apply --server-side`', 'action');
  ratio('noop-apply', 'kubectl', 5, 'no-op re-apply, the action, vs `kubectl apply --server-side`', 'action');
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
  for (const n of new Set(ms.filter((m) => m.scenario === 'cold-start').map((m) => m.n)))
    for (const [tool, what] of [
      ['action', 'dist/index.js'],
      ['ours', 'bin/kpt-live.js'],
    ]) {
      const v = median(
        ms
          .filter((m) => m.ok && m.scenario === 'cold-start' && m.tool === tool && m.n === n)
          .map((m) => m.extra?.firstRequestMs ?? Number.NaN),
      );
      if (v !== undefined)
        checks.push({
          target: `cold start of ${what} (spawn to first API request) < 150 ms`,
          where: `N=${n}`,
          measured: fmtMs(v),
          met: v < 150,
        });
    }
  // large packages: time per object at the largest N ≤ 1.3x that at 300; peak RSS < 300 MB at 5000
  const lifecycleOurs = ms.filter((m) => m.ok && m.kind === 'roles' && m.tool === 'ours' && m.objects);
  for (const scenario of new Set(lifecycleOurs.map((m) => m.scenario)))
    for (const rtt of new Set(lifecycleOurs.map((m) => m.rttMs))) {
      const rows = lifecycleOurs.filter((m) => m.scenario === scenario && m.rttMs === rtt);
      const perObject = (n: number) =>
        median(rows.filter((m) => m.n === n).map((m) => m.wallMs / (m.objects ?? 1)));
      const big = Math.max(...rows.map((m) => m.n));
      const small = perObject(300);
      const large = perObject(big);
      if (big > 300 && small !== undefined && large !== undefined)
        checks.push({
          target: `${scenario}: time per object at N=${big} ≤ 1.3x that at N=300`,
          where: `${rtt} ms RTT, kpt-live`,
          measured: `${fmtRatio(large / small)} (${large.toFixed(2)} vs ${small.toFixed(2)} ms)`,
          met: large / small <= 1.3,
        });
      for (const m of rows.filter((x) => x.n >= 5000 && x.extra?.maxRssKb).slice(0, 1)) {
        const mb = Math.max(...rows.filter((x) => x.n === m.n).map((x) => x.extra?.maxRssKb ?? 0)) / 1024;
        checks.push({
          target: `${scenario}: peak RSS < 300 MB`,
          where: `N=${m.n}, ${rtt} ms RTT, kpt-live (largest run)`,
          measured: `${mb.toFixed(0)} MB`,
          met: mb < 300,
        });
      }
    }
  for (const rtt of new Set(ms.filter((m) => m.scenario === 'monorepo').map((m) => m.rttMs))) {
    const rows = ms.filter((m) => m.ok && m.scenario === 'monorepo' && m.rttMs === rtt);
    const many = median(rows.filter((m) => (m.extra?.packages ?? 0) > 1).map((m) => m.wallMs));
    const one = median(rows.filter((m) => m.extra?.packages === 1).map((m) => m.wallMs));
    if (many !== undefined && one !== undefined)
      checks.push({
        target: 'preview of 40 packages × 25 objects ≤ 1.2x the preview of one 1000-object package',
        where: `${rtt} ms RTT, node dist/index.js`,
        measured: `${fmtRatio(many / one)} (${fmtMs(many)} vs ${fmtMs(one)})`,
        met: many / one <= 1.2,
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
  const lines = ['### Targets', '', '| target | where | measured | met |', '|---|---|---|---|'];
  for (const c of checks)
    lines.push(`| ${c.target} | ${c.where} | ${c.measured} | ${c.met ? 'yes' : '**no**'} |`);
  return `${lines.join('\n')}\n`;
}
