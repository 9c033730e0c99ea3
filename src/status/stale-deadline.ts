import type { KubeObject } from '../common/kube-object.js';

/**
 * A Deployment rolled back to a template it ran before (a rollback, `kubectl rollout undo`) gets its old
 * ReplicaSet back, and the controller keeps the Progressing condition as it was: a `ProgressDeadlineExceeded`
 * set by the rollout that failed stays until this one completes. kstatus would call the rollback Failed
 * from it at once. A deadline passed no later than the apply that started this rollout cannot be this
 * rollout's (its deadline starts with it), so the wait goes on instead.
 */

interface ManagedEntry {
  manager?: string;
  operation?: string;
  time?: string;
}

/** When `manager`'s server-side apply last changed the object (its managedFields entry; server clock). */
export function appliedAt(obj: KubeObject | undefined, manager: string): string | undefined {
  const entries = (obj?.metadata.managedFields ?? []) as ManagedEntry[];
  return entries.find((e) => e.manager === manager && e.operation === 'Apply' && !!e.time)?.time;
}

/** Whether the object's passed progress deadline was set no later than `appliedAt` (by an earlier rollout). */
export function isStaleDeadline(obj: KubeObject, applied: string | undefined): boolean {
  if (!applied || obj.kind !== 'Deployment') return false;
  const conditions = (obj.status as { conditions?: unknown } | undefined)?.conditions;
  if (!Array.isArray(conditions)) return false;
  const passed = conditions.find(
    (c) => c && typeof c === 'object' && c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded',
  ) as { lastUpdateTime?: string; lastTransitionTime?: string } | undefined;
  const at = Date.parse(passed?.lastUpdateTime ?? passed?.lastTransitionTime ?? '');
  const since = Date.parse(applied);
  return Number.isFinite(at) && Number.isFinite(since) && at <= since;
}
