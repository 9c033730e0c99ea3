import { current, inProgress, intField } from '../fields.js';
import { nestedInt64 } from '../nested-field.js';
import type { KindRule } from '../status-options.js';

/**
 * apps/DaemonSet (and extensions/DaemonSet), cli-utils `daemonsetConditions`. Unlike the generic rule,
 * both generations must be present: the DaemonSet controller always sets observedGeneration once it has
 * acted, so its absence means "not looked at yet". Then every per-node count must reach
 * `desiredNumberScheduled`.
 */
export const daemonSetStatus: KindRule = (obj) => {
  if (nestedInt64(obj, ['metadata', 'generation']) === undefined) {
    return inProgress('NoGeneration', `${obj.kind} metadata.generation not found`);
  }
  if (nestedInt64(obj, ['status', 'observedGeneration']) === undefined) {
    return inProgress('NoObservedGeneration', `${obj.kind} status.observedGeneration not found`);
  }
  const desired = intField(obj, ['status', 'desiredNumberScheduled'], -1);
  const scheduled = intField(obj, ['status', 'currentNumberScheduled'], 0);
  const updated = intField(obj, ['status', 'updatedNumberScheduled'], 0);
  const available = intField(obj, ['status', 'numberAvailable'], 0);
  const ready = intField(obj, ['status', 'numberReady'], 0);

  if (desired === -1) return inProgress('NoDesiredNumber', 'Missing .status.desiredNumberScheduled');
  if (desired > scheduled) return inProgress('LessCurrent', `Current: ${scheduled}/${desired}`);
  if (desired > updated) return inProgress('LessUpdated', `Updated: ${updated}/${desired}`);
  if (desired > available) return inProgress('LessAvailable', `Available: ${available}/${desired}`);
  if (desired > ready) return inProgress('LessReady', `Ready: ${ready}/${desired}`);
  return current(`All replicas scheduled as expected. Replicas: ${desired}`);
};
