import { describe, expect, it } from 'vitest';
import { firstApplyWarmup } from '../../../src/pipeline/first-apply-warmup.js';

const settle = () => new Promise((r) => setTimeout(r, 0));

function recorder(concurrency: number) {
  const calls: number[] = [];
  return { calls, warmup: firstApplyWarmup((n) => calls.push(n), concurrency) };
}

describe('firstApplyWarmup', () => {
  it('opens connections for the objects read so far once the cluster has no inventory, up to the concurrency', async () => {
    const { calls, warmup } = recorder(32);
    warmup.objectsRead(5);
    expect(calls).toEqual([]); // the inventory read is not in yet
    warmup.inventoryRead(Promise.resolve(undefined));
    await settle();
    expect(calls).toEqual([5]);
    warmup.objectsRead(20);
    warmup.objectsRead(100);
    expect(calls).toEqual([5, 25, 32]);
  });

  it('opens none for a re-apply (the cluster has an inventory) or when the read fails', async () => {
    const reads = [
      () => Promise.resolve({ kind: 'ResourceGroup' }),
      () => Promise.reject(new Error('forbidden')),
    ];
    for (const read of reads) {
      const { calls, warmup } = recorder(32);
      warmup.inventoryRead(read());
      warmup.objectsRead(300);
      await settle();
      warmup.objectsRead(1);
      expect(calls).toEqual([]);
    }
  });

  it('opens none for a package with no objects', async () => {
    const { calls, warmup } = recorder(32);
    warmup.inventoryRead(Promise.resolve(undefined));
    await settle();
    warmup.objectsRead(0);
    expect(calls).toEqual([]);
  });
});
