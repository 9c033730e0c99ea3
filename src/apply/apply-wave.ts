import { Annotations } from '../common/constants.js';
import { idKey, type ObjectId } from '../common/object-id.js';
import { type Carried, carriedInDryRun, carryOut } from './carry-out.js';
import { applySkip, decideObject } from './decide-object.js';
import { blockedBy, type Decision } from './decision.js';
import { runOrdered } from './run-ordered.js';
import { markBlocked, outcomeFor, type RunState } from './run-state.js';
import { skipMessage } from './skip-reason.js';

/**
 * One apply task: each object of the wave, with bounded concurrency, events in wave order. A dry run takes
 * each object's decision (decideObject) and reports what carrying it out would do; a real run carries out
 * the decision its pre-flight walk took (`state.planned`), unless something it depends on failed since.
 */
export async function applyWave(
  state: RunState,
  wave: ObjectId[],
  group: string,
  waveIndex: number,
): Promise<void> {
  await runOrdered(
    wave,
    state.options.concurrency,
    async (id): Promise<Carried> => {
      const key = idKey(id);
      if (state.dryRun) {
        const d = await decideObject(state, id);
        state.decisions.set(key, d);
        return carriedInDryRun(state, d);
      }
      // a skip found now (the inventory policy, a dependency that failed or was skipped in this run) is
      // recorded and carried out like any decision
      const blocked = applySkip(state, id);
      const d: Decision = blocked
        ? blockedBy(blocked)
        : (state.planned.get(key) ?? (await decideObject(state, id)));
      state.decisions.set(key, d);
      return carryOut(state, id, d);
    },
    (id, result) => record(state, id, group, waveIndex, result),
    () => !state.cancelled(),
  );
}

function record(
  state: RunState,
  id: ObjectId,
  group: string,
  waveIndex: number,
  result: Carried | undefined,
) {
  const key = idKey(id);
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
    const { operation, object } = result;
    state.applied.set(key, {
      uid: object?.metadata.uid ?? state.live.get(key)?.metadata.uid,
      generation: object?.metadata.generation,
      touched: operation !== 'unchanged' && operation !== 'skipped',
      hasStatus: !!result.info?.hasStatus,
      // a skipped update returns the metadata-only live object: no status to judge
      object: operation === 'skipped' ? undefined : object,
    });
    o.action = operation;
    state.emit({ type: 'apply', group, id, status: 'Successful', operation });
    return;
  }
  const failed = result.status === 'Failed';
  markBlocked(state, id, failed ? 'apply actuation failed' : 'apply actuation skipped');
  o.action = failed ? 'failed' : 'skipped';
  if (!failed) o.skip = result.skip;
  o.message = failed ? result.error : skipMessage(result.skip);
  state.emit({ type: 'apply', group, id, status: result.status, error: o.message });
}

/** Whether an object opted out of waiting (`kapp.k14s.io/disable-wait`). */
export function waitDisabled(state: RunState, id: ObjectId): boolean {
  const a = state.manifests.get(idKey(id))?.metadata.annotations ?? {};
  const v = a[Annotations.KappDisableWait];
  return v !== undefined && v !== 'false';
}
