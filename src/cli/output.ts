import type { RunEvent } from '../apply/events.js';
import { isBlockedOutcome, type ObjectOutcome } from '../apply/run-result.js';
import { blockedExplanation } from '../apply/skip-reason.js';
import { displayName, type ObjectId } from '../common/object-id.js';
import type { ObjectStatus } from '../pipeline/package-status.js';
import { EventStats } from '../report/event-stats.js';
import { goJson, JsonEventFormatter, rfc3339 } from '../report/events-json.js';
import { renderEventText, renderSummaryText } from '../report/events-text.js';
import { formatTable, TablePrinter } from './table.js';

/** Prints a run's events as they happen, then the closing lines; `stats` decide the exit code of a dry-run. */
export interface EventPrinter {
  event(event: RunEvent): void;
  finish(): void;
  readonly stats: EventStats;
}

export type EventFormat = 'events' | 'json' | 'table';

export interface EventPrinterOptions {
  showStatusEvents?: boolean;
  /** Clock for JSON timestamps. */
  now?: () => Date;
  /** Redraw the table in place (a terminal). */
  live?: boolean;
  /**
   * Secret values to print as `***` should an error message echo one. The array is read on every line, so
   * values added once the package is loaded (runPackage's onPrepared) still count.
   */
  secretValues?: string[];
}

/**
 * kpt's printers over the shared renderers: `events` (cli-utils' text lines), `json` (its JSON lines),
 * `table`. A fatal error event ends the output without the summary, as kpt does; the CLI then prints the
 * error itself on stderr.
 */
export function eventPrinter(
  format: EventFormat,
  write: (text: string) => void,
  opts: EventPrinterOptions = {},
): EventPrinter {
  if (format === 'table') return new TablePrinter(write, !!opts.live);
  if (format === 'json') {
    const f = new JsonEventFormatter({
      showStatusEvents: opts.showStatusEvents,
      now: opts.now,
      secretValues: opts.secretValues,
    });
    let errored = false;
    return {
      stats: f.stats,
      event(event) {
        const line = f.format(event);
        if (line !== undefined) write(`${line}\n`);
        if (event.type === 'error') errored = true;
      },
      finish() {
        if (!errored) for (const line of f.summary()) write(`${line}\n`);
      },
    };
  }
  const stats = new EventStats();
  let errored = false;
  return {
    stats,
    event(event) {
      stats.add(event);
      if (event.type === 'error') errored = true;
      const line = renderEventText(event, {
        showStatusEvents: opts.showStatusEvents,
        secretValues: opts.secretValues,
      });
      if (line !== undefined) write(`${line}\n`);
    },
    finish() {
      if (!errored) for (const line of renderSummaryText(stats)) write(`${line}\n`);
    },
  };
}

/** `<kind.group>` as kpt's status printer spells it: lower case, group after a dot. */
function groupKind(id: ObjectId): string {
  return (id.group ? `${id.kind}.${id.group}` : id.kind).toLowerCase();
}

/**
 * `status` output as `kpt live status` prints it: `events` lines
 * `<inventory>/<kind.group>/<namespace>/<name> is <Status>: <message>`, `json` lines with an
 * `inventory-name` key, or a table.
 */
export function renderStatus(
  format: EventFormat,
  inventoryName: string,
  objects: readonly ObjectStatus[],
  now: () => Date = () => new Date(),
): string {
  if (format === 'table') {
    return formatTable(
      ['NAMESPACE', 'RESOURCE', 'STATUS', 'MESSAGE'],
      objects.map((o) => [o.id.namespace, `${o.id.kind}/${o.id.name}`, o.status, o.message]),
    );
  }
  if (format === 'json') {
    return objects
      .map(
        (o) =>
          `${goJson({
            group: o.id.group,
            'inventory-name': inventoryName,
            kind: o.id.kind,
            message: o.message,
            name: o.id.name,
            namespace: o.id.namespace,
            status: o.status,
            timestamp: rfc3339(now()),
            type: 'status',
          })}\n`,
      )
      .join('');
  }
  return objects
    .map(
      (o) =>
        `${inventoryName}/${groupKind(o.id)}/${o.id.namespace}/${o.id.name} is ${o.status}: ${o.message}\n`,
    )
    .join('');
}

function problemOf(o: ObjectOutcome): string | undefined {
  if (o.action === 'failed') return 'failed';
  if (o.reconcile === 'Failed') return 'failed to reconcile';
  if (o.reconcile === 'Timeout') return 'timed out';
  if (isBlockedOutcome(o)) return 'blocked';
  return undefined;
}

function why(o: ObjectOutcome): string {
  if (o.skip && isBlockedOutcome(o)) return `: ${blockedExplanation(o.skip)}`;
  return o.message ? `: ${o.message}` : '';
}

function where(o: ObjectOutcome): string {
  return o.source ? ` (${o.source.file}:${o.source.line})` : '';
}

/**
 * The stderr lines after a run that ends with exit code 3: which objects failed, timed out or were blocked
 * (skipped for a reason the user did not choose: another inventory owns them, a dependency failed), why,
 * who owns them and the fix, so nobody has to scroll back through the events.
 */
export function renderFailures(objects: readonly ObjectOutcome[]): string {
  const bad = objects.flatMap((o) => {
    const problem = problemOf(o);
    return problem ? [`  ${displayName(o.id)}${where(o)} ${problem}${why(o)}`] : [];
  });
  if (bad.length === 0) return '';
  return `error: ${bad.length} object(s) did not succeed:\n${bad.join('\n')}\n`;
}

/** After a run that passed with --allow-skipped: the objects it let through unapplied, as a note. */
export function renderAllowedSkips(objects: readonly ObjectOutcome[]): string {
  const skipped = objects.filter(isBlockedOutcome);
  if (skipped.length === 0) return '';
  const lines = skipped.map((o) => `  ${displayName(o.id)}${where(o)}: ${o.message ?? 'skipped'}`);
  return `note: ${skipped.length} object(s) skipped, allowed by --allow-skipped:\n${lines.join('\n')}\n`;
}
