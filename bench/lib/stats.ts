import type { RequestCount } from '../audit-count.js';

/** One measured run of one command in one scenario. */
export interface Measurement {
  scenario: string;
  tool: string;
  /** The command as the table shows it. */
  label: string;
  n: number;
  rttMs: number;
  kind: string;
  rep: number;
  ok: boolean;
  error?: string;
  startMs: number;
  endMs: number;
  wallMs: number;
  /** Objects the step touches (applied, previewed or deleted) and the kind/namespace pairs among them. */
  objects?: number;
  kindNamespaces?: number;
  requests?: RequestCount;
  /** Scenario-specific numbers: maxRssKb, exitLatencyMs, firstRequestMs, engineMs. */
  extra?: Record<string, number>;
}

export function median(xs: number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** 1234 → `1.23 s`, 87 → `87 ms`. */
export function fmtMs(ms: number | undefined): string {
  if (ms === undefined || Number.isNaN(ms)) return '–';
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 100_000 ? 0 : ms >= 10_000 ? 1 : 2)} s`;
  return `${Math.round(ms)} ms`;
}

export function fmtRatio(r: number | undefined): string {
  if (r === undefined || !Number.isFinite(r)) return '–';
  return `${r >= 10 ? r.toFixed(0) : r.toFixed(1)}x`;
}

/** The runs of one (scenario, tool) cell, summarised. */
export interface Cell {
  label: string;
  runs: number;
  ok: number;
  medianMs?: number;
  minMs?: number;
  maxMs?: number;
  requests?: number;
  objects?: number;
  kindNamespaces?: number;
  verbs?: Record<string, number>;
  dryRun?: number;
  errors: string[];
  extra: Record<string, number | undefined>;
}

export function summarise(ms: Measurement[]): Cell {
  const good = ms.filter((m) => m.ok);
  const walls = good.map((m) => m.wallMs);
  const reqs = good.map((m) => m.requests?.total).filter((x): x is number => x !== undefined);
  const medReq = median(reqs);
  const verbsOf = good.find((m) => m.requests?.total === medReq) ?? good[0];
  const extraKeys = new Set(good.flatMap((m) => Object.keys(m.extra ?? {})));
  const extra: Record<string, number | undefined> = {};
  for (const k of extraKeys)
    extra[k] = median(good.map((m) => m.extra?.[k]).filter((x): x is number => x !== undefined));
  return {
    label: ms[0]?.label ?? '',
    runs: ms.length,
    ok: good.length,
    medianMs: median(walls),
    minMs: walls.length ? Math.min(...walls) : undefined,
    maxMs: walls.length ? Math.max(...walls) : undefined,
    requests: medReq,
    objects: ms[0]?.objects,
    kindNamespaces: ms[0]?.kindNamespaces,
    verbs: verbsOf?.requests?.byVerb,
    dryRun: verbsOf?.requests?.dryRun,
    errors: [...new Set(ms.filter((m) => !m.ok).map((m) => m.error ?? 'failed'))],
    extra,
  };
}
