import { describe, expect, it } from 'vitest';
import {
  packagesAtOnce,
  ReadOnlyPackageConcurrency,
  runPackages,
} from '../../../src/pipeline/package-concurrency.js';

const tick = () => new Promise((r) => setTimeout(r, 5));
const rule = (mode: string, more: Partial<Parameters<typeof runPackages>[1]> = {}) => ({
  mode,
  packageConcurrency: 1,
  keepGoing: false,
  ...more,
});

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

describe('runPackages', () => {
  it('never runs more than the limit at once, starts packages in order, runs each once, answers in order', async () => {
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const entries = await runPackages(
      [0, 1, 2, 3, 4, 5, 6],
      rule('apply', { packageConcurrency: 3 }),
      String,
      async (x) => {
        started.push(x);
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5 * (7 - x)));
        running--;
        return x * 10;
      },
      () => true,
    );
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(peak).toBe(3);
    expect(entries.map((e) => ('result' in e ? e.result : e.skipped))).toEqual([0, 10, 20, 30, 40, 50, 60]);
  });

  it('apply: starts no package after one that failed; the rest are skipped, naming it', async () => {
    const ran: string[] = [];
    const entries = await runPackages(
      ['deploy/a', 'deploy/b', 'deploy/c'],
      rule('apply'),
      (x) => x,
      async (x) => {
        ran.push(x);
        await tick();
        return x !== 'deploy/a';
      },
      (ok) => ok,
    );
    expect(ran).toEqual(['deploy/a']);
    expect(entries).toEqual([
      { item: 'deploy/a', result: false },
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
      const entries = await runPackages(
        ['a', 'b', 'c'],
        r,
        (x) => x,
        async (x) => {
          ran.push(x);
          return false;
        },
        (ok) => ok,
      );
      expect(ran.sort()).toEqual(['a', 'b', 'c']);
      expect(entries.every((e) => 'result' in e)).toBe(true);
    }
  });

  it('once cancelled, starts nothing more: the rest are skipped as cancelled', async () => {
    const abort = new AbortController();
    const entries = await runPackages(
      ['a', 'b'],
      rule('preview', { signal: abort.signal, packageConcurrency: 1 }),
      (x) => x,
      async (x) => {
        await tick();
        abort.abort();
        return x;
      },
      () => true,
    );
    // preview runs 8 at once: both started before the cancel was seen
    expect(entries.filter((e) => 'skipped' in e)).toEqual([]);
    const applied = await runPackages(
      ['a', 'b'],
      rule('apply', { signal: abort.signal }),
      (x) => x,
      async (x) => x,
      () => true,
    );
    expect(applied).toEqual([
      { item: 'a', skipped: 'skipped: cancelled' },
      { item: 'b', skipped: 'skipped: cancelled' },
    ]);
  });
});
