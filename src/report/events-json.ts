import type { GroupAction, RunEvent } from '../apply/events.js';
import { isRecord } from '../common/kube-object.js';
import type { ObjectId } from '../common/object-id.js';
import { exitCodeOf } from '../common/run-outcome.js';
import { scrub } from '../preview/redact.js';
import {
  type ActuationCounts,
  attempted,
  EventStats,
  isZero,
  outcomeOf,
  type WaitCounts,
} from './event-stats.js';
import type { EventStreamText } from './events-text.js';

/**
 * kpt's `--output json` (cli-utils v0.37 pkg/printers/json/formatter.go): one JSON object per line, keys
 * sorted and strings escaped as Go's encoding/json does, an RFC 3339 UTC `timestamp` on every line.
 */

export interface JsonLinesOptions {
  /** The clock for `timestamp`; tests pass a fixed one. */
  now?: () => Date;
  /** Print status events (kpt `--show-status-events`). */
  showStatusEvents?: boolean;
  /** Secret values (`collectSecretValues`) to replace with `***` if an error message echoes one. */
  secretValues?: readonly string[];
}

/** Go's time.RFC3339 in UTC: whole seconds and `Z`. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, 'Z');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key]);
  return out;
}

/**
 * JSON as Go's json.Marshal writes a map: keys sorted, and `<`, `>`, `&`, U+2028, U+2029 escaped as
 * `\u003c`-style sequences (Go's HTML-safe default), so lines compare byte for byte with kpt's.
 */
export function goJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)).replace(/[<>&\u2028\u2029]/g, (ch) => {
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

function idFields(id: ObjectId): Record<string, string> {
  return { group: id.group, kind: id.kind, name: id.name, namespace: id.namespace };
}

function countFields(counts: ActuationCounts | WaitCounts): Record<string, number> {
  const out: Record<string, number> = {
    count: attempted(counts),
    failed: counts.failed,
    skipped: counts.skipped,
    successful: counts.successful,
  };
  if ('timeout' in counts) out.timeout = counts.timeout;
  return out;
}

function statsFor(stats: EventStats, action: GroupAction): ActuationCounts | WaitCounts | undefined {
  switch (action) {
    case 'Apply':
      return stats.apply;
    case 'Prune':
      return stats.prune;
    case 'Delete':
      return stats.delete;
    case 'Wait':
      return stats.wait;
    default:
      return undefined;
  }
}

/** Formats a run's events one at a time; it keeps the counts that `group` Finished lines carry. */
export class JsonEventFormatter {
  readonly stats = new EventStats();
  private readonly now: () => Date;

  constructor(private readonly opts: JsonLinesOptions = {}) {
    this.now = opts.now ?? (() => new Date());
  }

  private line(type: string, content: Record<string, unknown>): string {
    const values = this.opts.secretValues;
    const safe = values
      ? Object.fromEntries(
          Object.entries(content).map(([k, v]) => [k, typeof v === 'string' ? scrub(v, values) : v]),
        )
      : content;
    return goJson({ ...safe, timestamp: rfc3339(this.now()), type });
  }

  /** The line for one event (no newline), or undefined for events kpt does not print. */
  format(event: RunEvent): string | undefined {
    this.stats.add(event);
    switch (event.type) {
      case 'group': {
        const content: Record<string, unknown> = { action: event.action, status: event.status };
        const counts = statsFor(this.stats, event.action);
        if (event.status === 'Finished' && counts) Object.assign(content, countFields(counts));
        return this.line('group', content);
      }
      case 'apply':
      case 'prune':
      case 'delete': {
        const content: Record<string, unknown> = { ...idFields(event.id), status: event.status };
        if (event.error !== undefined) content.error = event.error;
        return this.line(event.type, content);
      }
      case 'wait':
        return this.line('wait', { ...idFields(event.id), status: event.status });
      case 'status':
        if (!this.opts.showStatusEvents) return undefined;
        return this.line('status', { ...idFields(event.id), message: event.message, status: event.status });
      case 'error':
        return this.line('error', { error: event.error });
      default:
        return undefined;
    }
  }

  /** The `summary` lines printed after the last event, one per action that counted anything. */
  summary(): string[] {
    const lines: string[] = [];
    for (const action of ['Apply', 'Prune', 'Delete', 'Wait'] as const) {
      const counts = statsFor(this.stats, action)!;
      if (!isZero(counts)) lines.push(this.line('summary', { action, ...countFields(counts) }));
    }
    return lines;
  }
}

/** A whole run as kpt's JSON lines; a fatal error event is printed and ends the output without summary. */
export function renderEventsJson(events: Iterable<RunEvent>, opts: JsonLinesOptions = {}): EventStreamText {
  const formatter = new JsonEventFormatter(opts);
  const lines: string[] = [];
  for (const event of events) {
    const line = formatter.format(event);
    if (line !== undefined) lines.push(line);
    if (event.type === 'error') {
      return {
        text: lines.map((l) => `${l}\n`).join(''),
        stats: formatter.stats,
        exitCode: exitCodeOf('error'),
        error: event.error,
      };
    }
  }
  lines.push(...formatter.summary());
  return {
    text: lines.map((l) => `${l}\n`).join(''),
    stats: formatter.stats,
    exitCode: exitCodeOf(outcomeOf(formatter.stats)),
  };
}
