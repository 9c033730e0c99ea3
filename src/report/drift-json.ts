import type { DriftDocument, DriftObject, DriftPackage } from '../drift/types.js';
import type { DriftRunResult } from '../pipeline/drift-package.js';

/**
 * One package's entry of the drift document (`kpt-live drift --output json`, the action's `result` in
 * drift mode): `{path, drifted, objects}`, only drifted objects, each `{id, drift, changes?, status?,
 * message?}`; `error` when the package could not be checked; `correction` (`{result, reason?, summary?,
 * failed?}`) when drift correction was on and the package drifted.
 */
export function driftPackageJson(r: DriftRunResult): DriftPackage {
  return {
    path: r.path,
    drifted: r.outcome === 'drifted',
    objects: r.objects.map(driftObjectJson),
    ...(r.error ? { error: r.error } : {}),
    ...(r.correction ? { correction: r.correction } : {}),
  };
}

function driftObjectJson(o: DriftObject): DriftObject {
  return {
    id: { group: o.id.group, kind: o.id.kind, namespace: o.id.namespace, name: o.id.name },
    drift: o.drift,
    ...(o.changes?.length ? { changes: o.changes } : {}),
    ...(o.status ? { status: o.status } : {}),
    ...(o.message ? { message: o.message } : {}),
  };
}

export function driftDocument(results: readonly DriftRunResult[]): DriftDocument {
  return { packages: results.map(driftPackageJson) };
}
