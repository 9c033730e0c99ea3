import { idKey, type ObjectId, shortName } from '../common/object-id.js';
import type { RunState } from './run-state.js';

export interface PreflightRejection {
  id: ObjectId;
  message: string;
  /** The server never judged it (network, 5xx, throttling after retries): the pre-flight could not run. */
  unanswered?: boolean;
}

/**
 * What the pre-flight walk refuses: every package object it decided is an error (rejected by the server's
 * dry-run, an unknown kind, an object being deleted). None under `preflight: off`: each object is then
 * judged by its own write.
 */
export function preflightRejections(pre: RunState): PreflightRejection[] {
  if (pre.options.preflight === 'off') return [];
  const out: PreflightRejection[] = [];
  for (const id of pre.plan.applyWaves.flat()) {
    const d = pre.decisions.get(idKey(id));
    if (d?.action === 'error') out.push({ id, message: d.reason ?? 'rejected', unanswered: d.unanswered });
  }
  return out;
}

export function formatRejections(state: Pick<RunState, 'sources'>, rejections: PreflightRejection[]): string {
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
