import { current, findCondition, inProgress, intField, readConditions } from '../fields.js';
import type { KindRule } from '../status-options.js';

/**
 * apps/ReplicaSet (and extensions/ReplicaSet), cli-utils `replicasetConditions`: `ReplicaFailure=True`
 * (pods cannot be created, e.g. quota) keeps it InProgress; otherwise labelled, available and ready
 * counts must reach `spec.replicas` and no extra pods may remain.
 */
export const replicaSetStatus: KindRule = (obj) => {
  if (findCondition(readConditions(obj), 'ReplicaFailure', 'True')) {
    return inProgress('ReplicaFailure', 'Replica Failure condition. Check Pods');
  }
  const spec = intField(obj, ['spec', 'replicas'], 1);
  const replicas = intField(obj, ['status', 'replicas'], 0);
  const ready = intField(obj, ['status', 'readyReplicas'], 0);
  const available = intField(obj, ['status', 'availableReplicas'], 0);
  const labelled = intField(obj, ['status', 'fullyLabeledReplicas'], 0);

  if (spec > labelled) return inProgress('LessLabelled', `Labelled: ${labelled}/${spec}`);
  if (spec > available) return inProgress('LessAvailable', `Available: ${available}/${spec}`);
  if (spec > ready) return inProgress('LessReady', `Ready: ${ready}/${spec}`);
  if (replicas > spec) return inProgress('ExtraPods', `Pending termination: ${replicas - spec}`);
  return current(`ReplicaSet is available. Replicas: ${replicas}`);
};
