import { type CatchUpOutcome, nextWatermark } from '../changes/catch-up-state.js';
import { readWatermark, watermarkName, writeWatermark } from '../inventory/watermark.js';
import type { CatchUpSession } from './catch-up-selection.js';

/**
 * Stores the watermark after a catch-up run (after every package's run and lock): the units applied
 * added, failed packages held at their tree, the commit advanced when every package succeeded. Returns
 * what the log should say; never throws (the deploy itself is done: a watermark that could not be stored
 * only means the next run compares with the older one).
 */
export async function saveWatermark(
  session: CatchUpSession,
  results: readonly CatchUpOutcome[],
  o: { complete: boolean; runUrl?: string; at?: string },
): Promise<{ info?: string; warning?: string }> {
  if (!session.writable) return {};
  const where = `${session.namespace}/${watermarkName(session.key)}`;
  const run = {
    head: session.head,
    at: o.at ?? new Date().toISOString(),
    ...(o.runUrl ? { runUrl: o.runUrl } : {}),
    units: session.units,
    trees: session.trees,
    results,
    complete: o.complete,
    forget: session.forget,
  };
  let stored = session.stored;
  try {
    // matrix jobs of one branch share it: a write another run got in first is read again and merged
    for (let attempt = 1; ; attempt++) {
      const next = nextWatermark(stored?.watermark, run);
      const r = await writeWatermark(
        session.client,
        session.namespace,
        session.key,
        next,
        stored?.resourceVersion,
      );
      if (r === 'written')
        return {
          info:
            next.commit === session.head
              ? `watermark ${where}: ${session.head.slice(0, 7)} fully applied`
              : `watermark ${where} kept at ${next.commit?.slice(0, 7) ?? '(none)'}: not every package succeeded`,
        };
      if (attempt === 5) return { warning: `watermark ${where} not stored: other runs kept updating it` };
      stored = await readWatermark(session.client, session.namespace, session.key);
    }
  } catch (err) {
    return { warning: `watermark ${where} not stored: ${(err as Error).message}` };
  }
}
