import { Annotations } from '../common/constants.js';
import { idKey, type ObjectId } from '../common/object-id.js';
import { type DecidedAction, decideObject } from './decide-object.js';
import type { ApplyOperation } from './events.js';
import { withOwner } from './owner-lookup.js';
import { runOrdered } from './run-ordered.js';
import { markBlocked, outcomeFor, type RunState } from './run-state.js';
import { skipMessage } from './skip-reason.js';

const OPERATION: Partial<Record<DecidedAction, ApplyOperation>> = {
  create: 'created',
  configure: 'configured',
  unchanged: 'unchanged',
  replace: 'replaced',
  skip: 'skipped',
};

/** Applies one wave: bounded concurrency, events in wave order. */
export async function applyWave(
  state: RunState,
  wave: ObjectId[],
  group: string,
  waveIndex: number,
): Promise<void> {
  await runOrdered(
    wave,
    state.options.concurrency,
    async (id) => {
      const key = idKey(id);
      const d = await decideObject(state, id, { write: true });
      if (d.action === 'error') return { status: 'Failed' as const, error: d.reason };
      if (d.action === 'skip' && d.blocked && d.skip)
        return { status: 'Skipped' as const, skip: await withOwner(state, d.skip) };
      const operation = OPERATION[d.action]!;
      state.applied.set(key, {
        uid: d.object?.metadata.uid,
        generation: d.object?.metadata.generation,
        touched: operation !== 'unchanged' && operation !== 'skipped',
        hasStatus: !!d.info?.hasStatus,
        // a skipped update returns the metadata-only live object: no status to judge
        object: operation === 'skipped' ? undefined : d.object,
      });
      return { status: 'Successful' as const, operation };
    },
    (id, result) => {
      const o = outcomeFor(state, id);
      o.wave = waveIndex + 1;
      if (!result) {
        markBlocked(state, id, 'apply actuation skipped');
        o.action = 'skipped';
        o.skip = { type: 'cancelled' };
        o.message = skipMessage(o.skip);
        state.emit({ type: 'apply', group, id, status: 'Skipped', error: o.message });
        return;
      }
      if (result.status === 'Successful') {
        o.action = result.operation!;
        state.emit({ type: 'apply', group, id, status: 'Successful', operation: result.operation });
      } else {
        markBlocked(
          state,
          id,
          result.status === 'Failed' ? 'apply actuation failed' : 'apply actuation skipped',
        );
        o.action = result.status === 'Failed' ? 'failed' : 'skipped';
        if (result.skip) o.skip = result.skip;
        o.message = result.skip ? skipMessage(result.skip) : result.error;
        state.emit({ type: 'apply', group, id, status: result.status, error: o.message });
      }
    },
    () => !state.cancelled(),
  );
}

/** Whether an object opted out of waiting (`kapp.k14s.io/disable-wait`). */
export function waitDisabled(state: RunState, id: ObjectId): boolean {
  const a = state.manifests.get(idKey(id))?.metadata.annotations ?? {};
  const v = a[Annotations.KappDisableWait];
  return v !== undefined && v !== 'false';
}
