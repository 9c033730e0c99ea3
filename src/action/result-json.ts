import { countOutcomes, isBlockedOutcome, type ObjectOutcome } from '../apply/run-result.js';
import { displayName, shortName } from '../common/object-id.js';
import type { RunOutcome } from '../common/run-outcome.js';
import type { RollbackReport } from '../pipeline/rollback-report.js';
import type { PackageRunResult } from '../pipeline/run-package.js';

/** One package's entry of the action's `result` output (README: Output formats). */
export interface PackageResultJson {
  path: string;
  mode: string;
  outcome: RunOutcome | 'skipped';
  error?: string;
  summary: Record<string, number>;
  objects: Record<string, unknown>[];
  /** A failed apply's rollback (`on-failure: rollback`), or the rollback `mode: rollback` ran. */
  rollback?: Record<string, unknown>;
}

export function packageResultJson(r: PackageRunResult): PackageResultJson {
  const base = { path: r.path, mode: r.mode, outcome: r.outcome, ...(r.error ? { error: r.error } : {}) };
  if (r.preview) {
    return {
      ...base,
      summary: { ...r.preview.summary },
      objects: r.preview.objects.map((o) => ({
        kind: o.id.kind,
        group: o.id.group,
        namespace: o.id.namespace,
        name: o.id.name,
        action: o.action,
        ...(o.reason ? { reason: o.reason } : {}),
        ...(o.blocked ? { blocked: o.blocked } : {}),
        ...(o.changes?.length ? { changes: o.changes } : {}),
        ...(o.source ? { source: o.source } : {}),
      })),
    };
  }
  if (r.status) {
    const summary: Record<string, number> = {};
    for (const s of r.status) summary[s.status] = (summary[s.status] ?? 0) + 1;
    return {
      ...base,
      summary,
      objects: r.status.map((s) => ({
        ...s.id,
        object: displayName(s.id),
        status: s.status,
        message: s.message,
      })),
    };
  }
  return {
    ...base,
    ...runJson(r.run?.objects ?? []),
    ...(r.rollback ? { rollback: rollbackJson(r.rollback, r.mode !== 'rollback') } : {}),
  };
}

/** A run's counts and each object's final action and status. */
function runJson(objects: readonly ObjectOutcome[]) {
  return {
    summary: { ...countOutcomes([...objects]), blocked: objects.filter(isBlockedOutcome).length },
    objects: objects.map((o) => ({
      kind: o.id.kind,
      group: o.id.group,
      namespace: o.id.namespace,
      name: o.id.name,
      action: o.action,
      ...(o.reconcile ? { reconcile: o.reconcile } : {}),
      ...(o.status ? { status: o.status } : {}),
      ...(o.message ? { message: o.message } : {}),
      ...(isBlockedOutcome(o) ? { blocked: true } : {}),
      ...(o.source ? { source: o.source } : {}),
    })),
  };
}

/**
 * `{"status": "rolled-back"|"failed"|"skipped", "to"?, "of"?, "reason"?, "kept": [...], "pruned": [...],
 * "left"?, "summary"?, "objects"?}`: what the rollback did (objects as `Kind/name`; `summary` and `objects`
 * as a run's, after a failed apply only).
 */
function rollbackJson(rb: RollbackReport, withObjects: boolean): Record<string, unknown> {
  return {
    status: rb.status,
    ...(rb.to ? { to: rb.to } : {}),
    ...(rb.of ? { of: rb.of } : {}),
    ...(rb.reason ? { reason: rb.reason } : {}),
    kept: rb.kept.map(shortName),
    pruned: rb.pruned.map(shortName),
    ...(rb.left ? { left: rb.left.map(shortName) } : {}),
    // asked for (mode: rollback), the package's own summary and objects are the rollback's
    ...(rb.run && withObjects ? runJson(rb.run.objects) : {}),
  };
}

/** Totals over packages for the `created`, `configured`, ... outputs. */
export function totals(results: PackageResultJson[]) {
  const t = { created: 0, configured: 0, unchanged: 0, pruned: 0, failed: 0 };
  for (const r of results) {
    const s = r.summary;
    t.created += s.create ?? s.created ?? 0;
    t.configured += s.configure ?? s.configured ?? 0;
    t.unchanged += s.unchanged ?? 0;
    t.pruned += s.prune ?? s.pruned ?? 0;
    t.failed += s.error ?? s.failed ?? 0;
  }
  return t;
}
