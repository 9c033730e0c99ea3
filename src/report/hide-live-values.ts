import type { PreviewDocument } from '../preview/types.js';

/**
 * A preview fit for a reader the cluster's values must not reach (a pull request from a fork: its log,
 * job summary and comment are public, and its author chose what is compared): which objects change and
 * which fields differ, never a value. Diffs go (they print live objects) and so do the before/after
 * values of each field change; every renderer then shows field paths with "changed", "added", "removed".
 */
export function withoutLiveValues(doc: PreviewDocument): PreviewDocument {
  return {
    ...doc,
    objects: doc.objects.map(({ diff: _diff, ...obj }) => ({
      ...obj,
      ...(obj.changes
        ? {
            changes: obj.changes.map(({ before: _before, after: _after, ...change }) => change),
          }
        : {}),
    })),
  };
}
