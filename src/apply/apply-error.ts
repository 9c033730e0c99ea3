import { KubeApiError, type StatusCause } from '../kube/api-error.js';
import { UnknownKindError } from '../kube/cluster-client.js';
import { isRetryable } from '../kube/retry.js';
import { immutableFields } from './update-strategy.js';

/** One field a server-side apply would take from another field manager (one cause of a 409). */
export interface FieldConflict {
  /** `.spec.replicas`, as the server names it. */
  field: string;
  manager: string;
  /** Set when that manager wrote the field through a subresource (`scale`, `status`). */
  subresource?: string;
  /** Update (a write such as `kubectl apply` client-side, Helm, `kubectl scale`) or Apply (server-side apply). */
  operation: 'Update' | 'Apply';
}

/**
 * The conflicts of a 409 answer to a server-side apply, one per field and manager. The server names the
 * manager in each cause: `conflict with "kubectl" using apps/v1` (an Update), `conflict with "helm"` (an
 * Apply), `conflict with "kube-controller-manager" with subresource "scale" using autoscaling/v1`.
 * Undefined for any other answer.
 */
export function fieldConflicts(err: unknown): FieldConflict[] | undefined {
  if (!(err instanceof KubeApiError) || !err.conflict || err.causes.length === 0) return undefined;
  const out: FieldConflict[] = [];
  for (const c of err.causes) {
    const m = /conflict with "((?:[^"\\]|\\.)*)"(?: with subresource "([^"]*)")?( using )?/.exec(
      c.message ?? '',
    );
    if (!m) continue;
    out.push({
      field: c.field ?? '?',
      manager: m[1],
      ...(m[2] ? { subresource: m[2] } : {}),
      operation: m[3] ? 'Update' : 'Apply',
    });
  }
  return out.length > 0 ? out : undefined;
}

/** A refusal from the API server that is about the object (conflict, invalid, forbidden): not retried. */
export class ApplyRejection extends KubeApiError {
  constructor(
    err: KubeApiError,
    message: string,
    readonly conflicts?: FieldConflict[],
  ) {
    super(err.code, err.reason, message, err.causes as StatusCause[], err.retryAfterSeconds);
    this.name = 'ApplyRejection';
  }
}

function describeManager(c: FieldConflict): string {
  const who = `"${c.manager}"`;
  if (c.subresource === 'scale')
    return `${who} through the scale subresource (an autoscaler or \`kubectl scale\` sets it)`;
  if (c.subresource) return `${who} through the ${c.subresource} subresource`;
  return c.operation === 'Update' ? `${who} (an update, not a server-side apply)` : who;
}

/** The conflict as a user reads it: each field with the manager that owns it, and the two ways out. */
export function conflictMessage(conflicts: FieldConflict[]): string {
  const parts = conflicts.map((c) => `${c.field} is owned by field manager ${describeManager(c)}`);
  const n = conflicts.length;
  return (
    `conflict: ${n} field${n === 1 ? '' : 's'} of the package ${n === 1 ? 'is' : 'are'} owned by another field manager: ` +
    `${parts.join('; ')}. Remove ${n === 1 ? 'that field' : 'those fields'} from the package (the other manager keeps ` +
    `${n === 1 ? 'it' : 'them'}), or take ${n === 1 ? 'it' : 'them'} over with force-conflicts (--force-conflicts)`
  );
}

/** Conflicts name the fields and the managers that own them, and the way out; immutable fields the fix too. */
export function explainApplyError(err: unknown): Error {
  if (err instanceof ApplyRejection) return err;
  const conflicts = fieldConflicts(err);
  if (conflicts && err instanceof KubeApiError)
    return new ApplyRejection(err, conflictMessage(conflicts), conflicts);
  const fields = immutableFields(err);
  if (fields && err instanceof KubeApiError) {
    return new ApplyRejection(
      err,
      `${err.message}. An immutable field changed: set the annotation kapp.k14s.io/update-strategy: fallback-on-replace ` +
        'to delete and re-create the object',
    );
  }
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Whether the server never judged the request: what retries could not get through (throttling, 5xx,
 * dropped connections). A 409, 422 or 403 is an answer, and so is a 500 for a manifest that server-side
 * apply cannot type.
 */
export function isUnanswered(err: unknown): boolean {
  if (err instanceof KubeApiError) return isRetryable(err);
  if (err instanceof UnknownKindError) return false;
  return true;
}
