import { describe, expect, it } from 'vitest';
import {
  forEachAtMost,
  PreviewPackageConcurrency,
  packagesAtOnce,
} from '../../../src/pipeline/package-concurrency.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('packagesAtOnce', () => {
  it('applies and destroys package-concurrency packages at once; previews and status at least 8', () => {
    expect(packagesAtOnce('apply', 1)).toBe(1);
    expect(packagesAtOnce('destroy', 3)).toBe(3);
    expect(packagesAtOnce('preview', 1)).toBe(PreviewPackageConcurrency);
    expect(packagesAtOnce('status', 1)).toBe(PreviewPackageConcurrency);
    expect(packagesAtOnce('preview', 20)).toBe(20);
  });
});

describe('forEachAtMost', () => {
  it('never runs more than the limit at once, starts items in order and runs each once', async () => {
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    await forEachAtMost([0, 1, 2, 3, 4, 5, 6], 3, async (x) => {
      started.push(x);
      running++;
      peak = Math.max(peak, running);
      await tick();
      running--;
    });
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(peak).toBe(3);
  });

  it('with a limit of 1 runs one after another', async () => {
    const log: string[] = [];
    await forEachAtMost(['a', 'b', 'c'], 1, async (x) => {
      log.push(`start ${x}`);
      await tick();
      log.push(`end ${x}`);
    });
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('starts nothing more once stopped or after a failure, and rethrows the failure', async () => {
    const seen: number[] = [];
    let stopped = false;
    await forEachAtMost(
      [1, 2, 3, 4],
      1,
      async (x) => {
        seen.push(x);
        if (x === 2) stopped = true;
      },
      () => stopped,
    );
    expect(seen).toEqual([1, 2]);
    const ran: number[] = [];
    await expect(
      forEachAtMost([1, 2, 3, 4], 1, async (x) => {
        ran.push(x);
        if (x === 2) throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(ran).toEqual([1, 2]);
  });
});
