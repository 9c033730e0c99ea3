import { jsonEqual } from '../common/json-equal.js';
import type { KubeObject } from '../common/kube-object.js';
import { takeoverManagers } from './client-side-takeover.js';

/** The object without what a no-op apply may still report differently (managedFields timestamps, type). */
function comparable(obj: KubeObject): unknown {
  const { apiVersion: _v, kind: _k, ...rest } = obj;
  const managedFields = (obj.metadata.managedFields as Record<string, unknown>[] | undefined)?.map(
    ({ time: _t, ...entry }) => entry,
  );
  return { ...rest, metadata: { ...obj.metadata, managedFields } };
}

/**
 * Whether the server-side dry-run of an apply returned the live object unchanged, so the real apply would
 * be a no-op the server skips (same resourceVersion): the pre-flight's answer saves that request. A dry-run
 * never bumps resourceVersion, so the whole object is compared (managedFields timestamps aside); an object
 * whose client-side field managers we would first take over is never a no-op.
 */
export function isNoOpApply(live: KubeObject, dryRun: KubeObject): boolean {
  if (takeoverManagers(live).size > 0) return false;
  return jsonEqual(comparable(live), comparable(dryRun));
}
