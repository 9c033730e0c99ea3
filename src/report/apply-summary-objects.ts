import { failed, isBlockedOutcome, type ObjectOutcome } from '../apply/run-result.js';
import { blockedExplanation } from '../apply/skip-reason.js';
import type { ApplySummaryObject } from './job-summary.js';

/**
 * The job summary's rows for a run's objects: the final state (`Timeout` when the wait timed out, else the
 * last kstatus), the explanation of a blocked skip, and whether the object failed, as `failed` decides it
 * (blocked objects are listed apart, so they are not counted as failed here).
 */
export function applySummaryObjects(objects: readonly ObjectOutcome[]): ApplySummaryObject[] {
  return objects.map((o) => ({
    id: o.id,
    action: o.action,
    status:
      o.reconcile === 'Timeout'
        ? 'Timeout'
        : (o.status ?? (o.reconcile === 'Skipped' ? 'Skipped' : o.action)),
    message: isBlockedOutcome(o) && o.skip ? blockedExplanation(o.skip) : withoutStatus(o),
    failed: failed(o, { allowSkipped: true }),
    blocked: isBlockedOutcome(o),
    source: o.source,
    wave: o.wave,
    durationMs: o.readyAfterMs,
  }));
}

/** A failed wait's message (`Failed: Progress deadline exceeded`) without the status the row already shows. */
function withoutStatus(o: ObjectOutcome): string | undefined {
  const prefix = `${o.status}: `;
  return o.reconcile === 'Failed' && o.message?.startsWith(prefix)
    ? o.message.slice(prefix.length)
    : o.message;
}
