import { Annotations } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import type { KStatus } from './types.js';

/**
 * One status for many objects, as kpt's poller aggregates them (cli-utils aggregator.AggregateStatus):
 * any Failed ⇒ Failed; else any Unknown ⇒ Unknown; else all `desired` ⇒ `desired`; else InProgress.
 * No objects at all have nothing left to wait for, so the answer is `desired`.
 */
export function aggregateStatus(statuses: readonly KStatus[], desired: KStatus): KStatus {
  if (statuses.includes('Failed')) return 'Failed';
  if (statuses.includes('Unknown')) return 'Unknown';
  return statuses.every((s) => s === desired) ? desired : 'InProgress';
}

/**
 * True when the object opts out of the reconcile wait with kapp's `kapp.k14s.io/disable-wait`. kapp sets
 * it to "" and checks only presence, so any value counts except an explicit "false".
 */
export function isDisabledWait(obj: KubeObject): boolean {
  const value = obj.metadata.annotations?.[Annotations.KappDisableWait];
  return value !== undefined && value !== 'false';
}
