import { current, inProgress, stringField } from '../fields.js';
import type { KindRule } from '../status-options.js';

/**
 * Service, cli-utils `serviceConditions`: only a LoadBalancer without a cluster IP waits. kstatus does not
 * wait for the load balancer's ingress (kapp does), so neither do we.
 */
export const serviceStatus: KindRule = (obj) => {
  const type = stringField(obj, ['spec', 'type'], 'ClusterIP');
  const clusterIP = stringField(obj, ['spec', 'clusterIP'], '');
  if (type === 'LoadBalancer' && clusterIP === '') {
    return inProgress('NoIPAssigned', 'ClusterIP not set. Service type: LoadBalancer');
  }
  return current('Service is ready');
};
