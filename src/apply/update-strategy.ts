import { Annotations } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import { idOf } from '../common/object-id.js';
import { KubeApiError } from '../kube/api-error.js';
import type { ClusterClient } from '../kube/cluster-client.js';

/**
 * kapp's `kapp.k14s.io/update-strategy` (same names, so kapp users recognise them):
 * - `` plain apply;
 * - `fallback-on-replace`: when the server rejects the update because an immutable field changed (a Job's
 *   template, a Service's clusterIP, a Deployment's selector), delete the object, wait until it is gone, and
 *   create it again;
 * - `always-replace`: delete then create on every apply (a new UID each time);
 * - `skip`: never update an existing object (it is still created when missing).
 */
export type UpdateStrategy = '' | 'fallback-on-replace' | 'always-replace' | 'skip';
export const UpdateStrategies: readonly UpdateStrategy[] = [
  '',
  'fallback-on-replace',
  'always-replace',
  'skip',
];

/** The object's strategy (its annotation, else the run's default); throws on an unknown value. */
export function updateStrategyOf(manifest: KubeObject, defaultStrategy: UpdateStrategy): UpdateStrategy {
  const value = manifest.metadata.annotations?.[Annotations.KappUpdateStrategy];
  if (value === undefined) return defaultStrategy;
  if ((UpdateStrategies as readonly string[]).includes(value)) return value as UpdateStrategy;
  throw new Error(
    `invalid ${Annotations.KappUpdateStrategy} "${value}" (accepted: "", fallback-on-replace, always-replace, skip)`,
  );
}

/** The immutable fields an Invalid answer names (`spec.selector`), or undefined when the rejection is not about them. */
export function immutableFields(err: unknown): string[] | undefined {
  if (!(err instanceof KubeApiError) || !err.invalid) return undefined;
  const immutable = /field is immutable|may not change once set|is immutable/i;
  const fromCauses = err.causes.filter((c) => immutable.test(c.message ?? '')).map((c) => c.field ?? '');
  if (fromCauses.length > 0) return fromCauses.filter(Boolean);
  return immutable.test(err.message) ? [] : undefined;
}

/**
 * Deletes an object (propagation Foreground, so a Job's pods go with it instead of being orphaned) and
 * waits until that UID is gone, so the create that follows makes a new object.
 */
export async function deleteForReplace(
  client: ClusterClient,
  live: KubeObject,
  timeoutMs: number,
): Promise<void> {
  const ref = { ...idOf(live), apiVersion: live.apiVersion };
  await client.delete(ref, { uid: live.metadata.uid, propagationPolicy: 'Foreground' });
  const deadline = Date.now() + (timeoutMs > 0 ? timeoutMs : 5 * 60_000);
  for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
    const current = await client.get(ref);
    if (!current || current.metadata.uid !== live.metadata.uid) return;
    if (Date.now() > deadline)
      throw new Error(`replace: ${live.kind}/${live.metadata.name} was not deleted in time (finalizers?)`);
    await new Promise((r) => setTimeout(r, delay));
  }
}
