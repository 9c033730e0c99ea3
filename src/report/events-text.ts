import type { GroupAction, RunEvent } from '../apply/events.js';
import { displayName } from '../common/object-id.js';
import { exitCodeOf } from '../common/run-outcome.js';
import { scrub } from '../preview/redact.js';
import { attempted, EventStats, isZero, outcomeOf } from './event-stats.js';

/**
 * kpt 1.0's `--output events` text (cli-utils v0.37 pkg/printers/events/formatter.go), byte for byte, so
 * scripts written against `kpt live apply` read our output unchanged.
 */

export interface EventTextOptions {
  /** Print `<kind.group>/<name> is <Status>: <message>` lines (kpt `--show-status-events`). */
  showStatusEvents?: boolean;
  /** Secret values (`collectSecretValues`) to replace with `***` if an error message echoes one. */
  secretValues?: readonly string[];
}

const PHASE: Record<GroupAction, string> = {
  Apply: 'apply phase',
  Prune: 'prune phase',
  Delete: 'delete phase',
  Wait: 'reconcile phase',
  Inventory: 'inventory update',
};

/**
 * One event as kpt prints it, without the newline; undefined for events kpt does not print (init, error,
 * and status events unless asked for). kpt prints a fatal error itself, as `error: <message>` on stderr.
 */
export function renderEventText(event: RunEvent, opts: EventTextOptions = {}): string | undefined {
  const line = formatEvent(event, opts);
  return line !== undefined && opts.secretValues ? scrub(line, opts.secretValues) : line;
}

function formatEvent(event: RunEvent, opts: EventTextOptions): string | undefined {
  switch (event.type) {
    case 'group':
      return `${PHASE[event.action]} ${event.status.toLowerCase()}`;
    case 'apply':
    case 'prune':
    case 'delete': {
      const line = `${displayName(event.id)} ${event.type} ${event.status.toLowerCase()}`;
      return event.error === undefined ? line : `${line}: ${event.error}`;
    }
    case 'wait':
      return `${displayName(event.id)} reconcile ${event.status.toLowerCase()}`;
    case 'status':
      return opts.showStatusEvents
        ? `${displayName(event.id)} is ${event.status}: ${event.message}`
        : undefined;
    default:
      return undefined;
  }
}

/**
 * The closing lines kpt prints after the last event: one line per action that counted anything, in the
 * order apply, prune, delete, reconcile.
 */
export function renderSummaryText(stats: EventStats): string[] {
  const lines: string[] = [];
  const actuations = [
    ['apply', stats.apply],
    ['prune', stats.prune],
    ['delete', stats.delete],
  ] as const;
  for (const [name, c] of actuations) {
    if (isZero(c)) continue;
    lines.push(
      `${name} result: ${attempted(c)} attempted, ${c.successful} successful, ${c.skipped} skipped, ${c.failed} failed`,
    );
  }
  const w = stats.wait;
  if (!isZero(w)) {
    lines.push(
      `reconcile result: ${attempted(w)} attempted, ${w.successful} successful, ${w.skipped} skipped, ${w.failed} failed, ${w.timeout} timed out`,
    );
  }
  return lines;
}

export interface EventStreamText {
  /** Every printed line followed by a newline, as kpt writes them to stdout. */
  text: string;
  stats: EventStats;
  /** 0, or 3 when something failed or timed out; 1 when the run ended with a fatal error event. */
  exitCode: 0 | 1 | 3;
  /** The fatal error, which kpt prints to stderr (`error: ...`) instead of the summary. */
  error?: string;
}

/**
 * A whole run as kpt prints it: the events, then the summary lines; a fatal error event ends the output
 * there without a summary (cli-utils' list printer returns on it).
 */
export function renderEventsText(events: Iterable<RunEvent>, opts: EventTextOptions = {}): EventStreamText {
  const stats = new EventStats();
  const lines: string[] = [];
  for (const event of events) {
    stats.add(event);
    if (event.type === 'error') {
      const error = opts.secretValues ? scrub(event.error, opts.secretValues) : event.error;
      return { text: joinLines(lines), stats, exitCode: exitCodeOf('error'), error };
    }
    const line = renderEventText(event, opts);
    if (line !== undefined) lines.push(line);
  }
  lines.push(...renderSummaryText(stats));
  return { text: joinLines(lines), stats, exitCode: exitCodeOf(outcomeOf(stats)) };
}

function joinLines(lines: string[]): string {
  return lines.map((line) => `${line}\n`).join('');
}
