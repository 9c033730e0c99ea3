import { splitApiVersion } from '../common/kube-object.js';
import { KubeApiError } from '../kube/api-error.js';
import { isRetryable } from '../kube/retry.js';
import { idKey, type ObjectId, shortName } from '../plan/object-id.js';
import { dependenciesOf } from '../plan/plan.js';
import { applyObject, explainApplyError } from './apply-object.js';
import { applySkipReason } from './apply-wave.js';
import { isNoOpApply } from './no-op-apply.js';
import { runOrdered } from './run-ordered.js';
import type { RunState } from './run-state.js';
import { immutableFields, type UpdateStrategy, updateStrategyOf } from './update-strategy.js';

/**
 * The Namespace or CRD that this package creates and that does not exist yet, which a server-side dry-run
 * of `id` would trip over; undefined when the dry-run can be trusted now.
 */
export function missingPrerequisite(state: RunState, id: ObjectId): ObjectId | undefined {
  for (const dep of dependenciesOf(state.plan, id)) {
    const isNamespace = dep.group === '' && dep.kind === 'Namespace';
    const isCrd = dep.group === 'apiextensions.k8s.io' && dep.kind === 'CustomResourceDefinition';
    if ((isNamespace || isCrd) && state.manifests.has(idKey(dep)) && !state.live.get(idKey(dep))) return dep;
  }
  return undefined;
}

export interface PreflightRejection {
  id: ObjectId;
  message: string;
  /** The server never judged it (network, 5xx, throttling after retries): the pre-flight could not run. */
  unanswered?: boolean;
}

/**
 * What the pre-flight dry-runs: every object the server can judge now (not those whose Namespace or CRD
 * this package creates: they are checked when their wave comes); under `auto`, of the first wave's new
 * objects only the first of each kind and namespace.
 */
export function preflightIds(state: RunState): ObjectId[] {
  const firstWave = new Set((state.plan.applyWaves[0] ?? []).map(idKey));
  const sampled = new Set<string>();
  return state.plan.applyWaves.flat().filter((id) => {
    if (missingPrerequisite(state, id) || applySkipReason(state, id)) return false;
    const key = idKey(id);
    if (state.options.preflight !== 'auto' || !firstWave.has(key) || state.live.get(key)) return true;
    const kindNs = `${id.group}/${id.kind}/${id.namespace}`;
    if (sampled.has(kindNs)) return false;
    sampled.add(kindNs);
    return true;
  });
}

/**
 * Before the first write: a server-side dry-run of preflightIds. Any rejection stops the run with nothing
 * changed.
 */
export async function preflight(state: RunState): Promise<PreflightRejection[]> {
  const ids = preflightIds(state);
  const rejections: PreflightRejection[] = [];
  await runOrdered(
    ids,
    state.options.concurrency,
    async (id) => {
      const key = idKey(id);
      const manifest = state.manifests.get(key)!;
      if (!(await state.client.resolve(manifest.apiVersion, manifest.kind))) {
        const { group } = splitApiVersion(manifest.apiVersion);
        const crdInPackage = [...state.manifests.values()].some(
          (m) =>
            m.kind === 'CustomResourceDefinition' &&
            (m.spec as { group?: string } | undefined)?.group === group,
        );
        return crdInPackage
          ? undefined
          : `unknown kind ${manifest.kind} (${manifest.apiVersion}): not served by the cluster`;
      }
      let strategy: UpdateStrategy;
      try {
        strategy = updateStrategyOf(manifest, state.options.defaultUpdateStrategy);
      } catch (err) {
        return (err as Error).message;
      }
      const live = state.live.get(key);
      // an existing object that is never updated, or always re-created, has nothing to dry-run as an update
      if (live && (strategy === 'skip' || strategy === 'always-replace')) return undefined;
      try {
        const { object } = await applyObject(state.client, manifest, live, {
          fieldManager: state.options.fieldManager,
          force: state.options.forceConflicts,
          dryRun: true,
        });
        if (live) state.preflightDryRuns.set(key, object);
        if (live && isNoOpApply(live, object, state.options.fieldManager))
          state.preflightUnchanged.set(key, object);
        return undefined;
      } catch (err) {
        if (live && strategy === 'fallback-on-replace' && immutableFields(err)) return undefined;
        // what retries could not get through (throttling, 5xx, dropped connections); a 500 for a manifest
        // that server-side apply cannot type is a real rejection
        const unanswered = isRetryable(err) || !(err instanceof KubeApiError);
        return { message: explainApplyError(err).message, unanswered };
      }
    },
    (id, answer) => {
      if (typeof answer === 'string') rejections.push({ id, message: answer });
      else if (answer) rejections.push({ id, ...answer });
    },
  );
  return rejections;
}

export function formatRejections(state: RunState, rejections: PreflightRejection[]): string {
  const lines = rejections.map((r) => {
    const src = state.sources.get(idKey(r.id));
    return `- ${src ? `${src.file}:${src.line}: ` : ''}${shortName(r.id)}: ${r.message}`;
  });
  if (rejections.every((r) => r.unanswered)) {
    return `pre-flight server-side dry-run could not complete (the API server did not answer); nothing was changed:\n${lines.join('\n')}`;
  }
  return `pre-flight server-side dry-run rejected ${rejections.length} object(s); nothing was changed:\n${lines.join('\n')}`;
}
