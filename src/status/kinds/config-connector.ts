import { type KubeObject, splitApiVersion } from '../../common/kube-object.js';
import { current, failed, inProgress, readConditions, StatusComputeError } from '../fields.js';
import { terminatingStatus } from '../generic.js';
import { nestedBool, nestedInt64 } from '../nested-field.js';
import type { StatusResult } from '../types.js';

/** Ready reasons after which Config Connector will not get further without someone's help. */
const STUCK_REASONS = new Set(['ManagementConflict', 'UpdateFailed', 'DeleteFailed', 'DependencyInvalid']);

/** True for Config Connector groups (kpt matches the suffix `cnrm.cloud.google.com`). */
export function isConfigConnector(obj: KubeObject): boolean {
  return splitApiVersion(obj.apiVersion).group.endsWith('cnrm.cloud.google.com');
}

/** ConfigConnectorContext reports health, not conditions (an explicit null is not a boolean either). */
function contextStatus(obj: KubeObject): StatusResult {
  const healthy = nestedBool(obj, ['status', 'healthy']);
  if (healthy === undefined) return inProgress('NotReady', 'status.healthy property not set');
  return healthy ? current('status.healthy is true') : inProgress('NotReady', 'status.healthy is false');
}

/**
 * kpt's custom status reader for Config Connector (kpt 1.0.0-beta.56 pkg/status/configconnector.go), used
 * instead of every kstatus rule but deletion. Config Connector always sets `status.observedGeneration`, so
 * one that is missing is an error (Unknown, as kpt reports it: the wait stays pending); a field of the
 * wrong type, or one under something that is not an object, is Unknown with apimachinery's message
 * (nested-field.ts). Then the last `Ready` condition decides; a few Ready reasons mean the resource is stuck
 * and are Failed. Where we differ from kpt, in what no user sees: the InProgress results carry a reason
 * (kpt's have none), and `status.conditions` of the wrong shape is Unknown with readConditions' message
 * (`status.conditions: expected a list, found string`), not the one of kpt's unstructured converter.
 */
export function configConnectorStatus(obj: KubeObject): StatusResult {
  const terminating = terminatingStatus(obj);
  if (terminating) return terminating;
  if (obj.kind === 'ConfigConnectorContext') return contextStatus(obj);

  const generation = nestedInt64(obj, ['metadata', 'generation']);
  if (generation === undefined) throw new StatusComputeError('metadata.generation not found');
  const observed = nestedInt64(obj, ['status', 'observedGeneration']);
  if (observed === undefined) throw new StatusComputeError('status.ObservedGeneration not found');
  if (observed !== generation) {
    return inProgress(
      'LatestGenerationNotObserved',
      `${obj.kind} generation is ${generation}, but latest observed generation is ${observed}`,
    );
  }

  const ready = readConditions(obj)
    .filter((c) => c.type === 'Ready')
    .at(-1);
  if (!ready) return inProgress('NoReadyCondition', 'Ready condition not set');
  if (ready.status === 'True') return current('Resource is Current');
  if (STUCK_REASONS.has(ready.reason)) return failed(ready.reason, ready.message);
  return inProgress(ready.reason, ready.message);
}
