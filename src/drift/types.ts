import type { ObjectId } from '../common/object-id.js';
import type { FieldChange } from '../preview/types.js';
import type { KStatus } from '../status/types.js';

/** Why an object differs from what the package says (README: Drift). */
export type DriftKind = 'configure' | 'create' | 'prune' | 'status';

export const DriftKinds: readonly DriftKind[] = ['configure', 'create', 'prune', 'status'];

/** One drifted object, as `kpt-live drift --output json` and the action's `result` print it. */
export interface DriftObject {
  id: ObjectId;
  drift: DriftKind;
  /** configure: the fields apply would set back (Secret values redacted, as in previews). */
  changes?: FieldChange[];
  /** status drift: the object's kstatus (`Failed`, or what it was when the reconcile timeout passed). */
  status?: KStatus;
  /** status drift: kstatus' message; configure/prune: the preview's reason, when it gives one. */
  message?: string;
}

/**
 * What drift correction (`kpt-live drift --correct`, `drift-correct: true`) did with a drifted package:
 * - `corrected`: re-applied (the normal apply: lock, deploy record, pre-flight, ownership rule), successfully;
 * - `failed`: re-applied, and the apply failed (objects failed, timed out or were blocked, or it was
 *   refused before any write: the lock, the stale-commit guard);
 * - `skipped`: not started, because an earlier correction failed (the package loop's rule; `keep-going`
 *   goes on) or the run was cancelled;
 * - `held`: not re-applied: its last apply of the tree it has now failed or was rolled back (the hold
 *   catch-up keeps too); re-applying would repeat that failure;
 * - `left`: not re-applied: re-applying would change nothing (only status drift), or whether it is held
 *   cannot be known (its deploy history could not be read).
 */
export type CorrectionResult = 'corrected' | 'failed' | 'skipped' | 'held' | 'left';

/** One package's correction, as the JSON outputs carry it (`correction` of a drifted package). */
export interface DriftCorrection {
  result: CorrectionResult;
  /** failed: the apply's error, or how many objects failed; skipped, held, left: why it was not re-applied. */
  reason?: string;
  /** corrected, failed: the apply's counts (`created`, `configured`, `unchanged`, `pruned`, `skipped`, `failed`). */
  summary?: Record<string, number>;
  /** failed: `Kind/name: message` of each object that failed, timed out or was blocked. */
  failed?: string[];
}

/** One package's drift report: only drifted objects are listed. */
export interface DriftPackage {
  path: string;
  drifted: boolean;
  objects: DriftObject[];
  /** A fatal error (never applied, forbidden, dry-run rejected): the package could not be checked. */
  error?: string;
  /** With drift correction on, what it did with this drifted package (above). */
  correction?: DriftCorrection;
}

/** The whole report: `{"packages": [...]}`. */
export interface DriftDocument {
  packages: DriftPackage[];
}
