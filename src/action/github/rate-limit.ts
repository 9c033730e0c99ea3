/**
 * GitHub's rate limits, handled the way GitHub's REST guide asks integrations to
 * (docs.github.com, "Best practices for using the REST API" and "Rate limits for the REST API"):
 * - content-creating requests (POST, PATCH, PUT, DELETE, GraphQL mutations) go one at a time, at least one
 *   second apart; reads stay concurrent;
 * - a secondary rate limit (403/429 with `retry-after`, or a 403 whose message says "secondary rate limit")
 *   is waited out: `retry-after` seconds when given, else one minute, doubling while the limit keeps
 *   answering; an exhausted primary limit (`x-ratelimit-remaining: 0`) waits until `x-ratelimit-reset`;
 * - all of it within one budget per run (10 minutes of waiting): a wait that would pass it fails the request
 *   at once with a RateLimitBudgetError, and the caller reports what it could not post.
 * A 502/503/504 on a read is retried twice (GitHub's edge answers them now and then); a write is not (a
 * comment created twice is worse than a warning).
 */

/** Total waiting for rate limits and retries that one run accepts. */
export const RUN_WAIT_BUDGET_MS = 10 * 60_000;
/** Least time between the starts of two content-creating requests. */
export const WRITE_SPACING_MS = 1000;
/** The first wait for a secondary limit that names no `retry-after` (GitHub: "at least one minute"). */
export const SECONDARY_FIRST_WAIT_MS = 60_000;
/** Waits per request before its answer is passed on as the error it is. */
export const MaxRateLimitRetries = 5;
/** Retries of a read GitHub answered 502/503/504, with these waits. */
const SERVER_ERROR_WAITS_MS = [1000, 3000];

interface ErrorLike {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

/** A rate-limit answer: which limit, and the wait GitHub asked for (undefined: it named none). */
export interface RateLimitAnswer {
  kind: 'primary' | 'secondary';
  askedMs?: number;
}

/** What a 403/429 says about rate limits, or undefined when it is no rate-limit answer. */
export function rateLimitAnswer(err: unknown, now: number = Date.now()): RateLimitAnswer | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const e = err as ErrorLike;
  if (e.status !== 403 && e.status !== 429) return undefined;
  const headers = e.response?.headers ?? {};
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined && retryAfter !== '') {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return { kind: 'secondary', askedMs: Math.max(1000, seconds * 1000) };
    const at = Date.parse(String(retryAfter));
    if (Number.isFinite(at)) return { kind: 'secondary', askedMs: Math.max(1000, at - now) };
  }
  if (String(headers['x-ratelimit-remaining']) === '0' && headers['x-ratelimit-reset'] !== undefined)
    return { kind: 'primary', askedMs: Math.max(1000, Number(headers['x-ratelimit-reset']) * 1000 - now) };
  const data = e.response?.data as { message?: unknown } | undefined;
  const message = `${typeof data?.message === 'string' ? data.message : ''} ${e.message ?? ''}`;
  if (/secondary rate limit/i.test(message)) return { kind: 'secondary' };
  if (e.status === 429) return { kind: 'secondary' };
  return undefined;
}

/** The first wait a rate-limit answer asks for, in ms (a minute for a secondary limit naming none). */
export function rateLimitWaitMs(err: unknown, now: number = Date.now()): number | undefined {
  const a = rateLimitAnswer(err, now);
  return a ? (a.askedMs ?? SECONDARY_FIRST_WAIT_MS) : undefined;
}

/** A rate-limit wait (or retry) that this run's budget no longer allows: the request was not sent again. */
export class RateLimitBudgetError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'RateLimitBudgetError';
  }
}

/** The parts of Octokit's request options this policy reads. */
interface RequestOptionsLike {
  method?: string;
  url?: string;
  query?: unknown;
}

/** POST, PATCH, PUT and DELETE, but a GraphQL query (POST /graphql without `mutation`) is a read. */
export function isWriteRequest(options: unknown): boolean {
  const o = (options ?? {}) as RequestOptionsLike;
  const method = (o.method ?? 'GET').toUpperCase();
  if (method === 'GET' || method === 'HEAD') return false;
  if (o.url === '/graphql' || o.url?.endsWith('/graphql'))
    return typeof o.query === 'string' && /^\s*mutation\b/.test(o.query);
  return true;
}

