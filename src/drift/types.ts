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

/** One package's drift report: only drifted objects are listed. */
export interface DriftPackage {
  path: string;
  drifted: boolean;
  objects: DriftObject[];
  /** A fatal error (never applied, forbidden, dry-run rejected): the package could not be checked. */
  error?: string;
}

/** The whole report: `{"packages": [...]}`. */
export interface DriftDocument {
  packages: DriftPackage[];
}
