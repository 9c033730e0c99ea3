import type { RunEvent } from '../apply/events.js';
import { idKey, type ObjectId, shortName } from '../common/object-id.js';
import { EventStats } from '../report/event-stats.js';

/** Left-aligned columns separated by two spaces, header first; trailing spaces trimmed. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (c ?? '').padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].map((l) => `${l}\n`).join('');
}

interface Row {
  id: ObjectId;
  action: string;
  status: string;
  reconciled: string;
  message: string;
}

const HEADER = ['NAMESPACE', 'RESOURCE', 'ACTION', 'STATUS', 'RECONCILED', 'MESSAGE'];

/**
 * `--output table` (kpt's table printer, simplified): one row per object with its action, kstatus and
 * reconcile result. On a terminal the table is redrawn in place as events arrive; elsewhere it is printed
 * once when the run ends.
 */
export class TablePrinter {
  readonly stats = new EventStats();
  private readonly rows = new Map<string, Row>();
  private drawn = 0;
  private timer?: NodeJS.Timeout;
  private errored = false;

  constructor(
    private readonly write: (text: string) => void,
    private readonly live: boolean,
  ) {}

  private row(id: ObjectId): Row {
    const key = idKey(id);
    let row = this.rows.get(key);
    if (!row) {
      row = { id, action: '-', status: '-', reconciled: '-', message: '' };
      this.rows.set(key, row);
    }
    return row;
  }

  event(event: RunEvent): void {
    this.stats.add(event);
    switch (event.type) {
      case 'init':
        for (const g of event.groups) if (g.action !== 'Wait') for (const id of g.ids) this.row(id);
        break;
      case 'apply':
      case 'prune':
      case 'delete': {
        const row = this.row(event.id);
        const verb = event.type === 'apply' ? 'Apply' : event.type === 'prune' ? 'Prune' : 'Delete';
        row.action =
          event.status === 'Successful'
            ? event.type === 'apply'
              ? (event.operation ?? verb)
              : verb
            : `${verb} ${event.status}`;
        if (event.error) row.message = event.error;
        break;
      }
      case 'wait': {
        const row = this.row(event.id);
        row.reconciled = event.status;
        if (event.message) row.message = event.message;
        break;
      }
      case 'status': {
        const row = this.row(event.id);
        row.status = event.status;
        if (row.reconciled === '-' || row.reconciled === 'Pending') row.message = event.message;
        break;
      }
      case 'error':
        this.errored = true;
        break;
      default:
        break;
    }
    if (this.live) this.schedule();
  }

  /** The final table (also printed when nothing was live-drawn). */
  finish(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.errored && this.rows.size === 0) return;
    this.draw();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.draw();
    }, 500);
    this.timer.unref();
  }

  private draw(): void {
    const text = formatTable(
      HEADER,
      [...this.rows.values()].map((r) => [
        r.id.namespace,
        shortName(r.id),
        r.action,
        r.status,
        r.reconciled,
        r.message,
      ]),
    );
    if (this.live && this.drawn > 0) this.write(`\u001b[${this.drawn}A\u001b[0J`);
    this.write(text);
    this.drawn = text.split('\n').length - 1;
  }
}
