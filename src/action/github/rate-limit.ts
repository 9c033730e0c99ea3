/**
 * GitHub's rate limits, waited out instead of failing the step: a secondary rate limit (403 or 429 with a
 * `retry-after` header, or a 403 whose message says "secondary rate limit") and an exhausted primary limit
 * (403/429 with `x-ratelimit-remaining: 0` and `x-ratelimit-reset`). Comments of many packages are posted
 * concurrently, which is what trips the secondary limit; the request is retried after the wait GitHub
 * asked for (at least 1 s; GitHub's guidance for a secondary limit without `retry-after` is a minute).
 */

/** Longest single wait; GitHub asks for 60 s or less in practice; a longer one fails as before. */
export const MaxRateLimitWaitMs = 5 * 60_000;
/** Waits per request before its answer is passed on as the error it is. */
export const MaxRateLimitRetries = 5;

interface ErrorLike {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

/** How long GitHub asks us to wait before retrying, in ms, or undefined when `err` is no rate-limit answer. */
export function rateLimitWaitMs(err: unknown, now: number = Date.now()): number | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const e = err as ErrorLike;
  if (e.status !== 403 && e.status !== 429) return undefined;
  const headers = e.response?.headers ?? {};
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined && retryAfter !== '') {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(1000, seconds * 1000);
    const at = Date.parse(String(retryAfter));
    if (Number.isFinite(at)) return Math.max(1000, at - now);
  }
  if (String(headers['x-ratelimit-remaining']) === '0' && headers['x-ratelimit-reset'] !== undefined)
    return Math.max(1000, Number(headers['x-ratelimit-reset']) * 1000 - now);
  const data = e.response?.data as { message?: unknown } | undefined;
  const message = `${typeof data?.message === 'string' ? data.message : ''} ${e.message ?? ''}`;
  if (/secondary rate limit/i.test(message)) return 60_000;
  return undefined;
}

/**
 * An Octokit `request` hook (`octokit.hook.wrap('request', …)`) that waits out rate-limit answers and
 * retries. `onWait` tells the log; `sleep` is replaceable for tests.
 */
export function waitOutRateLimits<O, R>(
  onWait: (ms: number, attempt: number) => void,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): (request: (options: O) => R | Promise<R>, options: O) => Promise<R> {
  return async (request, options) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await request(options);
      } catch (err) {
        const wait = rateLimitWaitMs(err);
        if (wait === undefined || wait > MaxRateLimitWaitMs || attempt > MaxRateLimitRetries) throw err;
        onWait(wait, attempt);
        await sleep(wait);
      }
    }
  };
}
