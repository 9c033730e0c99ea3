import { connectAhead, type EarlyConnection } from '../kube/early-connection.js';
import { connectCluster } from './cluster-access.js';
import { parseInputs } from './inputs.js';

/**
 * The first thing the action does, before the rest of it loads: when this run will talk to the cluster (a
 * `kubeconfig` input, a mode other than resolve and drift), start connecting, so the first request's round
 * trip overlaps loading the program, reading the event and selecting the packages (a run whose change
 * touches no package closes it unused). Only with a `kubeconfig` input: a run that touches no package must
 * not need the cluster (a fork's pull request has no secrets). Inputs that do not parse start nothing: the
 * action reports them once it has loaded.
 */
export function connectAtStart(): EarlyConnection | undefined {
  try {
    const inputs = parseInputs();
    if (inputs.mode === 'resolve' || inputs.mode === 'drift' || !inputs.kubeconfig) return undefined;
    return connectAhead(connectCluster(inputs.kubeconfig, inputs.context));
  } catch {
    return undefined;
  }
}
