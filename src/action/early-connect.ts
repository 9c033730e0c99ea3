import type { EarlyConnection } from '../kube/early-connection.js';
import { connectEarly } from './cluster-access.js';
import { parseInputs } from './inputs.js';

/**
 * The first thing the action does, before the rest of it loads: when this run will talk to the cluster (a
 * `kubeconfig` input, a mode other than resolve and drift), start connecting, so the first request's round
 * trip overlaps loading the program, reading the event and selecting the packages. Inputs that do not parse
 * start nothing: the action reports them once it has loaded.
 */
export function connectAtStart(): EarlyConnection | undefined {
  try {
    const inputs = parseInputs();
    if (inputs.mode === 'resolve' || inputs.mode === 'drift' || !inputs.kubeconfig) return undefined;
    return connectEarly(inputs.kubeconfig, inputs.context);
  } catch {
    return undefined;
  }
}
