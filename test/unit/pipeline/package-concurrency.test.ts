import { describe, expect, it } from 'vitest';
import {
  PackageLoop,
  type PackageLoopRule,
  packagesAtOnce,
  ReadOnlyPackageConcurrency,
} from '../../../src/pipeline/package-concurrency.js';

const tick = () => new Promise((r) => setTimeout(r, 5));
const rule = (mode: string, more: Partial<PackageLoopRule> = {}): PackageLoopRule => ({
  mode,
  packageConcurrency: 1,
  keepGoing: false,
  ...more,
});

/** Drives a loop the way both front ends do: one worker per lane, each taking the next package. */
async function drive<T>(
  items: T[],
  r: PackageLoopRule,
  run: (item: T) => Promise<boolean>,
): Promise<{ item: T; skipped: string }[]> {
  const loop = new PackageLoop(items, r, String);
  await Promise.all(
    loop.lanes().map(async () => {
      for (let next = loop.take(); next; next = loop.take()) loop.finished(next, await run(next.item));
    }),
  );
  return loop.skipped();
}

describe('packagesAtOnce', () => {
  it('applies and destroys package-concurrency packages at once; previews, status and drift at least 8', () => {
    expect(packagesAtOnce('apply', 1)).toBe(1);
    expect(packagesAtOnce('destroy', 3)).toBe(3);
    expect(packagesAtOnce('preview', 1)).toBe(ReadOnlyPackageConcurrency);
    expect(packagesAtOnce('status', 1)).toBe(ReadOnlyPackageConcurrency);
    expect(packagesAtOnce('drift', 1)).toBe(ReadOnlyPackageConcurrency);
    expect(packagesAtOnce('preview', 20)).toBe(20);
  });
});

describe('PackageLoop', () => {
  it('never runs more than the limit at once, starts packages in order, runs each once', async () => {
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const skipped = await drive(
      [0, 1, 2, 3, 4, 5, 6],
      rule('apply', { packageConcurrency: 3 }),
      async (x) => {
        started.push(x);
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5 * (7 - x)));
        running--;
        return true;
      },
    );
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(peak).toBe(3);
    expect(skipped).toEqual([]);
  });

  it('has one lane per package at most, and at least one', () => {
    expect(new PackageLoop(['a', 'b'], rule('preview'), String).lanes()).toHaveLength(2);
    expect(new PackageLoop([], rule('apply', { packageConcurrency: 4 }), String).lanes()).toHaveLength(1);
    expect(
      new PackageLoop([1, 2, 3, 4, 5], rule('apply', { packageConcurrency: 4 }), String).lanes(),
    ).toHaveLength(4);
  });

  it('apply: starts no package after one that failed; the rest are skipped, naming it', async () => {
    const ran: string[] = [];
    const skipped = await drive(['deploy/a', 'deploy/b', 'deploy/c'], rule('apply'), async (x) => {
      ran.push(x);
      await tick();
      return x !== 'deploy/a';
    });
    expect(ran).toEqual(['deploy/a']);
    expect(skipped).toEqual([
      { item: 'deploy/b', skipped: 'skipped: deploy/a failed' },
      { item: 'deploy/c', skipped: 'skipped: deploy/a failed' },
    ]);
  });

  it('apply with keep-going, and every read-only mode: every package runs whatever the others did', async () => {
    for (const r of [
      rule('apply', { keepGoing: true }),
      rule('destroy', { keepGoing: true }),
      rule('preview'),
    ]) {
      const ran: string[] = [];
      const skipped = await drive(['a', 'b', 'c'], r, async (x) => {
        ran.push(x);
        return false;
      });
      expect(ran.sort()).toEqual(['a', 'b', 'c']);
      expect(skipped).toEqual([]);
    }
  });

  it('once cancelled, starts nothing more: the rest are skipped as cancelled', async () => {
    const abort = new AbortController();
    // preview runs 8 at once: both started before the cancel was seen
    const previewed = await drive(['a', 'b'], rule('preview', { signal: abort.signal }), async () => {
      await tick();
      abort.abort();
      return true;
    });
    expect(previewed).toEqual([]);
    const applied = await drive(['a', 'b'], rule('apply', { signal: abort.signal }), async () => true);
    expect(applied).toEqual([
      { item: 'a', skipped: 'skipped: cancelled' },
      { item: 'b', skipped: 'skipped: cancelled' },
    ]);
  });
});
