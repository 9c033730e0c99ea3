/** Packages previewed (or their status or drift read) at once when `package-concurrency` asks for fewer. */
export const ReadOnlyPackageConcurrency = 8;

/** The modes whose packages change the cluster, and may depend on each other by order. */
const Writing = new Set(['apply', 'destroy', 'rollback']);

/**
 * The one rule both front ends run packages by:
 * - apply, destroy (and rollback) run `package-concurrency` packages at once (default 1: in order, since the
 *   packages of one repository may depend on each other by order), and start no package after one that did
 *   not succeed, unless `keep-going`: those are reported skipped ("skipped: deploy/a failed", exit 3);
 * - preview, status and drift only read: at least ReadOnlyPackageConcurrency at once, and every package runs
 *   and reports, whatever the others did;
 * - once the run is cancelled, no package starts (reported skipped: "skipped: cancelled").
 * All of them share one cluster client (one connection pool, one discovery cache).
 */
export interface PackageLoopRule {
  mode: string;
  packageConcurrency: number;
  keepGoing: boolean;
  signal?: AbortSignal;
}

export function packagesAtOnce(mode: string, packageConcurrency: number): number {
  return Writing.has(mode) ? packageConcurrency : Math.max(packageConcurrency, ReadOnlyPackageConcurrency);
}

/** One package's place in the loop: its result, or why it never started. */
export type LoopEntry<T, R> = { item: T; result: R } | { item: T; skipped: string };

/**
 * Runs `run` for each package under the rule above, starting them in order; `succeeded` says whether a
 * result counts as success. Resolves, in the packages' order, once every started package is done.
 */
export async function runPackages<T, R>(
  items: readonly T[],
  rule: PackageLoopRule,
  name: (item: T) => string,
  run: (item: T, index: number) => Promise<R>,
  succeeded: (result: R) => boolean,
): Promise<LoopEntry<T, R>[]> {
  const limit = Math.max(1, Math.min(packagesAtOnce(rule.mode, rule.packageConcurrency), items.length));
  const stopOnFailure = Writing.has(rule.mode) && !rule.keepGoing;
  const results: (R | undefined)[] = items.map(() => undefined);
  const started = new Set<number>();
  let failedName: string | undefined;
  let next = 0;
  const worker = async () => {
    while (next < items.length && !rule.signal?.aborted && failedName === undefined) {
      const i = next++;
      started.add(i);
      const r = await run(items[i], i);
      results[i] = r;
      if (stopOnFailure && !succeeded(r)) failedName ??= name(items[i]);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return items.map((item, i) => {
    if (started.has(i)) return { item, result: results[i] as R };
    const why = rule.signal?.aborted ? 'cancelled' : `${failedName} failed`;
    return { item, skipped: `skipped: ${why}` };
  });
}
