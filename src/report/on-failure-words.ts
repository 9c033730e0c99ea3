import type { OnFailurePlan } from '../preview/types.js';
import { clip, code, escapeText } from './markdown.js';

/**
 * The preview's line under the plan: what a failed apply of it would do (`on failure: rolls back to
 * 3f2a1c0`, `on failure: left as is (on-failure: none)`), as plain text or markdown.
 */
export function onFailureWords(p: OnFailurePlan, markup: 'text' | 'markdown'): string {
  const commit = (sha: string) => (markup === 'markdown' ? code(sha.slice(0, 7)) : sha.slice(0, 7));
  const text = (t: string) => (markup === 'markdown' ? escapeText(clip(t, 500)) : t);
  if (p.action === 'rollback')
    return p.to
      ? `on failure: rolls back to ${commit(p.to)}`
      : `on failure: rolls back ${text(p.reason ?? '')}`;
  return `on failure: left as is${p.reason ? ` (${text(p.reason)})` : ''}`;
}
