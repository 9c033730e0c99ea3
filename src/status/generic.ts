import type { KubeObject } from '../common/kube-object.js';
import { failed, inProgress, readConditions } from './fields.js';
import { nestedInt64 } from './nested-field.js';
import type { StatusResult } from './types.js';

/** kstatus' message for an object being deleted; also used by the Config Connector rules. */
export const TERMINATING_MESSAGE = 'Resource scheduled for deletion';

/** Terminating when `metadata.deletionTimestamp` is set, whatever the kind. */
export function terminatingStatus(obj: KubeObject): StatusResult | undefined {
  const ts = obj.metadata.deletionTimestamp;
  return typeof ts === 'string' && ts !== ''
    ? { status: 'Terminating', message: TERMINATING_MESSAGE }
    : undefined;
}

/**
 * InProgress while the controller has not observed the latest spec. Lenient like cli-utils: an object
 * without `status.observedGeneration` passes (kinds that always have one check it themselves).
 */
export function generationStatus(obj: KubeObject): StatusResult | undefined {
  const generation = nestedInt64(obj, ['metadata', 'generation']);
  if (generation === undefined) return undefined;
  const observed = nestedInt64(obj, ['status', 'observedGeneration']);
  if (observed === undefined || observed === generation) return undefined;
  return inProgress(
    'LatestGenerationNotObserved',
    `${obj.kind} generation is ${generation}, but latest observed generation is ${observed}`,
  );
}

/**
 * The rules every object gets before its kind's own (cli-utils `checkGenericProperties`): deletion,
 * generation, then the standard `Reconciling=True` / `Stalled=True` conditions, first in list order
 * winning. Undefined when none decides, so the kind rules run.
 */
export function genericStatus(obj: KubeObject): StatusResult | undefined {
  const decided = terminatingStatus(obj) ?? generationStatus(obj);
  if (decided) return decided;
  for (const c of readConditions(obj)) {
    if (c.type === 'Reconciling' && c.status === 'True') return inProgress(c.reason, c.message);
    if (c.type === 'Stalled' && c.status === 'True') return failed(c.reason, c.message);
  }
  return undefined;
}

/**
 * The `Ready` condition, for kinds with no rule of their own (custom resources): True ⇒ Current,
 * False or Unknown ⇒ InProgress with the condition's reason and message. Any other value is skipped.
 */
export function readyConditionStatus(obj: KubeObject): StatusResult | undefined {
  for (const c of readConditions(obj)) {
    if (c.type !== 'Ready') continue;
    if (c.status === 'True') return { status: 'Current', message: 'Resource is Ready' };
    if (c.status === 'False' || c.status === 'Unknown') return inProgress(c.reason, c.message);
  }
  return undefined;
}
