import { current, failed, inProgress, intField, readConditions } from '../fields.js';
import type { KindRule } from '../status-options.js';

/** The controller's "no deadline" value: without `progressDeadlineSeconds` no Progressing condition is set. */
const NO_PROGRESS_DEADLINE = 2_147_483_647;

/**
 * apps/Deployment (and extensions/Deployment), cli-utils `deploymentConditions`: a passed progress
 * deadline is Failed; otherwise every replica count must match `spec.replicas` and the Deployment must
 * report its new ReplicaSet available and itself `Available=True`.
 */
export const deploymentStatus: KindRule = (obj) => {
  let progressing =
    intField(obj, ['spec', 'progressDeadlineSeconds'], NO_PROGRESS_DEADLINE) === NO_PROGRESS_DEADLINE;
  let available = false;
  for (const c of readConditions(obj)) {
    if (c.type === 'Progressing') {
      if (c.reason === 'ProgressDeadlineExceeded') return failed(c.reason, 'Progress deadline exceeded');
      if (c.status === 'True' && c.reason === 'NewReplicaSetAvailable') progressing = true;
    } else if (c.type === 'Available' && c.status === 'True') {
      available = true;
    }
  }

  const spec = intField(obj, ['spec', 'replicas'], 1);
  const replicas = intField(obj, ['status', 'replicas'], 0);
  const updated = intField(obj, ['status', 'updatedReplicas'], 0);
  const ready = intField(obj, ['status', 'readyReplicas'], 0);
  const availableReplicas = intField(obj, ['status', 'availableReplicas'], 0);

  if (spec > replicas) return inProgress('LessReplicas', `Replicas: ${replicas}/${spec}`);
  if (spec > updated) return inProgress('LessUpdated', `Updated: ${updated}/${spec}`);
  if (replicas > spec) return inProgress('ExtraPods', `Pending termination: ${replicas - spec}`);
  if (updated > availableReplicas) {
    return inProgress('LessAvailable', `Available: ${availableReplicas}/${updated}`);
  }
  if (spec > ready) return inProgress('LessReady', `Ready: ${ready}/${spec}`);
  if (!progressing) return inProgress('ReplicaSetNotAvailable', 'ReplicaSet not Available');
  if (!available) return inProgress('DeploymentNotAvailable', 'Deployment not Available');
  return current(`Deployment is available. Replicas: ${replicas}`);
};
