import { current, inProgress, stringField } from '../fields.js';
import type { KindRule } from '../status-options.js';

/** PersistentVolumeClaim, cli-utils `pvcConditions`: Current only once Bound to a volume. */
export const pvcStatus: KindRule = (obj) => {
  const phase = stringField(obj, ['status', 'phase'], 'unknown');
  if (phase !== 'Bound') return inProgress('NotBound', `PVC is not Bound. phase: ${phase}`);
  return current('PVC is Bound');
};