export interface RequestPolicyOptions {
  /** Default RUN_WAIT_BUDGET_MS. */
  budgetMs?: number;
  /** Default WRITE_SPACING_MS. */
  writeSpacingMs?: number;
  /** Told before each wait (the log line). */
  onWait?: (ms: number, why: string) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** `10-minute`, or `90-second` when it is no whole number of minutes. */
export const describeBudget = (ms: number) =>
  ms % 60_000 === 0 ? `${ms / 60_000}-minute` : `${Math.round(ms / 1000)}-second`;

const statusOf = (err: unknown) =>
  err !== null && typeof err === 'object' ? (err as ErrorLike).status : undefined;

/**
 * One run's use of the GitHub API: writes in single file and spaced, rate limits waited out with growing
 * waits, all waits drawn from one budget. `hook` goes into `octokit.hook.wrap('request', …)`.
 */
export class RequestPolicy {
  readonly budgetMs: number;
  private readonly spacingMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly onWait: (ms: number, why: string) => void;
  /** Waited so far (rate limits and retries). */
  waitedMs = 0;
  /** Secondary-limit answers since the last request that went through: the next wait doubles. */
  private streak = 0;
  private writes: Promise<void> = Promise.resolve();
  private lastWriteAt = Number.NEGATIVE_INFINITY;

  constructor(opts: RequestPolicyOptions = {}) {
    this.budgetMs = opts.budgetMs ?? RUN_WAIT_BUDGET_MS;
    this.spacingMs = opts.writeSpacingMs ?? WRITE_SPACING_MS;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.now = opts.now ?? Date.now;
    this.onWait = opts.onWait ?? (() => {});
  }

  /** True once a wait was refused: the budget is spent (later rate-limit answers fail at once). */
  exhausted = false;

  private async wait(ms: number, why: string, cause: unknown): Promise<void> {
    if (this.exhausted || this.waitedMs + ms > this.budgetMs) {
      this.exhausted = true;
      const left = Math.max(0, Math.round((this.budgetMs - this.waitedMs) / 1000));
      throw new RateLimitBudgetError(
        `${why}: GitHub asks to wait ${Math.ceil(ms / 1000)} s, more than is left (${left} s) of this run's ${describeBudget(this.budgetMs)} budget for rate-limit waits`,
        cause,
      );
    }
    this.onWait(ms, why);
    this.waitedMs += ms;
    await this.sleep(ms);
  }

  /** Waits for the previous write to finish and for the spacing; returns the release of this write's turn. */
  private async writeTurn(): Promise<() => void> {
    let release!: () => void;
    const mine = new Promise<void>((r) => {
      release = r;
    });
    const before = this.writes;
    this.writes = before.then(() => mine);
    await before;
    const gap = this.lastWriteAt + this.spacingMs - this.now();
    if (gap > 0) await this.sleep(gap);
    return release;
  }

  private async send<R>(request: () => Promise<R>, write: boolean): Promise<R> {
    for (let attempt = 1; ; attempt++) {
      try {
        const r = await request();
        this.streak = 0;
        return r;
      } catch (err) {
        const limit = rateLimitAnswer(err, this.now());
        if (limit) {
          if (attempt > MaxRateLimitRetries) throw err;
          const ms =
            limit.askedMs ??
            (limit.kind === 'secondary' ? SECONDARY_FIRST_WAIT_MS * 2 ** Math.min(this.streak, 4) : 1000);
          if (limit.kind === 'secondary') this.streak++;
          await this.wait(ms, `GitHub ${limit.kind} rate limit`, err);
          continue;
        }
        const status = statusOf(err);
        const retry = SERVER_ERROR_WAITS_MS[attempt - 1];
        if (!write && status !== undefined && [502, 503, 504].includes(status) && retry !== undefined) {
          await this.wait(retry, `GitHub answered ${status}`, err);
          continue;
        }
        throw err;
      }
    }
  }

  /** The Octokit request hook. */
  hook = async <O, R>(request: (options: O) => R | Promise<R>, options: O): Promise<R> => {
    const write = isWriteRequest(options);
    if (!write) return this.send(async () => request(options), false);
    const release = await this.writeTurn();
    try {
      return await this.send(async () => request(options), true);
    } finally {
      // the spacing counts from the end of this write: a slow answer never shortens the pause
      this.lastWriteAt = this.now();
      release();
    }
  };
}
