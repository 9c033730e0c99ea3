import type { KubeObject } from '../common/kube-object.js';
import { KubeApiError } from '../kube/api-error.js';
import type { ClusterClient, ObjectRef } from '../kube/cluster-client.js';
import { upgradedManagedFields } from './client-side-takeover.js';

/** How many times the takeover is sent, each time from a fresh read, before its failure is the object's. */
export const TakeoverAttempts = 5;

/**
 * Moves the fields a client-side apply manager owns to our field manager (kubectl's csaupgrade): one JSON
 * patch of `managedFields`, sent only if the object still has the resourceVersion they were computed from.
 * A controller that writes the object in between (a Deployment's status, an autoscaler's replicas) makes that
 * test fail; the API server then answers 422 Invalid. So the object is read again and the fields computed
 * from what it holds now, as kubectl does, up to TakeoverAttempts times (then a 409 Conflict that says so).
 * Nothing is sent when the object no longer needs a takeover. A 422 while the resourceVersion stayed the same
 * is a real refusal and is thrown as it is.
 */
export async function takeOverClientSideFields(
  client: ClusterClient,
  ref: ObjectRef,
  live: KubeObject,
  fieldManager: string,
): Promise<void> {
  let current = live;
  for (let attempt = 1; ; attempt++) {
    const upgraded = upgradedManagedFields(current, fieldManager);
    if (!upgraded) return;
    try {
      await client.jsonPatch(ref, [
        { op: 'test', path: '/metadata/resourceVersion', value: current.metadata.resourceVersion },
        { op: 'replace', path: '/metadata/managedFields', value: upgraded },
      ]);
      return;
    } catch (err) {
      if (!(err instanceof KubeApiError) || (err.code !== 422 && err.code !== 409)) throw err;
      const fresh = await client.get(ref);
      if (!fresh || fresh.metadata.resourceVersion === current.metadata.resourceVersion) throw err;
      if (attempt >= TakeoverAttempts) {
        throw new KubeApiError(
          409,
          'Conflict',
          `${ref.kind} ${ref.name} changed under each of ${TakeoverAttempts} attempts to move its fields from ` +
            'client-side apply to server-side apply (another writer updates it all the time): apply again',
        );
      }
      current = fresh;
    }
  }
}
