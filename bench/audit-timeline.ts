/**
 * Where a run's time goes, from the API server's side: the requests of one user agent in a time window,
 * consecutive requests of the same verb and path pattern folded into one line with their count and span.
 *
 *   node --import tsx bench/audit-timeline.ts --log audit.log --from <epoch ms|ISO> [--to ...]
 *     [--agent kpt-live-action]
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type AuditEvent, AuditReader, parseMicroTime } from './audit-count.js';

export interface Phase {
  verb: string;
  pattern: string;
  count: number;
  firstMs: number;
  lastMs: number;
}

/** The request path with object names and query values folded (`roles/role-0001?dryRun=All` → `roles/*?dryRun`). */
export function pathPattern(uri: string): string {
  const [p, q] = uri.split('?');
  const keys = q
    ? `?${[...new URLSearchParams(q).keys()].filter((k) => k !== 'timeoutSeconds').join('&')}`
    : '';
  return p.replace(/(\/namespaces\/[^/]+\/[^/]+\/)[^/]+$/, '$1*').replace(/-\d{2,}\b/g, '-N') + keys;
}

/** Consecutive requests with the same verb and pattern, as phases. */
export function phases(events: readonly AuditEvent[]): Phase[] {
  const out: Phase[] = [];
  for (const e of [...events].sort((a, b) => a.at - b.at)) {
    const pattern = pathPattern(e.uri);
    const last = out[out.length - 1];
    if (last && last.verb === e.verb && last.pattern === pattern) {
      last.count++;
      last.lastMs = e.at;
    } else out.push({ verb: e.verb, pattern, count: 1, firstMs: e.at, lastMs: e.at });
  }
  return out;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      log: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      agent: { type: 'string', default: 'kpt-live-action' },
    },
  });
  if (!values.log || !values.from) throw new Error('--log and --from are required');
  const t = (s: string) => (/^\d+(\.\d+)?$/.test(s) ? Number(s) : parseMicroTime(s));
  const from = t(values.from);
  const to = values.to ? t(values.to) : Number.POSITIVE_INFINITY;
  const agent = values.agent;
  const events = new AuditReader(values.log).read();
  const mine = events.filter((e) => e.at >= from && e.at <= to && e.userAgent.includes(agent));
  for (const p of phases(mine))
    console.log(
      `+${(p.firstMs - from).toFixed(0).padStart(6)} … +${(p.lastMs - from).toFixed(0).padStart(6)} ms ` +
        `${String(p.count).padStart(5)} × ${p.verb} ${p.pattern}`,
    );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
