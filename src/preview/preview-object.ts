import type { Decision } from '../apply/decision.js';
import { DecidedOn, type ObjectOutcome } from '../apply/run-result.js';
import { isBlockingSkip, type SkipReason, skipFix, skipMessage } from '../apply/skip-reason.js';
import type { KubeObject } from '../common/kube-object.js';
import { diffObjects } from './diff.js';
import { configureDiff } from './object-changes.js';
import { isSecret, scrub } from './redact.js';
import type { PreviewObject } from './types.js';

export interface PreviewObjectOptions {
  allowSkipped: boolean;
  fieldManager: string;
  /** Values no diff may show (runSecretValues). */
  secretValues: readonly string[];
  /** 1-based wave of a prune object (the apply waves come with the outcome). */
  pruneWave?: number;
}

/**
 * How the preview shows one object the run decided (its recorded `decision`, with the package's and the
 * live object): the action, the reason, and the field changes with Secret values redacted. The PR comment,
 * the plan digest and drift read these. Undefined for an object the run never decided (cancelled).
 */
export function previewObjectOf(o: ObjectOutcome, opts: PreviewObjectOptions): PreviewObject | undefined {
  const decided = o[DecidedOn];
  if (!decided) return undefined;
  const { decision: d, manifest } = decided;
  const live = decided.live ?? undefined;
  const apiVersion = manifest?.apiVersion ?? live?.apiVersion ?? '';
  const wave = manifest ? o.wave : opts.pruneWave;
  const base: PreviewObject = {
    id: o.id,
    apiVersion,
    action: d.action,
    ...(o.source ? { source: o.source } : {}),
    ...(wave !== undefined ? { wave } : {}),
  };
  const reason = d.reason ? { reason: d.reason } : {};
  const notes = ownershipNotes(d, live, opts.secretValues);
  if (notes.length > 0) base.ownership = notes;
  switch (d.action) {
    case 'create':
      return {
        ...base,
        validated: d.validated,
        ...reason,
        ...((d.object ?? manifest)
          ? diffObjects(undefined, (d.object ?? manifest)!, { secretValues: opts.secretValues })
          : {}),
      };
    case 'configure': {
      if (!d.object || !live) return { ...base, validated: false, ...reason };
      const diff = configureDiff(live, d.object, opts.secretValues);
      if (diff.changes.length > 0) return { ...base, validated: true, ...reason, ...diff };
      const why = d.reason ?? ownershipMove(live, apiVersion, opts.fieldManager);
      return { ...base, validated: true, reason: `${why}; no values change` };
    }
    case 'unchanged':
      return { ...base, validated: true };
    case 'prune':
      return { ...base, ...reason };
    case 'skip':
    case 'orphan': {
      // the skip with its owner's ResourceGroup, as the run reported it
      const skip = o.skip ?? d.skip;
      if (!skip) return { ...base, ...reason };
      return {
        ...base,
        ...previewOfSkip(skip, { allowSkipped: opts.allowSkipped, abandon: d.action === 'orphan' }),
      };
    }
    default:
      return { ...base, ...reason };
  }
}

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

/**
 * What apply does with each field of the package another manager holds: one line per field taken back
 * from a hand edit (with its live and package values, never a Secret's), one line per manager whose fields
 * are released. Secret values left out.
 */
function ownershipNotes(
  d: Decision,
  live: KubeObject | undefined,
  secretValues: readonly string[],
): string[] {
  const fields = d.ownership?.fields ?? [];
  const secret = isSecret(live);
  const notes: string[] = [];
  for (const f of fields.filter((x) => x.outcome === 'take')) {
    const values =
      !secret && f.live !== undefined && f.desired !== undefined
        ? `${shown(f.live)} → ${shown(f.desired)}, `
        : '';
    notes.push(`${f.field}: ${values}${f.message}`);
  }
  const released = new Map<string, string[]>();
  for (const f of fields.filter((x) => x.outcome === 'release'))
    released.set(f.message, [...(released.get(f.message) ?? []), f.field]);
  for (const [message, names] of released) {
    const list =
      names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
    notes.push(`${list}: ${message}`);
  }
  return notes.map((n) => scrub(n, secretValues));
}

const shown = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** Why an apply that changes no value still writes the object: what happens to its field ownership. */
function ownershipMove(live: KubeObject, apiVersion: string, fieldManager: string): string {
  const entries = (live.metadata.managedFields ?? []) as {
    manager?: string;
    operation?: string;
    apiVersion?: string;
  }[];
  const ours = entries.find((e) => e.manager === fieldManager && e.operation === 'Apply');
  if (ours?.apiVersion && ours.apiVersion !== apiVersion)
    return `the field ownership of ${fieldManager} is recorded under ${apiVersion} instead of ${ours.apiVersion}`;
  return `field ownership moves to ${fieldManager}`;
}
