import { getPath, type KubeObject, splitApiVersion } from '../../common/kube-object.js';
import { current, failed, inProgress, optionalInt, readConditions, StatusComputeError } from '../fields.js';
import { terminatingStatus } from '../generic.js';
import type { StatusResult } from '../types.js';

/** Ready reasons after which Config Connector will not get further without someone's help. */
const STUCK_REASONS = new Set(['ManagementConflict', 'UpdateFailed', 'DeleteFailed', 'DependencyInvalid']);

/** True for Config Connector groups (kpt matches the suffix `cnrm.cloud.google.com`). */
export function isConfigConnector(obj: KubeObject): boolean {
  return splitApiVersion(obj.apiVersion).group.endsWith('cnrm.cloud.google.com');
}

/** ConfigConnectorContext reports health, not conditions. */
function contextStatus(obj: KubeObject): StatusResult {
  const healthy = getPath(obj, ['status', 'healthy']);
  if (healthy === undefined || healthy === null)
    return inProgress('NotReady', 'status.healthy property not set');
  if (typeof healthy !== 'boolean') {
    throw new StatusComputeError(
      `looking up status.healthy from resource: .status.healthy accessor error: ${JSON.stringify(healthy)} is not a boolean`,
    );
  }
  return healthy ? current('status.healthy is true') : inProgress('NotReady', 'status.healthy is false');
}

/**
 * kpt's custom status reader for Config Connector (KPT pkg/status/configconnector.go), used instead of
 * every kstatus rule but deletion. Config Connector always sets `status.observedGeneration`, so until it
 * does the resource has not been looked at: InProgress (kpt reports this as an error, i.e. Unknown; both
 * keep the wait pending, InProgress says why). Then the last `Ready` condition decides; a few Ready
 * reasons mean the resource is stuck and are Failed.
 */
export function configConnectorStatus(obj: KubeObject): StatusResult {
  const terminating = terminatingStatus(obj);
  if (terminating) return terminating;
  if (obj.kind === 'ConfigConnectorContext') return contextStatus(obj);

  const generation = optionalInt(obj, ['metadata', 'generation']);
  if (generation === undefined) throw new StatusComputeError('metadata.generation not found');
  const observed = optionalInt(obj, ['status', 'observedGeneration']);
  if (observed === undefined) {
    return inProgress(
      'NoObservedGeneration',
      `${obj.kind} status.observedGeneration not found: Config Connector has not observed it yet`,
    );
  }
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
