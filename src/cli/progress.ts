import type { GroupAction, RunEvent } from '../apply/events.js';
import { formatDuration } from '../common/duration.js';
import { displayName, idKey, type ObjectId } from '../common/object-id.js';
import type { KStatus } from '../status/types.js';
import type { CliContext } from './cli-io.js';
import type { ProgressMode } from './options.js';

/**
 * What a run shows while it waits. `view`: a block on stderr, redrawn in place, listing what is pending and
 * why (interactive terminals, or `--progress always`). `lines`: the engine's throttled "waiting ..." lines
 * on stderr (logs, CI). `off`: nothing (a live table already shows it).
 */
export type ProgressStyle = 'view' | 'lines' | 'off';

export function progressStyle(
  mode: ProgressMode | undefined,
  ctx: CliContext,
  output: string,
): ProgressStyle {
  if (mode === 'always') return 'view';
  if (output === 'table' && ctx.stdout.isTTY) return 'off';
  if (mode === 'never') return 'lines';
  return ctx.stderr.isTTY ? 'view' : 'lines';
}

export interface PendingObject {
  id: ObjectId;
  status?: KStatus;
  message?: string;
}

/** Everything the view shows, kept from the run's events. */
export interface ViewState {
  /** The actuation the current wait follows: applied objects wait for Current, deleted ones for NotFound. */
  after: GroupAction;
  /** When the current wait group started (ms since epoch), if one is running. */
  waitStartedAt?: number;
  runStartedAt: number;
  /** How many objects the current wait group waits for in all. */
  waitTotal: number;
  pending: Map<string, PendingObject>;
  /** The latest status of every object seen, so a new wait starts with what is known. */
  latest: Map<string, { status: KStatus; message: string }>;
  /** The engine's last progress line (e.g. waiting for another run's lock). */
  note?: string;
}

export function newViewState(now: number): ViewState {
  return { after: 'Apply', runStartedAt: now, waitTotal: 0, pending: new Map(), latest: new Map() };
}

/** Folds one engine event into the view's state. */
export function updateViewState(state: ViewState, event: RunEvent, now: number): void {
  switch (event.type) {
    case 'group':
      if (event.action === 'Wait' && event.status === 'Started') {
        state.waitStartedAt = now;
        state.waitTotal = 0;
        state.pending.clear();
      } else if (event.action === 'Wait') {
        state.waitStartedAt = undefined;
        state.pending.clear();
      } else if (event.status === 'Started' && event.action !== 'Inventory') {
        state.after = event.action;
      }
      return;
    case 'wait': {
      const key = idKey(event.id);
      if (event.status === 'Pending') {
        state.waitTotal++;
        state.pending.set(key, { id: event.id, ...state.latest.get(key) });
      } else {
        if (!state.pending.has(key)) state.waitTotal++;
        state.pending.delete(key);
      }
      return;
    }
    case 'status': {
      const key = idKey(event.id);
      state.latest.set(key, { status: event.status, message: event.message });
      const p = state.pending.get(key);
      if (p) {
        p.status = event.status;
        p.message = event.message;
      }
      return;
    }
    default:
      return;
  }
}

/** At most this many pending objects are listed; the rest are counted. */
const MAX_LISTED = 12;

/**
 * The view's lines (no colours, no escapes): a headline with counts and elapsed time, then one line per
 * pending object with its kstatus and message. Empty when nothing is being waited for.
 */
export function renderView(state: ViewState, now: number, width = 120): string[] {
  const clip = (line: string) =>
    line.length > width - 1 ? `${line.slice(0, Math.max(0, width - 2))}…` : line;
  if (state.waitStartedAt === undefined || state.pending.size === 0) {
    return state.note ? [clip(`… ${state.note}`)] : [];
  }
  const goal = state.after === 'Apply' ? 'to reconcile' : 'to be deleted';
  const waited = formatDuration(now - state.waitStartedAt);
  const total = formatDuration(now - state.runStartedAt);
  const lines = [
    `… waiting for ${state.pending.size} of ${state.waitTotal} object(s) ${goal} (${waited}; run ${total})`,
  ];
  const pending = [...state.pending.values()];
  const nameWidth = Math.min(50, Math.max(...pending.map((p) => displayName(p.id).length)));
  for (const p of pending.slice(0, MAX_LISTED)) {
    const status = (p.status ?? 'Unknown').padEnd(11);
    const message = p.message ? `  ${p.message}` : '';
    lines.push(`    ${displayName(p.id).padEnd(nameWidth)}  ${status}${message}`.trimEnd());
  }
  if (pending.length > MAX_LISTED) lines.push(`    … and ${pending.length - MAX_LISTED} more`);
  return lines.map(clip);
}

/**
 * The progress display of one CLI run. Every stdout write goes through `out` so the view can step aside
 * (erase itself, let the line through, redraw below it) and the two never interleave.
 */
export class Progress {
  private readonly state: ViewState;
  private drawn = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly ctx: CliContext,
    readonly style: ProgressStyle,
    private readonly now: () => number = Date.now,
  ) {
    this.state = newViewState(now());
  }

  /** Writes to stdout around the view. */
  out(text: string): void {
    if (this.style !== 'view') {
      this.ctx.stdout.write(text);
      return;
    }
    this.erase();
    this.ctx.stdout.write(text);
    this.draw();
  }

  /** Writes to stderr around the view. */
  err(text: string): void {
    this.erase();
    this.ctx.stderr.write(text);
    if (this.style === 'view') this.draw();
  }

  event(event: RunEvent): void {
    if (this.style !== 'view') return;
    updateViewState(this.state, event, this.now());
    if (event.type === 'group' || event.type === 'wait') this.note(undefined);
    this.redraw();
  }

  /** The engine's throttled progress line: printed as is in `lines` style, the view's footnote otherwise. */
  line(text: string): void {
    if (this.style === 'lines') this.ctx.stderr.write(`${text}\n`);
    else if (this.style === 'view') {
      this.note(text);
      this.redraw();
    }
  }

  /** Erases the view and stops redrawing (call before the final summary and on exit). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.erase();
  }

  private note(text: string | undefined): void {
    this.state.note = text;
  }

  private redraw(): void {
    this.erase();
    this.draw();
    if (!this.timer && this.drawn > 0) {
      this.timer = setInterval(() => {
        this.erase();
        this.draw();
      }, 500);
      this.timer.unref();
    } else if (this.timer && this.drawn === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private draw(): void {
    const lines = renderView(this.state, this.now(), this.ctx.stderr.columns ?? 120);
    if (lines.length === 0) return;
    this.ctx.stderr.write(lines.map((l) => `${l}\n`).join(''));
    this.drawn = lines.length;
  }

  private erase(): void {
    if (this.drawn === 0) return;
    // cursor up over the block, then clear to the end of the screen
    this.ctx.stderr.write(`\u001b[${this.drawn}A\u001b[0J`);
    this.drawn = 0;
  }
}
