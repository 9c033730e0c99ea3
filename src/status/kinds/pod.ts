import { getPath, isRecord, type KubeObject } from '../../common/kube-object.js';
import {
  current,
  failed,
  findCondition,
  inProgress,
  readConditions,
  StatusComputeError,
  stringField,
} from '../fields.js';
import type { KindRule } from '../status-options.js';

/** How long a Pod may stay unschedulable before it counts as Failed (cli-utils `ScheduleWindow`). */
export const SCHEDULE_WINDOW_MS = 15_000;

/** Names of containers waiting with reason `CrashLoopBackOff`, in status order. */
function crashLoopingContainers(obj: KubeObject): string[] {
  const statuses = getPath(obj, ['status', 'containerStatuses']);
  if (!Array.isArray(statuses)) return [];
  const names: string[] = [];
  for (const cs of statuses) {
    if (!isRecord(cs) || typeof cs.name !== 'string') continue;
    if (getPath(cs, ['state', 'waiting', 'reason']) === 'CrashLoopBackOff') names.push(cs.name);
  }
  return names;
}

/** True while `now` is within the schedule window after the Pod's creation (a missing time is long ago). */
function withinScheduleWindow(obj: KubeObject, now: number): boolean {
  const created = Date.parse(obj.metadata.creationTimestamp ?? '');
  return !Number.isNaN(created) && now - SCHEDULE_WINDOW_MS < created;
}

/**
 * Pod, cli-utils `podConditions`. A finished Pod is Current even when it failed (it will not change any
 * more); a running Pod needs `Ready=True` and is Failed when a container crash-loops; a Pending Pod that
 * the scheduler rejects is Failed once the 15 s schedule window has passed. An unknown phase is an error.
 */
export const podStatus: KindRule = (obj, options) => {
  const conditions = readConditions(obj);
  const phase = stringField(obj, ['status', 'phase'], '');
  switch (phase) {
    case 'Succeeded':
      return current('Pod has completed successfully');
    case 'Failed':
      return current('Pod has completed, but not successfully');
    case 'Running': {
      if (findCondition(conditions, 'Ready', 'True')) return current('Pod is Ready');
      const crashing = crashLoopingContainers(obj);
      if (crashing.length > 0) {
        return failed('ContainerCrashLooping', `Containers in CrashLoop state: ${crashing.join(',')}`);
      }
      return inProgress('PodRunningNotReady', 'Pod is running but is not Ready');
    }
    case 'Pending': {
      const scheduled = findCondition(conditions, 'PodScheduled', 'False');
      if (scheduled?.reason === 'Unschedulable') {
        return withinScheduleWindow(obj, options.now ?? Date.now())
          ? inProgress('PodNotScheduled', 'Pod has not been scheduled')
          : failed('PodUnschedulable', 'Pod could not be scheduled');
      }
      return inProgress('PodPending', 'Pod is in the Pending phase');
    }
    case '':
      return inProgress('PodNotObserved', 'Pod phase not available');
    default:
      throw new StatusComputeError(`unknown phase ${phase}`);
  }
};
