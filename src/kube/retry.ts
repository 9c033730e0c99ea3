import { isTransientNetworkError, KubeApiError } from './api-error.js';

/** Throttled: the server did nothing, so even a create may be sent again. */
export function isThrottled(err: unknown): boolean {
  return err instanceof KubeApiError && err.code === 429;
}

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Stop retrying once this much time has gone by since the first attempt. */
  budgetMs: number;
}

export const DefaultRetry: RetryPolicy = {
  attempts: 8,
  baseDelayMs: 200,
  maxDelayMs: 8000,
  budgetMs: 60_000,
};

/** Whether an error may be retried: throttling, server errors, dropped connections. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof KubeApiError) {
    // older API servers answer 500 for a manifest that server-side apply cannot type: not transient
    if (
      /failed to create typed (patch )?object|failed to create manager for existing fields/.test(err.message)
    )
      return false;
    return err.code === 429 || err.code >= 500;
  }
  return isTransientNetworkError(err);
}

/**
 * Runs `fn` until it succeeds, a non-retryable error comes, or the policy runs out. Delays are
 * full-jitter exponential, but never shorter than the server's Retry-After.
 */
export async function withRetry<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy = DefaultRetry,
  random: () => number = Math.random,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  retryable: (err: unknown) => boolean = isRetryable,
): Promise<T> {
  const start = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!retryable(err) || attempt >= policy.attempts) throw err;
      const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      let delay = Math.round(random() * exp);
      const retryAfter = err instanceof KubeApiError ? err.retryAfterSeconds : undefined;
      if (retryAfter !== undefined) delay = Math.max(delay, retryAfter * 1000);
      if (Date.now() - start + delay > policy.budgetMs) throw err;
      await sleep(delay);
    }
  }
}
