import { formatDuration } from '../common/duration.js';
import { idKey, type ObjectId, shortName } from '../common/object-id.js';
import { ObjectWatcher } from '../status/object-watcher.js';
import { appliedAt } from '../status/stale-deadline.js';
import { observe, type WaitOutcome, type WaitTarget, waitForObjects } from '../status/wait-for-objects.js';
import { waitDisabled } from './apply-wave.js';
import { markBlocked, outcomeFor, type RunState } from './run-state.js';

/**
 * Waits for a wave: applied objects until Current (or Failed), deleted ones until gone. Objects that were
 * not actuated, or opted out of waiting, are reported `reconcile skipped`, as kpt does.
 */
export async function waitWave(
  state: RunState,
  ids: ObjectId[],
  group: string,
  condition: 'Current' | 'NotFound',
  onProgress?: (line: string) => void,
): Promise<void> {
  const targets: WaitTarget[] = [];
  const timeoutMs = condition === 'Current' ? state.options.reconcileTimeoutMs : state.options.pruneTimeoutMs;
  const waitOptions = {
    condition,
    timeoutMs,
    status: { waitForJobs: state.options.waitForJobs, failFast: state.options.failFast },
    controllerGraceMs: state.options.waitForControllerMs,
  };
  const onOutcome = (r: WaitOutcome) => {
    const o = outcomeFor(state, r.ref);
    o.reconcile = r.status;
    o.status = r.last.status;
    if (r.status === 'Successful') {
      o.readyAfterMs = Date.now() - state.startedAt;
      if (condition === 'Current') o.message = r.last.message;
    } else {
      o.message =
        r.status === 'Timeout'
          ? `timed out after ${formatDuration(timeoutMs)} waiting for ${condition}: ${r.last.status}${r.last.message ? `: ${r.last.message}` : ''}`
          : `${r.last.status}: ${r.last.message}`;
      markBlocked(state, r.ref, r.status === 'Failed' ? 'apply reconcile failed' : 'apply reconcile timeout');
    }
    state.emit({
      type: 'wait',
      group,
      id: r.ref,
      status: r.status,
      message: r.status === 'Successful' ? undefined : o.message,
    });
  };
  for (const id of ids) {
    const key = idKey(id);
    const actuated = condition === 'Current' ? state.applied.has(key) : state.deleted.has(key);
    const o = outcomeFor(state, id);
    if (!actuated || !state.options.wait || (condition === 'Current' && waitDisabled(state, id))) {
      o.reconcile = 'Skipped';
      if (condition === 'Current' && actuated) {
        o.message ??= state.options.wait
          ? 'wait disabled by kapp.k14s.io/disable-wait'
          : 'not waited for (wait: false)';
      }
      state.emit({ type: 'wait', group, id, status: 'Skipped' });
      continue;
    }
    const applied = state.applied.get(key);
    const liveUid = state.live.get(key)?.metadata.uid;
    const target: WaitTarget = {
      ref: { ...id, apiVersion: state.manifests.get(key)?.apiVersion },
      appliedGeneration: condition === 'Current' ? applied?.generation : undefined,
      uid: condition === 'Current' ? applied?.uid : liveUid,
      hasStatusSubresource: applied?.hasStatus,
      touchedByRun: applied?.touched,
      appliedAt:
        condition === 'Current' && applied?.touched
          ? appliedAt(applied.object, state.options.fieldManager)
          : undefined,
    };
    // what the write itself answered settles it when that already meets the condition (a Role or a
    // ConfigMap is Current as applied; a DELETE answered Success is gone): no watch for those
    const known = condition === 'Current' ? applied?.object : state.gone.has(key) ? null : undefined;
    const first = known === undefined ? undefined : observe(target, known, waitOptions, 0);
    if (first && first.status === condition) {
      state.emit({ type: 'status', id: target.ref, status: first.status, message: first.message });
      onOutcome({ ref: target.ref, status: 'Successful', last: first });
      continue;
    }
    targets.push(target);
  }
  if (targets.length === 0) return;

  state.watcher ??= new ObjectWatcher(state.client);
  // objects on a feed this wave started were listed after the writes: only the others need a fresh GET
  const stale = await state.watcher.track(targets.map((t) => t.ref));
  await state.watcher.refresh(stale);
  await waitForObjects(state.watcher, targets, {
    ...waitOptions,
    signal: state.signal,
    onStatus: (ref, r) => state.emit({ type: 'status', id: ref, status: r.status, message: r.message }),
    onPending: (ref) => state.emit({ type: 'wait', group, id: ref, status: 'Pending' }),
    onOutcome,
    onNotice: (message) => onProgress?.(`note: ${message}`),
    onProgress: (pending, elapsed) =>
      onProgress?.(
        `waiting ${formatDuration(elapsed)} for ${pending.length} object(s): ` +
          pending
            .slice(0, 10)
            .map((p) => `${shortName(p.ref)} ${p.status}${p.message ? ` (${p.message})` : ''}`)
            .join('; '),
      ),
  });
}
