import { formatDuration } from '../common/duration.js';
import { idKey } from '../common/object-id.js';
import type { StatusVerdict } from '../drift/classify-drift.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { ObjectWatcher } from '../status/object-watcher.js';
import { type WaitTarget, waitForObjects } from '../status/wait-for-objects.js';
import type { ObjectStatus } from './package-status.js';

export interface HealthOptions {
  /** How long an object that is still reconciling gets to become Current (0 = no limit). */
  timeoutMs: number;
  waitForJobs: boolean;
  /** idKeys of objects not judged by health (`kapp.k14s.io/disable-wait`). */
  exempt: ReadonlySet<string>;
  signal?: AbortSignal;
  /** Called while objects are still reconciling, at most every 10 s. */
  onProgress?: (line: string) => void;
}

/** Statuses that may still turn Current by themselves: drift waits for those before judging. */
const SETTLING = new Set(['InProgress', 'Terminating']);

/**
 * The health of an inventory's objects once they settled: those already Current, Failed or gone are
 * judged at once (from the status mode's read); those still reconciling are watched (as apply's waits do)
 * until they turn Current or Failed, or the timeout passes, so a rollout in progress does not read as
 * drift. Read-only: LIST, WATCH and GET.
 */
export async function settleHealth(
  client: ClusterClient,
  initial: readonly ObjectStatus[],
  options: HealthOptions,
): Promise<StatusVerdict[]> {
  const judged = initial.filter((s) => !options.exempt.has(idKey(s.id)));
  const settled = judged.filter((s) => !SETTLING.has(s.status));
  const pending = judged.filter((s) => SETTLING.has(s.status));
  const verdicts: StatusVerdict[] = settled.map((s) => ({ id: s.id, status: s.status, message: s.message }));
  if (pending.length === 0 || options.signal?.aborted) {
    return [...verdicts, ...pending.map((s) => ({ id: s.id, status: s.status, message: s.message }))];
  }
  const watcher = new ObjectWatcher(client);
  try {
    const targets: WaitTarget[] = pending.map((s) => ({ ref: s.id }));
    await watcher.track(targets.map((t) => t.ref));
    const outcomes = await waitForObjects(watcher, targets, {
      condition: 'Current',
      timeoutMs: options.timeoutMs,
      status: { waitForJobs: options.waitForJobs },
      signal: options.signal,
      onProgress: (left, elapsed) =>
        options.onProgress?.(
          `waiting ${formatDuration(elapsed)} for ${left.length} object(s) to reconcile before judging drift`,
        ),
    });
    for (const o of outcomes) {
      if (o.status === 'Successful') verdicts.push({ id: o.ref, status: 'Current', message: o.last.message });
      else if (o.status === 'Failed') verdicts.push({ id: o.ref, status: 'Failed', message: o.last.message });
      else {
        const after = options.timeoutMs > 0 ? ` after ${formatDuration(options.timeoutMs)}` : '';
        verdicts.push({
          id: o.ref,
          status: o.last.status,
          message: `not Current${after}${o.last.message ? `: ${o.last.message}` : ''}`,
        });
      }
    }
  } finally {
    watcher.stop();
  }
  return verdicts;
}
