import { Annotations } from '../common/constants.js';
import { cloneJson, isRecord, type KubeObject } from '../common/kube-object.js';

/** Metadata the API server writes on every object; a reviewer never asked for any of it. */
const SERVER_METADATA = [
  'managedFields',
  'resourceVersion',
  'generation',
  'uid',
  'creationTimestamp',
  'selfLink',
];

/** Annotations that tools write as a side effect of applying (they would change on every run). */
const NOISY_ANNOTATIONS = [Annotations.LastApplied, 'deployment.kubernetes.io/revision'];

/**
 * A copy of `obj` without the fields that change on every write or that controllers own (`status`), so a
 * diff of live against desired shows only what the user's manifest changes. Fields a user can set or see
 * in their manifest (including `deletionGracePeriodSeconds` and `deletionTimestamp`) are kept. An
 * `annotations` map left empty is removed, so "no annotations" and "only noisy annotations" compare equal.
 */
export function stripNoise(obj: KubeObject): KubeObject {
  const copy = cloneJson(obj);
  delete copy.status;
  const meta = copy.metadata;
  if (!isRecord(meta)) return copy;
  for (const field of SERVER_METADATA) delete meta[field];
  if (isRecord(meta.annotations)) {
    for (const key of NOISY_ANNOTATIONS) delete meta.annotations[key];
    if (Object.keys(meta.annotations).length === 0) delete meta.annotations;
  }
  return copy;
}
