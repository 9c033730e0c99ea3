import { current, inProgress, intField, stringField } from '../fields.js';
import type { KindRule } from '../status-options.js';

/**
 * apps/StatefulSet, cli-utils `stsConditions`. The controller sets no conditions, so status comes from
 * the counts: an OnDelete StatefulSet is user-managed (Current at once); a partitioned rollout is done
 * when the pods above the partition are updated; otherwise all replicas must be current and the
 * current revision must equal the update revision.
 */
export const statefulSetStatus: KindRule = (obj) => {
  if (stringField(obj, ['spec', 'updateStrategy', 'type'], '') === 'OnDelete') {
    return current('StatefulSet is using the ondelete update strategy');
  }
  const spec = intField(obj, ['spec', 'replicas'], 1);
  const ready = intField(obj, ['status', 'readyReplicas'], 0);
  const currentReplicas = intField(obj, ['status', 'currentReplicas'], 0);
  const updated = intField(obj, ['status', 'updatedReplicas'], 0);
  const replicas = intField(obj, ['status', 'replicas'], 0);
  const partition = intField(obj, ['spec', 'updateStrategy', 'rollingUpdate', 'partition'], -1);

  if (spec > replicas) return inProgress('LessReplicas', `Replicas: ${replicas}/${spec}`);
  if (spec > ready) return inProgress('LessReady', `Ready: ${ready}/${spec}`);
  if (replicas > spec) return inProgress('ExtraPods', `Pending termination: ${replicas - spec}`);
  if (partition !== -1) {
    if (updated < spec - partition) {
      return inProgress('PartitionRollout', `updated: ${updated}/${spec - partition}`);
    }
    return current(`Partition rollout complete. updated: ${updated}`);
  }
  if (spec > currentReplicas) return inProgress('LessCurrent', `current: ${currentReplicas}/${spec}`);
  const currentRevision = stringField(obj, ['status', 'currentRevision'], '');
  const updateRevision = stringField(obj, ['status', 'updateRevision'], '');
  if (currentRevision !== updateRevision) {
    return inProgress('RevisionMismatch', 'Waiting for updated revision to match current');
  }
  return current(`All replicas scheduled as expected. Replicas: ${replicas}`);
};
