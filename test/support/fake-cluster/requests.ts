import type { StatusCause } from './status-errors.js';
import { statusError } from './status-errors.js';

/**
 * The requests clients of a fake cluster sent, as the API server would have seen them (method, path and
 * query as the product's client builds them), and the faults a test puts in their way.
 */
export type Operation =
  | 'discovery'
  | 'get'
  | 'list'
  | 'watch'
  | 'create'
  | 'apply'
  | 'replace'
  | 'replaceStatus'
  | 'jsonPatch'
  | 'delete';

export interface RequestRecord {
  /** 1, 2, 3... in the order the requests were sent. */
  seq: number;
  /** The ClusterClient method (`discovery` for the discovery reads it makes on its own). */
  op: Operation;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query, as the real client sends them: `/api/v1/namespaces/a/configmaps/b?fieldManager=x&dryRun=All`. */
  path: string;
  group: string;
  version: string;
  kind: string;
  namespace: string;
  name: string;
  /** A write (create, apply, update, patch, delete), dry-runs included: see `dryRun`. */
  mutating: boolean;
  dryRun: boolean;
  fieldManager?: string;
  force?: boolean;
  /** The HTTP status of the answer; undefined while unanswered and when the connection dropped. */
  status?: number;
  /** The fault that took the request, if one did. */
  fault?: FaultAnswer['type'];
}

/** Which requests a fault or a count is about: every given field must be equal, or a predicate. */
export type RequestMatch =
  | Partial<
      Pick<
        RequestRecord,
        'op' | 'method' | 'group' | 'kind' | 'namespace' | 'name' | 'mutating' | 'dryRun' | 'fieldManager'
      >
    >
  | ((r: RequestRecord) => boolean);

export function matches(match: RequestMatch, r: RequestRecord): boolean {
  if (typeof match === 'function') return match(r);
  return Object.entries(match).every(([k, v]) => v === undefined || r[k as keyof RequestRecord] === v);
}

export class RequestLog {
  readonly entries: RequestRecord[] = [];

  /** The mutating requests that were not dry-runs: what a preview must never send. */
  writes(): RequestRecord[] {
    return this.entries.filter((r) => r.mutating && !r.dryRun);
  }

  filter(match: RequestMatch): RequestRecord[] {
    return this.entries.filter((r) => matches(match, r));
  }

  count(match: RequestMatch): number {
    return this.filter(match).length;
  }

  /** A position to read from later with `since(mark)`. */
  mark(): number {
    return this.entries.length;
  }

  since(mark: number): RequestRecord[] {
    return this.entries.slice(mark);
  }

  clear(): void {
    this.entries.length = 0;
  }

  /** One line per request, `PATCH /api/v1/...?fieldManager=x 200`, for failure messages and snapshots. */
  lines(from = 0): string[] {
    return this.entries.slice(from).map((r) => `${r.method} ${r.path} ${r.status ?? r.fault ?? '-'}`);
  }
}

/** What a fault does to the requests it takes. */
export type FaultAnswer =
  /** An error answer (409, 422, 500...), the server having done nothing. */
  | { type: 'status'; status: number; reason?: string; message?: string; causes?: StatusCause[] }
  /** No answer until `release()` (then served normally); `close()` of the cluster drops it. */
  | { type: 'hang' }
  /** The connection drops: `before` the server acted, or `after` (the write happened, its answer is lost). */
  | { type: 'reset'; when: 'before' | 'after' }
  /** Served normally, `ms` late. */
  | { type: 'delay'; ms: number }
  /** Runs `run` first (another writer racing this request), then serves the request normally. */
  | { type: 'before'; run: () => unknown };

export interface FaultHandle {
  /** How many requests the fault took so far. */
  readonly hits: number;
  /** Resolves with the first request the fault takes. */
  readonly reached: Promise<RequestRecord>;
  /** Lets the requests a `hang` holds go on (and every later one through at once). */
  release(): void;
  /** Stops taking requests. */
  remove(): void;
}

const REASONS: Record<number, string> = {
  400: 'BadRequest',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  410: 'Expired',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** A dropped connection, as Node reports it (the product retries these on idempotent requests). */
export function connectionReset(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

interface Rule {
  match: RequestMatch;
  answer: FaultAnswer;
  left: number;
  hits: number;
  released: boolean;
  waiting: { resolve(): void; reject(err: Error): void }[];
  reach(r: RequestRecord): void;
}

export class Faults {
  private readonly rules: Rule[] = [];

  /** Adds a fault for the requests `match` selects: every one of them, or the next `times`. */
  add(match: RequestMatch, answer: FaultAnswer, times = Number.POSITIVE_INFINITY): FaultHandle {
    let reach: (r: RequestRecord) => void = () => {};
    const reached = new Promise<RequestRecord>((resolve) => {
      reach = resolve;
    });
    const rule: Rule = { match, answer, left: times, hits: 0, released: false, waiting: [], reach };
    this.rules.push(rule);
    return {
      get hits() {
        return rule.hits;
      },
      reached,
      release: () => {
        rule.released = true;
        for (const w of rule.waiting.splice(0)) w.resolve();
      },
      remove: () => {
        const i = this.rules.indexOf(rule);
        if (i >= 0) this.rules.splice(i, 1);
      },
    };
  }

  /** Shorthand: answer `status` (409, 422, 500...) with the reason the API server gives it. */
  fail(
    match: RequestMatch,
    status: number,
    extra: { message?: string; causes?: StatusCause[] } = {},
    times?: number,
  ) {
    return this.add(match, { type: 'status', status, ...extra }, times);
  }

  hang(match: RequestMatch, times?: number): FaultHandle {
    return this.add(match, { type: 'hang' }, times);
  }

  /** Drops every held request with a connection error. */
  dropHeld(): void {
    for (const rule of this.rules) for (const w of rule.waiting.splice(0)) w.reject(connectionReset());
  }

  /** Serves `record` through the first fault that takes it, if any. */
  async run<T>(record: RequestRecord, serve: () => T): Promise<T> {
    const rule = this.rules.find((r) => r.left > 0 && matches(r.match, record));
    if (!rule) return serve();
    rule.left--;
    rule.hits++;
    rule.reach(record);
    record.fault = rule.answer.type;
    const a = rule.answer;
    switch (a.type) {
      case 'status': {
        const reason = a.reason ?? REASONS[a.status] ?? 'Unknown';
        const message = a.message ?? `injected ${a.status} ${reason}`;
        throw statusError(a.status, reason, message, a.causes ? { causes: a.causes } : undefined);
      }
      case 'hang':
        if (!rule.released)
          await new Promise<void>((resolve, reject) => rule.waiting.push({ resolve, reject }));
        return serve();
      case 'reset':
        if (a.when === 'after') {
          try {
            serve();
          } catch {
            // the answer is lost either way
          }
        }
        throw connectionReset();
      case 'delay':
        await new Promise((r) => setTimeout(r, a.ms));
        return serve();
      case 'before':
        await a.run();
        return serve();
    }
  }
}
