import type { InventoryLock } from '../inventory/inventory-lock.js';
import type { RunResult } from './run-result.js';
import type { RunState } from './run-state.js';

/** What a run's body hands back as it goes, so the wrapper can clean up whatever it got to. */
export interface RunHold {
  locked(lock: InventoryLock): void;
  prepared(state: RunState): void;
}

/**
 * Runs an apply or destroy body (which takes the lock and builds the state, and never throws), then stops
 * its watches and releases the lock while `afterRun` (the deploy record) works on the result.
 */
export async function runHoldingLock(
  afterRun: ((result: RunResult) => Promise<void>) | undefined,
  body: (hold: RunHold) => Promise<RunResult>,
): Promise<RunResult> {
  let lock: InventoryLock | undefined;
  let state: RunState | undefined;
  const result = await body({ locked: (l) => (lock = l), prepared: (s) => (state = s) });
  state?.watcher?.stop();
  await Promise.all([lock?.release(), afterRun?.(result)]);
  return result;
}
