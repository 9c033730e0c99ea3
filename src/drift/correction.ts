import type { DriftCorrection, DriftObject } from './types.js';

export type { CorrectionResult, DriftCorrection } from './types.js';

/** Why a package with status drift only is not re-applied. */
export const StatusOnlyReason =
  'only status drift (unhealthy objects whose fields match the package): re-applying would change nothing';

/**
 * Whether re-applying changes anything: a configure, create or prune drift does; status drift alone (a
 * Failed Deployment whose spec matches the package) does not, and is left to a person.
 */
export function needsReapply(objects: readonly DriftObject[]): boolean {
  return objects.some((o) => o.drift !== 'status');
}

/** A package's drift as its exit code sees it. */
export interface DriftVerdict {
  outcome: 'in-sync' | 'drifted' | 'error';
  correction?: DriftCorrection;
}

/**
 * `kpt-live drift`'s exit code for one package: 1 when it could not be checked, 0 in sync; drifted: 4
 * without `--correct`; with it, 0 once corrected, 3 when its correction failed or was skipped after an
 * earlier failure, 4 when the drift remains untouched (held, or status only). The command exits with the
 * worst of its packages' codes.
 */
export function driftExitCode(v: DriftVerdict): 0 | 1 | 3 | 4 {
  if (v.outcome === 'error') return 1;
  if (v.outcome === 'in-sync') return 0;
  switch (v.correction?.result) {
    case 'corrected':
      return 0;
    case 'failed':
    case 'skipped':
      return 3;
    default:
      return 4;
  }
}

/** A correction that did not succeed: it fails the action's step (as a failed apply does) and exits 3. */
export const correctionFailed = (c: DriftCorrection | undefined): boolean =>
  c?.result === 'failed' || c?.result === 'skipped';

/**
 * Whether the cluster still differs from the package after the run: drifted and not corrected (never
 * corrected, held, left, or its correction failed). `fail-on-drift` fails the step on these.
 */
export function driftRemains(p: { drifted: boolean; correction?: DriftCorrection }): boolean {
  return p.drifted && p.correction?.result !== 'corrected';
}
