/** Packages previewed (or their status read) at once when `package-concurrency` asks for fewer. */
export const PreviewPackageConcurrency = 8;

/**
 * How many packages run at once: `package-concurrency` (default 1) for apply and destroy, since the packages
 * of one repository may depend on each other by order; previews and status only read, so they run at least
 * PreviewPackageConcurrency at once. All of them share one cluster client (one connection pool, one
 * discovery cache).
 */
export function packagesAtOnce(mode: string, packageConcurrency: number): number {
  return mode === 'preview' || mode === 'status'
    ? Math.max(packageConcurrency, PreviewPackageConcurrency)
    : packageConcurrency;
}

/**
 * Runs `work` for every item, at most `limit` at once, starting them in order; `stop()` true starts no
 * more. Resolves when all started work is done (a rejection rejects, after the running work settles).
 */
export async function forEachAtMost<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
  stop: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < items.length && !stop() && errors.length === 0) {
      const i = next++;
      try {
        await work(items[i], i);
      } catch (err) {
        errors.push(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (errors.length > 0) throw errors[0];
}
