import { Annotations } from '../common/constants.js';
import { idKey, type ObjectId } from '../common/object-id.js';
import type { PreviewDocument, PreviewObject } from '../preview/types.js';
import type { KStatus } from '../status/types.js';
import type { DriftObject } from './types.js';

/** An object's health once drift stopped waiting for it (the reconcile timeout passed, or it settled). */
export interface StatusVerdict {
  id: ObjectId;
  status: KStatus;
  message: string;
}

/** The preview actions that leave an object in the cluster as the package has it. */
const KEPT = new Set(['unchanged', 'configure', 'replace', 'skip']);

/**
 * Drift from a preview and the objects' health, object by object (pure). The preview decides what apply
 * would change (create, configure, prune: the same decision apply makes); health is read only for
 * objects that stay as they are. An object is listed once, with the first of create, prune, configure,
 * status that holds; a configured object that is also unhealthy carries its status too.
 *
 * Not drift: a configure that only moves field ownership (no value differs), a replace forced by
 * `kapp.k14s.io/update-strategy: always-replace` (every apply replaces it), objects skipped or orphaned
 * by choice, inventory entries already gone from the cluster. Preview errors are not classified here:
 * `previewErrors` lists them (the package could not be checked).
 */
export function classifyDrift(preview: PreviewDocument, statuses: readonly StatusVerdict[]): DriftObject[] {
  const health = new Map(statuses.map((s) => [idKey(s.id), s]));
  const out: DriftObject[] = [];
  for (const o of preview.objects) {
    const drift = previewDrift(o);
    const h = KEPT.has(o.action) ? unhealthy(health.get(idKey(o.id))) : undefined;
    if (drift) {
      out.push(h && drift.drift === 'configure' ? { ...drift, status: h.status, message: h.message } : drift);
    } else if (h) {
      out.push({ id: o.id, drift: 'status', status: h.status, message: h.message });
    }
  }
  return out;
}

/** What the preview says apply would change, as drift; undefined when apply would leave it alone. */
function previewDrift(o: PreviewObject): DriftObject | undefined {
  switch (o.action) {
    case 'create':
      return { id: o.id, drift: 'create' };
    case 'prune':
      return { id: o.id, drift: 'prune', ...(o.reason ? { message: o.reason } : {}) };
    case 'configure':
      // with the hand edits apply reverts, naming who made them
      return o.changes?.length
        ? {
            id: o.id,
            drift: 'configure',
            changes: o.changes,
            ...(o.ownership?.length ? { message: o.ownership.join('; ') } : {}),
          }
        : undefined;
    case 'replace':
      return o.reason?.includes(`${Annotations.KappUpdateStrategy}: always-replace`)
        ? undefined
        : { id: o.id, drift: 'configure', ...(o.reason ? { message: o.reason } : {}) };
    default:
      return undefined;
  }
}

/** A verdict that counts as drift: Failed, or anything but Current once the wait is over (gone: not here). */
function unhealthy(v: StatusVerdict | undefined): StatusVerdict | undefined {
  if (!v || v.status === 'Current' || v.status === 'NotFound') return undefined;
  return v;
}

/** The objects the server refused to dry-run: the package's drift cannot be known (a fatal error). */
export function previewErrors(preview: PreviewDocument): PreviewObject[] {
  return preview.objects.filter((o) => o.action === 'error');
}
