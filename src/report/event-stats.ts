import type { RunEvent } from '../apply/events.js';
import type { RunOutcome } from '../common/run-outcome.js';

/**
 * Counts per action exactly as cli-utils' printers keep them (pkg/print/stats): every apply, prune and
 * delete event counts under its status; wait events count unless Pending. The summary lines, the JSON
 * group counts (cumulative across groups) and the exit code all read these numbers.
 */

export interface ActuationCounts {
  successful: number;
  skipped: number;
  failed: number;
}

export interface WaitCounts extends ActuationCounts {
  timeout: number;
}

function actuation(): ActuationCounts {
  return { successful: 0, skipped: 0, failed: 0 };
}

/** Attempted = every counted event, as cli-utils' `Sum()`. */
export function attempted(counts: ActuationCounts | WaitCounts): number {
  return counts.successful + counts.skipped + counts.failed + ('timeout' in counts ? counts.timeout : 0);
}

export function isZero(counts: ActuationCounts | WaitCounts): boolean {
  return attempted(counts) === 0;
}

export class EventStats {
  readonly apply: ActuationCounts = actuation();
  readonly prune: ActuationCounts = actuation();
  readonly delete: ActuationCounts = actuation();
  readonly wait: WaitCounts = { ...actuation(), timeout: 0 };

  /** Counts one event; events other than apply/prune/delete/wait are ignored, as in cli-utils. */
  add(event: RunEvent): void {
    switch (event.type) {
      case 'apply':
      case 'prune':
      case 'delete': {
        const counts = this[event.type];
        if (event.status === 'Successful') counts.successful++;
        else if (event.status === 'Skipped') counts.skipped++;
        else counts.failed++;
        return;
      }
      case 'wait':
        if (event.status === 'Successful') this.wait.successful++;
        else if (event.status === 'Skipped') this.wait.skipped++;
        else if (event.status === 'Failed') this.wait.failed++;
        else if (event.status === 'Timeout') this.wait.timeout++;
        return;
      default:
        return;
    }
  }

  /** Objects that failed to apply, prune or delete. */
  failedActuation(): number {
    return this.apply.failed + this.prune.failed + this.delete.failed;
  }

  /** Objects that failed to reconcile or timed out waiting. */
  failedReconciliation(): number {
    return this.wait.failed + this.wait.timeout;
  }
}

/**
 * Whether an event stream's run failed, as kpt decides it: anything failed to apply/prune/delete or to
 * reconcile (cli-utils `ResultError`, which kpt maps to exit 3). Skips never fail an event stream: the
 * events do not say whether a skip was blocked (a real run decides that on its objects, `failed`).
 */
export function outcomeOf(stats: EventStats): RunOutcome {
  return stats.failedActuation() > 0 || stats.failedReconciliation() > 0 ? 'failed' : 'success';
}

/** cli-utils' `ResultError` text (`2 resources failed`), or undefined when the run succeeded. */
export function resultErrorMessage(stats: EventStats): string | undefined {
  const failed = stats.failedActuation();
  const timedOut = stats.failedReconciliation();
  if (failed > 0 && timedOut > 0) {
    return `${failed} resources failed, ${timedOut} resources failed to reconcile before timeout`;
  }
  if (failed > 0) return `${failed} resources failed`;
  if (timedOut > 0) return `${timedOut} resources failed to reconcile before timeout`;
  return undefined;
}
