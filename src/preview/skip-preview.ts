import { isBlockingSkip, type SkipReason, skipFix, skipMessage } from '../apply/skip-reason.js';
import type { PreviewObject } from './types.js';

/**
 * How preview shows an object apply would skip: a skip the user did not choose is an `error` marked
 * `blocked` (apply fails on it), unless allow-skipped accepts such skips; any other is a `skip` (or an
 * `orphan`, when it is forgotten instead of deleted).
 */
export function previewOfSkip(
  skip: SkipReason,
  opts: { allowSkipped: boolean; abandon?: boolean },
): Pick<PreviewObject, 'action' | 'reason' | 'blocked'> {
  const reason = skipMessage(skip);
  if (opts.abandon) return { action: 'orphan', reason };
  if (!isBlockingSkip(skip) || opts.allowSkipped) return { action: 'skip', reason };
  const fix = skipFix(skip) ?? '';
  if (skip.type === 'inventory-policy') {
    return {
      action: 'error',
      reason,
      blocked: { cause: 'inventory-policy', ...(skip.owner ? { owner: skip.owner } : {}), fix },
    };
  }
  return { action: 'error', reason, blocked: { cause: 'dependency', fix } };
}
