import { getPath, type KubeObject, splitApiVersion } from '../../common/kube-object.js';
import { current, failed, inProgress, readConditions, StatusComputeError } from '../fields.js';
import { terminatingStatus } from '../generic.js';
import type { StatusResult } from '../types.js';

/** Ready reasons after which Config Connector will not get further without someone's help. */
const STUCK_REASONS = new Set(['ManagementConflict', 'UpdateFailed', 'DeleteFailed', 'DependencyInvalid']);

/** True for Config Connector groups (kpt matches the suffix `cnrm.cloud.google.com`). */
export function isConfigConnector(obj: KubeObject): boolean {
  return splitApiVersion(obj.apiVersion).group.endsWith('cnrm.cloud.google.com');
}

/**
 * apimachinery's `unstructured.Nested<Type>` error for a field of the wrong type, as Go prints it
 * (`.status.healthy accessor error: yes is of the type string, expected bool`).
 */
function accessorError(path: readonly string[], value: unknown, expected: string): string {
  return `.${path.join('.')} accessor error: ${goValue(value)} is of the type ${goType(value)}, expected ${expected}`;
}

/** Go's `%v` of a decoded JSON value (unstructured holds integers as int64, other numbers as float64). */
function goValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `map[${entries.map(([k, v]) => `${k}:${goValue(v)}`).join(' ')}]`;
  }
  return String(value);
}

/** Go's `%T` of a decoded JSON value. */
function goType(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  if (typeof value === 'object') return 'map[string]interface {}';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return typeof value === 'boolean' ? 'bool' : 'string';
}

/** `unstructured.NestedInt64`: undefined when absent; an error naming the field when not an integer. */
function nestedInt64(obj: KubeObject, path: readonly string[]): number | undefined {
  const value = getPath(obj, path);
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw new StatusComputeError(
    `looking up ${path.join('.')} from resource: ${accessorError(path, value, 'int64')}`,
  );
}

/** ConfigConnectorContext reports health, not conditions (an explicit null is not a boolean either). */
function contextStatus(obj: KubeObject): StatusResult {
  const path = ['status', 'healthy'];
  const healthy = getPath(obj, path);
  if (healthy === undefined) return inProgress('NotReady', 'status.healthy property not set');
  if (typeof healthy !== 'boolean') {
    throw new StatusComputeError(
      `looking up status.healthy from resource: ${accessorError(path, healthy, 'bool')}`,
    );
  }
  return healthy ? current('status.healthy is true') : inProgress('NotReady', 'status.healthy is false');
}

/**
 * kpt's custom status reader for Config Connector (kpt 1.0.0-beta.56 pkg/status/configconnector.go), used
 * instead of every kstatus rule but deletion. Config Connector always sets `status.observedGeneration`, so
 * one that is missing is an error (Unknown, as kpt reports it: the wait stays pending); a field of the
 * wrong type is Unknown with apimachinery's message. Then the last `Ready` condition decides; a few Ready
 * reasons mean the resource is stuck and are Failed. Where we add to kpt: the InProgress results carry a
 * reason (kpt's have none).
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
