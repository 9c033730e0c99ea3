import { idKey, type ObjectId, shortName } from '../common/object-id.js';
import { applySkip, decideObject, missingPrerequisite } from './decide-object.js';
import { runOrdered } from './run-ordered.js';
import type { RunState } from './run-state.js';

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
    if (missingPrerequisite(state, id) || applySkip(state, id)) return false;
    const key = idKey(id);
    if (state.options.preflight !== 'auto' || !firstWave.has(key) || state.live.get(key)) return true;
    const kindNs = `${id.group}/${id.kind}/${id.namespace}`;
    if (sampled.has(kindNs)) return false;
    sampled.add(kindNs);
    return true;
  });
}

/**
 * Before the first write: the decision apply takes (decideObject), as a dry-run, for preflightIds. An
 * object it decides is an error stops the run with nothing changed; an unchanged one is not sent again.
 */
export async function preflight(state: RunState): Promise<PreflightRejection[]> {
  const rejections: PreflightRejection[] = [];
  await runOrdered(
    preflightIds(state),
    state.options.concurrency,
    (id) => decideObject(state, id, { write: false }),
    (id, d) => {
      if (d?.action === 'error')
        rejections.push({ id, message: d.reason ?? 'rejected', unanswered: d.unanswered });
      // what the pre-flight decided for each existing object: apply skips an unchanged one, the
      // reviewed-plan comparison reads them all
      else if (d?.object && state.live.get(idKey(id)))
        state.preflight.set(idKey(id), { object: d.object, unchanged: d.action === 'unchanged' });
    },
  );
  return rejections;
}

export function formatRejections(state: RunState, rejections: PreflightRejection[]): string {
  const line = (r: PreflightRejection) => {
    const src = state.sources.get(idKey(r.id));
    return `- ${src ? `${src.file}:${src.line}: ` : ''}${shortName(r.id)}: ${r.message}`;
  };
  const judged = rejections.filter((r) => !r.unanswered);
  const unanswered = rejections.filter((r) => r.unanswered);
  const parts: string[] = [];
  if (judged.length > 0)
    parts.push(
      `pre-flight server-side dry-run rejected ${judged.length} object(s); nothing was changed:\n${judged.map(line).join('\n')}`,
    );
  if (unanswered.length > 0)
    parts.push(
      `pre-flight server-side dry-run could not complete for ${unanswered.length} object(s) (the API server did not answer, after retries); nothing was changed:\n${unanswered.map(line).join('\n')}`,
    );
  return parts.join('\n');
}
