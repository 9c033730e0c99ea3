import type { KubeObject } from '../common/kube-object.js';
import { jsonEqual } from './diff-fields.js';

/**
 * Whether an apply would rewrite field ownership even though no field value changes (another manager's
 * fields move to ours, or ours change). The server then writes the object (new resourceVersion), so
 * preview must call it "configure" to predict what apply reports. Timestamps are ignored.
 */
export function managedFieldsChange(live: KubeObject, dryRun: KubeObject): boolean {
  const norm = (o: KubeObject) =>
    ((o.metadata.managedFields ?? []) as Record<string, unknown>[])
      .map(({ time: _t, ...rest }) => rest)
      .sort(
        (a, b) =>
          String(a.manager).localeCompare(String(b.manager)) ||
          String(a.operation).localeCompare(String(b.operation)),
      );
  return !jsonEqual(norm(live), norm(dryRun));
}
