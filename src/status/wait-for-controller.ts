import { isRecord, type KubeObject } from '../common/kube-object.js';
import type { StatusResult } from './types.js';

/** What the caller knows about the object beyond its own fields. */
export interface AwaitingControllerContext {
  /** Its CRD declares `subresources.status`, i.e. a controller is expected to write a status. */
  hasStatusSubresource: boolean;
  /** This run created or changed it (an untouched object needs no fresh look from its controller). */
  touchedByRun: boolean;
  /** Time since this run applied it. */
  elapsedMs: number;
  /** The `wait-for-controller` grace period; 0 or less turns the rule off. */
  graceMs: number;
}

export const AWAITING_CONTROLLER_MESSAGE = 'waiting for its controller';

/** No `status`, `status: null` or `status: {}`. */
function hasNoStatus(obj: KubeObject): boolean {
  const status = obj.status;
  return status === undefined || status === null || (isRecord(status) && Object.keys(status).length === 0);
}

/**
 * The opt-in `wait-for-controller` rule, beyond kstatus: a custom resource without a status is Current in
 * kstatus the moment it is created, before its controller has looked at it. During the grace period an
 * object that this run created or changed, whose CRD has a status subresource and that has no status yet
 * is InProgress instead. Undefined when the rule does not hold back the object (then use computeStatus);
 * an object being deleted is never held back.
 */
export function awaitingController(
  obj: KubeObject,
  ctx: AwaitingControllerContext,
): StatusResult | undefined {
  if (ctx.graceMs <= 0 || ctx.elapsedMs >= ctx.graceMs) return undefined;
  if (!ctx.touchedByRun || !ctx.hasStatusSubresource) return undefined;
  if (obj.metadata.deletionTimestamp) return undefined;
  if (!hasNoStatus(obj)) return undefined;
  return { status: 'InProgress', message: AWAITING_CONTROLLER_MESSAGE, reason: 'AwaitingController' };
}
