import type { KubeObject } from '../common/kube-object.js';
import { diffObjects, type ObjectDiff } from './diff.js';
import { collectSecretValues } from './redact.js';

/**
 * The Secret values no diff of a run may show: those of the package's objects and of the live objects
 * (a Secret's old value is as secret as its new one).
 */
export function runSecretValues(
  manifests: Iterable<KubeObject>,
  live: Iterable<KubeObject | null>,
): string[] {
  return collectSecretValues([...manifests, ...[...live].map((o) => o ?? undefined)]);
}

/**
 * What applying changes on an existing object: the live object against the server's answer to the
 * (dry-run) apply, fields the apply removes included, Secret values redacted. The preview shows it; the
 * pre-flight's plan hashes it (plan-drift): one diff, so the two cannot disagree.
 */
export function configureDiff(
  live: KubeObject,
  answer: KubeObject,
  secretValues: readonly string[],
): ObjectDiff {
  return diffObjects(live, answer, { secretValues, reportRemovals: true });
}
