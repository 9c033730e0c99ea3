/**
 * Runs `work` over `items` with at most `limit` in flight, and hands results to `onResult` in input order
 * as soon as every earlier item is done, so events stay deterministic while requests overlap.
 * `shouldStart` is asked before each item starts (cancellation: items not started get `undefined`).
 */
export async function runOrdered<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  onResult: (item: T, result: R | undefined, index: number) => void,
  shouldStart: () => boolean = () => true,
): Promise<(R | undefined)[]> {
  const results: (R | undefined)[] = new Array(items.length);
  const done: boolean[] = new Array(items.length).fill(false);
  let next = 0;
  let emitted = 0;
  const flush = () => {
    while (emitted < items.length && done[emitted]) {
      onResult(items[emitted], results[emitted], emitted);
      emitted++;
    }
  };
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      if (shouldStart()) results[i] = await work(items[i], i);
      done[i] = true;
      flush();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  flush();
  return results;
}
