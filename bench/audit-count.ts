/**
 * Counts API requests per user agent and verb from the kube-apiserver audit log (JSON lines, Metadata
 * level) between two times. The log is written in batches (up to 1 s late): wait ≥ 2 s after a scenario
 * before counting it.
 *
 *   node --import tsx bench/audit-count.ts --log /dev/shm/.../audit.log --from <ISO|epoch ms> [--to ...]
 *     [--agent kpt-live-action]
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

export interface AuditEvent {
  auditId: string;
  /** requestReceivedTimestamp as epoch milliseconds (microseconds kept as the fraction). */
  at: number;
  userAgent: string;
  verb: string;
  uri: string;
  code?: number;
}

/** Which tool a user agent belongs to (the gcloud kubectl dispatcher counts as kubectl: it is its binary). */
export type AgentFamily = 'ours' | 'kpt' | 'kubectl' | 'floor';

export function agentFamily(userAgent: string): AgentFamily | undefined {
  if (userAgent.startsWith('kpt-live-action/')) return 'ours';
  if (userAgent.startsWith('kpt/')) return 'kpt';
  if (userAgent.startsWith('bench-floor/')) return 'floor';
  if (userAgent.startsWith('kubectl/') || userAgent.startsWith('kubectl-dispatcher/')) return 'kubectl';
  return undefined;
}

/** `2026-11-22T16:41:10.518050Z` → epoch ms with the microseconds as the fraction. */
export function parseMicroTime(text: string): number {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(text);
  if (!m) return Date.parse(text);
  const frac = (m[2] ?? '0').padEnd(6, '0').slice(0, 6);
  return Date.parse(`${m[1]}Z`) + Number(frac) / 1000;
}

/**
 * Reads the audit events appended since `fromOffset` (bytes), one per request (a watch's two stages are
 * one request). Returns the offset of the last complete line, to read on from there next time.
 */
export function readAuditEvents(
  logPath: string,
  fromOffset = 0,
): { events: AuditEvent[]; endOffset: number } {
  const fd = fs.openSync(logPath, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, size - fromOffset));
    fs.readSync(fd, buf, 0, buf.length, fromOffset);
    const text = buf.toString('utf8');
    const lastNl = text.lastIndexOf('\n');
    const complete = lastNl >= 0 ? text.slice(0, lastNl) : '';
    const seen = new Set<string>();
    const events: AuditEvent[] = [];
    for (const line of complete.split('\n')) {
      if (!line) continue;
      const e = JSON.parse(line) as {
        auditID: string;
        requestReceivedTimestamp: string;
        userAgent?: string;
        verb: string;
        requestURI: string;
        responseStatus?: { code?: number };
      };
      if (seen.has(e.auditID)) continue;
      seen.add(e.auditID);
      events.push({
        auditId: e.auditID,
        at: parseMicroTime(e.requestReceivedTimestamp),
        userAgent: e.userAgent ?? '',
        verb: e.verb,
        uri: e.requestURI,
        code: e.responseStatus?.code,
      });
    }
    return { events, endOffset: fromOffset + Buffer.byteLength(complete) + (lastNl >= 0 ? 1 : 0) };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Reads a live audit log incrementally, rotations included: kube-apiserver writes through lumberjack, which
 * renames `audit.log` to `audit-<time>.log` at 100 MB (its default when --audit-log-maxsize is 0) and starts
 * a new file. Offsets are kept per inode, so a renamed file is read on from where it was left.
 */
export class AuditReader {
  private readonly offsets = new Map<number, number>();

  constructor(private readonly logPath: string) {}

  /** The events appended to any of the log's files since the previous call. */
  read(): AuditEvent[] {
    const dir = path.dirname(this.logPath);
    const base = path.basename(this.logPath, '.log');
    const files = fs
      .readdirSync(dir)
      .filter((f) => f === `${base}.log` || (f.startsWith(`${base}-`) && f.endsWith('.log')))
      .map((f) => {
        const full = path.join(dir, f);
        const st = fs.statSync(full);
        return { full, ino: st.ino, mtime: st.mtimeMs };
      })
      .sort((a, b) => a.mtime - b.mtime);
    const events: AuditEvent[] = [];
    for (const f of files) {
      const { events: more, endOffset } = readAuditEvents(f.full, this.offsets.get(f.ino) ?? 0);
      this.offsets.set(f.ino, endOffset);
      for (const e of more) events.push(e); // not push(...more): hundreds of thousands overflow the stack
    }
    return events;
  }
}

export interface RequestCount {
  total: number;
  byVerb: Record<string, number>;
  byAgent: Record<string, number>;
  /** Requests with dryRun=All in the URI (pre-flight and preview dry-runs). */
  dryRun: number;
}

/** Requests received in [fromMs, toMs] from agents of `family` (all agents when omitted). */
export function countRequests(
  events: readonly AuditEvent[],
  window: { fromMs: number; toMs: number; family?: AgentFamily },
): RequestCount {
  const out: RequestCount = { total: 0, byVerb: {}, byAgent: {}, dryRun: 0 };
  for (const e of events) {
    if (e.at < window.fromMs || e.at > window.toMs) continue;
    if (window.family && agentFamily(e.userAgent) !== window.family) continue;
    out.total++;
    out.byVerb[e.verb] = (out.byVerb[e.verb] ?? 0) + 1;
    out.byAgent[e.userAgent] = (out.byAgent[e.userAgent] ?? 0) + 1;
    if (/[?&]dryRun=All/.test(e.uri)) out.dryRun++;
  }
  return out;
}

/** The first request of `family` received at or after `fromMs` (epoch ms), if any. */
export function firstRequestAt(
  events: readonly AuditEvent[],
  fromMs: number,
  family: AgentFamily,
  toMs = Number.POSITIVE_INFINITY,
): number | undefined {
  let first: number | undefined;
  for (const e of events) {
    if (e.at < fromMs || e.at > toMs || agentFamily(e.userAgent) !== family) continue;
    if (first === undefined || e.at < first) first = e.at;
  }
  return first;
}

/** `{get: 3, patch: 300}` → `get 3, patch 300`. */
export function formatVerbs(byVerb: Record<string, number>): string {
  return Object.entries(byVerb)
    .sort((a, b) => b[1] - a[1])
    .map(([v, n]) => `${v} ${n}`)
    .join(', ');
}

function parseTime(text: string | undefined, fallback: number): number {
  if (!text) return fallback;
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : parseMicroTime(text);
}

function main(): void {
  const { values } = parseArgs({
    options: {
      log: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      agent: { type: 'string' },
    },
  });
  if (!values.log) throw new Error('--log is required: the kube-apiserver audit log (JSON lines)');
  const events = new AuditReader(values.log).read();
  const fromMs = parseTime(values.from, 0);
  const toMs = parseTime(values.to, Number.POSITIVE_INFINITY);
  const rows = new Map<string, Record<string, number>>();
  for (const e of events) {
    if (e.at < fromMs || e.at > toMs) continue;
    if (values.agent && !e.userAgent.includes(values.agent)) continue;
    const r = rows.get(e.userAgent) ?? {};
    r[e.verb] = (r[e.verb] ?? 0) + 1;
    rows.set(e.userAgent, r);
  }
  const sorted = [...rows].sort(
    (a, b) => Object.values(b[1]).reduce((x, y) => x + y, 0) - Object.values(a[1]).reduce((x, y) => x + y, 0),
  );
  for (const [agent, verbs] of sorted) {
    const total = Object.values(verbs).reduce((x, y) => x + y, 0);
    console.log(`${String(total).padStart(7)}  ${agent || '(none)'}: ${formatVerbs(verbs)}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
