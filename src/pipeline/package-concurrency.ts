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

/** A package the loop handed out: the front end runs it, then reports it `finished`. */
export interface Started<T> {
  item: T;
  index: number;
}

/**
 * The packages of one run under the rule above. The front end drives it, so its own code calls down into
 * the run of each package and nothing calls back up:
 *
 *     const loop = new PackageLoop(units, rule, (u) => u.path);
 *     await Promise.all(loop.lanes().map(async () => {
 *       for (let next = loop.take(); next; next = loop.take())
 *         loop.finished(next, (await runUnit(next.item)).outcome === 'success');
 *     }));
 *     for (const s of loop.skipped()) ...
 *
 * `take` hands packages out in order, at most `lanes().length` at a time when every lane runs one.
 */
export class PackageLoop<T> {
  private next = 0;
  private readonly started = new Set<number>();
  private failedName: string | undefined;
  private readonly stopOnFailure: boolean;

  constructor(
    private readonly items: readonly T[],
    private readonly rule: PackageLoopRule,
    private readonly name: (item: T) => string,
  ) {
    this.stopOnFailure = Writing.has(rule.mode) && !rule.keepGoing;
  }

  /** How many packages run at once: one lane each (at least one, at most one per package). */
  lanes(): number[] {
    const limit = packagesAtOnce(this.rule.mode, this.rule.packageConcurrency);
    return Array.from({ length: Math.max(1, Math.min(limit, this.items.length)) }, (_, i) => i);
  }

  /** The next package to run; none once all started, the run is cancelled, or (apply) one failed. */
  take(): Started<T> | undefined {
    if (this.next >= this.items.length || this.rule.signal?.aborted || this.failedName !== undefined)
      return undefined;
    const index = this.next++;
    this.started.add(index);
    return { item: this.items[index] as T, index };
  }

  /** Reports a started package's end; a failure stops the loop for apply and destroy (not keep-going). */
  finished(started: Started<T>, succeeded: boolean): void {
    if (this.stopOnFailure && !succeeded) this.failedName ??= this.name(started.item);
  }

  /** The packages never started and why, in their order ("skipped: deploy/a failed"). */
  skipped(): { item: T; skipped: string }[] {
    const why = this.rule.signal?.aborted ? 'cancelled' : `${this.failedName} failed`;
    return this.items.flatMap((item, i) =>
      this.started.has(i) ? [] : [{ item, skipped: `skipped: ${why}` }],
    );
  }
}
