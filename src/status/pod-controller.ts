import { getPath, isRecord, type KubeObject, splitApiVersion } from '../common/kube-object.js';
import type { StatusResult } from './types.js';

/**
 * True for the kinds whose pods cli-utils also reads (its StatefulSet and ReplicaSet status readers,
 * apps group only): the watcher lists their pods by `spec.selector` and passes the pods' statuses to
 * `withFailedPods`.
 */
export function isPodController(obj: KubeObject): boolean {
  return (
    splitApiVersion(obj.apiVersion).group === 'apps' &&
    (obj.kind === 'StatefulSet' || obj.kind === 'ReplicaSet')
  );
}

/**
 * A pod controller that is InProgress while any of its pods is Failed (crash-looping, unschedulable past
 * the window) is Failed: it will not become Current without help, and waiting for the timeout would only
 * hide the cause. Anything else is returned unchanged (cli-utils podControllerStatusReader).
 */
export function withFailedPods(result: StatusResult, podResults: readonly StatusResult[]): StatusResult {
  if (result.status !== 'InProgress') return result;
  const count = podResults.filter((p) => p.status === 'Failed').length;
  return count > 0 ? { status: 'Failed', message: `${count} pods have failed` } : result;
}

/**
 * True for a Pod the scheduler has rejected (`PodScheduled=False`, reason `Unschedulable`). The watcher
 * re-checks such a Pod (and an InProgress controller of one) after the schedule window, because its
 * status turns Failed with the passing of time, not with an event (cli-utils watcher/unschedulable.go).
 */
export function isPodUnschedulable(obj: KubeObject): boolean {
  if (splitApiVersion(obj.apiVersion).group !== '' || obj.kind !== 'Pod') return false;
  const conditions = getPath(obj, ['status', 'conditions']);
  if (!Array.isArray(conditions)) return false;
  return conditions.some(
    (c) => isRecord(c) && c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  );
}
