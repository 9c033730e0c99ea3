import { current, failed, inProgress, readConditions } from '../fields.js';
import type { KindRule } from '../status-options.js';

/**
 * apiextensions.k8s.io/CustomResourceDefinition, cli-utils `CRDConditions`: Current once `Established`;
 * Failed when its names clash (`NamesAccepted=False`) or it is not established for a reason other than
 * still installing; otherwise InProgress. Conditions are read in list order, the first decisive one wins.
 */
export const crdStatus: KindRule = (obj) => {
  for (const c of readConditions(obj)) {
    if (c.type === 'NamesAccepted' && c.status === 'False') return failed(c.reason, c.message);
    if (c.type === 'Established') {
      if (c.status === 'False' && c.reason !== 'Installing') return failed(c.reason, c.message);
      if (c.status === 'True') return current('CRD is established');
    }
  }
  return inProgress('Installing', 'Install in progress');
};
