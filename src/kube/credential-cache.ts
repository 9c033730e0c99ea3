/**
 * One credential that has to be worked out (an exec plugin's answer), cached as kubectl caches it: reused
 * until it expires (a little early, so requests in flight at expiry do not race it), for the whole run when it
 * carries no expiry, and fetched by one run at a time however many requests wait (single flight). A 401
 * refreshes it once: the callers that saw the same generation fail share one new fetch.
 */
export interface CachedCredential<T> {
  /** The current value and its generation (bumped by each fetch). */
  get(): Promise<{ value: T; generation: number }>;
  /**
   * After the server refused generation `used`: fetches again unless a newer generation already exists (or is
   * being fetched); resolves to the generation to retry with.
   */
  refresh(used: number): Promise<{ value: T; generation: number }>;
  /** How many fetches ran (tests, bench). */
  readonly fetches: number;
}

export interface Expiring {
  /** Milliseconds since the epoch; undefined: no expiry. */
  expiresAt?: number;
}

/** How long before its expiry a credential is renewed: a fifth of its life, at most 10 s. */
export function renewAt(fetchedAt: number, expiresAt: number): number {
  const life = Math.max(0, expiresAt - fetchedAt);
  return expiresAt - Math.min(10_000, life / 5);
}

export function cachedCredential<T extends Expiring>(
  fetch: () => Promise<T>,
  now: () => number = Date.now,
): CachedCredential<T> {
  let current: { value: T; generation: number; renewAt: number } | undefined;
  let inflight: Promise<{ value: T; generation: number }> | undefined;
  let generation = 0;
  let fetches = 0;

  const start = () => {
    if (!inflight) {
      const fetchedAt = now();
      fetches++;
      inflight = fetch()
        .then((value) => {
          generation++;
          current = {
            value,
            generation,
            renewAt: value.expiresAt === undefined ? Infinity : renewAt(fetchedAt, value.expiresAt),
          };
          return { value, generation };
        })
        .finally(() => {
          inflight = undefined;
        });
    }
    return inflight;
  };

  return {
    get() {
      if (current && now() < current.renewAt)
        return Promise.resolve({ value: current.value, generation: current.generation });
      return start();
    },
    refresh(used) {
      if (inflight) return inflight;
      if (current && current.generation !== used)
        return Promise.resolve({ value: current.value, generation: current.generation });
      return start();
    },
    get fetches() {
      return fetches;
    },
  };
}
