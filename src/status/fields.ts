import { getPath, type KubeObject } from '../common/kube-object.js';
import type { StatusResult } from './types.js';

/**
 * Thrown when an object's fields have the wrong shape for kstatus (cli-utils returns an error there).
 * computeStatus turns it into `Unknown` with this message, as cli-utils' status readers do.
 */
export class StatusComputeError extends Error {
  override name = 'StatusComputeError';
}

/** A condition as kstatus reads it; absent fields are ''. */
export interface BasicCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * An integer field, or `fallback` when it is absent or not an integer (cli-utils `GetIntField` accepts only
 * int types, so a string "3" or a float counts as absent).
 */
export function intField(obj: KubeObject, path: readonly string[], fallback: number): number {
  const value = getPath(obj, path);
  return typeof value === 'number' && Number.isInteger(value) ? value : fallback;
}

/** A string field, or `fallback` when absent or not a string (cli-utils `GetStringField`). */
export function stringField(obj: KubeObject, path: readonly string[], fallback: string): string {
  const value = getPath(obj, path);
  return typeof value === 'string' ? value : fallback;
}

/** A boolean field, or `fallback` when absent or not a boolean (cli-utils `GetBoolField`). */
export function boolField(obj: KubeObject, path: readonly string[], fallback: boolean): boolean {
  const value = getPath(obj, path);
  return typeof value === 'boolean' ? value : fallback;
}

/**
 * The object's `status.conditions`, as cli-utils converts them: an absent list is empty, but a list or
 * entry of the wrong shape is an error (the object is then Unknown, not silently Current).
 */
export function readConditions(obj: KubeObject): BasicCondition[] {
  const status = obj.status;
  if (status === undefined || status === null) return [];
  if (typeof status !== 'object' || Array.isArray(status)) {
    throw new StatusComputeError(`status: expected an object, found ${describe(status)}`);
  }
  const list = (status as Record<string, unknown>).conditions;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) {
    throw new StatusComputeError(`status.conditions: expected a list, found ${describe(list)}`);
  }
  return list.map((entry, i) => {
    if (entry === null) return { type: '', status: '', reason: '', message: '' };
    if (typeof entry !== 'object' || Array.isArray(entry)) {
      throw new StatusComputeError(`status.conditions[${i}]: expected an object, found ${describe(entry)}`);
    }
    const read = (key: string): string => {
      const value = (entry as Record<string, unknown>)[key];
      if (value === undefined || value === null) return '';
      if (typeof value !== 'string') {
        throw new StatusComputeError(
          `status.conditions[${i}].${key}: expected a string, found ${describe(value)}`,
        );
      }
      return value;
    };
    return { type: read('type'), status: read('status'), reason: read('reason'), message: read('message') };
  });
}

/** The first condition of `type` with `status` (cli-utils `getConditionWithStatus`). */
export function findCondition(
  conditions: readonly BasicCondition[],
  type: string,
  status: string,
): BasicCondition | undefined {
  return conditions.find((c) => c.type === type && c.status === status);
}

/** A Current result (no synthesized condition, so no reason). */
export function current(message: string): StatusResult {
  return { status: 'Current', message };
}

/** InProgress with the reason of its synthesized `Reconciling` condition (cli-utils `newInProgressStatus`). */
export function inProgress(reason: string, message: string): StatusResult {
  return reason ? { status: 'InProgress', message, reason } : { status: 'InProgress', message };
}

/** Failed with the reason of its synthesized `Stalled` condition (cli-utils `newFailedStatus`). */
export function failed(reason: string, message: string): StatusResult {
  return reason ? { status: 'Failed', message, reason } : { status: 'Failed', message };
}
