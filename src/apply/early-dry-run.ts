import type { KubeObject } from '../common/kube-object.js';
import { compareIds, idKey, type ObjectId } from '../common/object-id.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { withoutDependencies } from '../plan/dependency-graph.js';
import type { RunOptions } from './run-options.js';

/**
 * The pre-flight's dry-runs of new objects, sent while the live state is still being read instead of one
 * round trip after it. A dry-run request does not depend on the live state (only what the pre-flight makes
 * of its answer does), so the answer is the one the pre-flight would get; `take` hands it over once, for
 * the very manifest that was sent. An answer nobody takes (the pre-flight skipped the object, or proved it
 * unchanged without asking) changed nothing: it was a dry-run.
 */
export interface EarlyDryRuns {
  /** The answer sent for `manifest` (the same object), once; undefined when none was sent for it. */
  take(key: string, manifest: KubeObject): Promise<KubeObject> | undefined;
}

/**
 * Sends the dry-runs the pre-flight is sure to send in a first apply (none when the pre-flight is off): the
 * first new object of each kind and namespace in the first wave (preflightIds' sample), new meaning not in the
 * cluster's inventory, whose read `known` ends first. Objects the inventory lists are left to the
 * pre-flight (a re-apply proves most of them unchanged with no request at all).
 */
export function startEarlyDryRuns(
  client: ClusterClient,
  manifests: ReadonlyMap<string, KubeObject>,
  known: Promise<ObjectId[]>,
  options: Pick<RunOptions, 'fieldManager' | 'forceConflicts' | 'preflight'>,
): EarlyDryRuns {
  const sent = new Map<string, { manifest: KubeObject; answer: Promise<KubeObject> }>();
  const send = (ids: ObjectId[]) => {
    const listed = new Set(ids.map(idKey));
    for (const key of sampleKeys(manifests)) {
      if (listed.has(key)) continue;
      const manifest = manifests.get(key)!;
      const answer = client.apply(manifest, {
        fieldManager: options.fieldManager,
        force: options.forceConflicts,
        dryRun: true,
      });
      answer.catch(() => {}); // the pre-flight that takes it handles the rejection
      sent.set(key, { manifest, answer });
    }
  };
  // a failed inventory read is the run's to report; without early answers the pre-flight asks itself
  if (options.preflight !== 'off') known.then(send).catch(() => {});
  return {
    take(key, manifest) {
      const s = sent.get(key);
      if (!s || s.manifest !== manifest) return undefined;
      sent.delete(key);
      return s.answer;
    },
  };
}

/**
 * The first object of each kind and namespace in the first wave, as preflightIds samples them (a wave is
 * ordered by kind, then by id), read from the objects alone: the plan is built once the live state is in.
 */
function sampleKeys(manifests: ReadonlyMap<string, KubeObject>): string[] {
  const first = new Map<string, ObjectId>();
  for (const id of withoutDependencies([...manifests.values()])) {
    const kindNs = `${id.group}/${id.kind}/${id.namespace}`;
    const seen = first.get(kindNs);
    if (!seen || compareIds(id, seen) < 0) first.set(kindNs, id);
  }
  return [...first.values()].map(idKey);
}
