import { getPath, isRecord, type KubeObject } from '../../common/kube-object.js';
import type { WorkloadKind } from './thresholds.js';

/** The Deployment controller's revision annotation, on a Deployment and on each of its ReplicaSets. */
export const RevisionAnnotation = 'deployment.kubernetes.io/revision';
/** The DaemonSet's template generation (apps/v1 keeps it in an annotation); its pods carry it as a label. */
export const DaemonSetTemplateGeneration = 'deprecated.daemonset.template.generation';
export const PodTemplateGenerationLabel = 'pod-template-generation';
/** The ControllerRevision a StatefulSet's pod was made from (`status.updateRevision` for the new ones). */
export const ControllerRevisionHashLabel = 'controller-revision-hash';

/** The uid of the object's controller (the owner reference with `controller: true`). */
export function controllerUid(obj: KubeObject): string | undefined {
  const refs = obj.metadata.ownerReferences;
  if (!Array.isArray(refs)) return undefined;
  const ref = refs.find((r) => isRecord(r) && r.controller === true);
  return isRecord(ref) && typeof ref.uid === 'string' ? ref.uid : undefined;
}

/** True once the controller has seen the latest spec, so the revision it reports is this spec's. */
function observedLatest(obj: KubeObject): boolean {
  const generation = obj.metadata.generation;
  const observed = getPath(obj, ['status', 'observedGeneration']);
  return typeof generation === 'number' && observed === generation;
}

/** Objects by the uid of their controller, so each workload finds its pods without a scan of all. */
export function byController(objs: readonly KubeObject[]): Map<string, KubeObject[]> {
  const index = new Map<string, KubeObject[]>();
  for (const o of objs) {
    const uid = controllerUid(o);
    if (!uid) continue;
    const list = index.get(uid);
    if (list) list.push(o);
    else index.set(uid, [o]);
  }
  return index;
}

/**
 * The pods of the workload's current rollout, or undefined while that is not known yet (the controller has
 * not observed the latest spec, or not yet made the new ReplicaSet). Pods of earlier revisions never count:
 * an old ReplicaSet's crash-looping pods are what a rollout replaces.
 *
 * - Deployment: the pods of its ReplicaSet whose revision annotation is the Deployment's.
 * - StatefulSet: its pods labelled with `status.updateRevision`.
 * - DaemonSet: its pods labelled with the DaemonSet's template generation (the controller's own test for an
 *   updated pod, without reading ControllerRevisions).
 * - Job: all its pods (a Job has one template).
 */
export function currentRolloutPods(
  workload: KubeObject,
  kind: WorkloadKind,
  podsByController: ReadonlyMap<string, readonly KubeObject[]>,
  replicaSets: readonly KubeObject[],
): readonly KubeObject[] | undefined {
  const podsOf = (owner: string | undefined) => (owner ? (podsByController.get(owner) ?? []) : []);
  const uid = workload.metadata.uid;
  if (!uid) return undefined;
  if (kind === 'Job') return podsOf(uid);
  if (!observedLatest(workload)) return undefined;
  switch (kind) {
    case 'Deployment': {
      const revision = workload.metadata.annotations?.[RevisionAnnotation];
      if (!revision) return undefined;
      const rs = replicaSets.find(
        (r) => controllerUid(r) === uid && r.metadata.annotations?.[RevisionAnnotation] === revision,
      );
      return rs ? podsOf(rs.metadata.uid) : undefined;
    }
    case 'StatefulSet': {
      const revision = getPath(workload, ['status', 'updateRevision']);
      if (typeof revision !== 'string' || !revision) return undefined;
      return podsOf(uid).filter((p) => p.metadata.labels?.[ControllerRevisionHashLabel] === revision);
    }
    case 'DaemonSet': {
      const generation = workload.metadata.annotations?.[DaemonSetTemplateGeneration];
      if (!generation) return undefined;
      return podsOf(uid).filter((p) => p.metadata.labels?.[PodTemplateGenerationLabel] === generation);
    }
  }
}
