import type { ObjectId } from '../common/object-id.js';
import type { SourceRef } from '../common/source-ref.js';

/** What preview says will happen to one object. Apply must do exactly this. */
export type PreviewAction =
  | 'create'
  | 'configure'
  | 'unchanged'
  | 'prune'
  | 'skip'
  | 'error'
  | 'replace'
  | 'orphan';

export const PreviewActions: readonly PreviewAction[] = [
  'create',
  'configure',
  'unchanged',
  'prune',
  'skip',
  'error',
  'replace',
  'orphan',
];

/** One changed field. Values of Secret data are never stored here: `redacted` says so. */
export interface FieldChange {
  /** Dotted path, e.g. `spec.replicas`, `spec.template.spec.containers[0].image`, `data.password`. */
  path: string;
  op: 'add' | 'remove' | 'change';
  /** Short, display-safe renderings (already redacted); absent for redacted values. */
  before?: string;
  after?: string;
  /** True for Secret data/stringData (and annotations that copy them): only sizes are known. */
  redacted?: boolean;
  beforeBytes?: number;
  afterBytes?: number;
}

/**
 * An object apply would not deploy for a reason the user did not choose (its preview action is `error`):
 * the inventory policy (another inventory owns it, or none does under strict), or something it depends on
 * is blocked, or failed.
 */
export interface BlockedInfo {
  cause: 'inventory-policy' | 'dependency';
  /** The inventory that owns it (inventory-policy), and that inventory's ResourceGroup when found. */
  owner?: { id: string; resourceGroup?: { namespace: string; name: string } };
  /** What to do about it, in one sentence. */
  fix: string;
}

export interface PreviewObject {
  id: ObjectId;
  apiVersion: string;
  action: PreviewAction;
  /** Why: skip reason, server error, "not validated: depends on Namespace/x created by this package", replace cause. */
  reason?: string;
  source?: SourceRef;
  /** 1-based apply wave (prune objects: the wave they are pruned in). */
  wave?: number;
  /** False when the server could not dry-run it yet (its Namespace/CRD comes from this package). */
  validated?: boolean;
  changes?: FieldChange[];
  /** Set when apply would not deploy it (action `error`), for a reason the user did not choose. */
  blocked?: BlockedInfo;
  /** Unified diff of the YAML (`-` live, `+` desired), redacted; absent when unchanged. */
  diff?: string;
  /**
   * Fields of the package another field manager holds, and what apply does about each (the ownership
   * rule): `.data.DEBUG: "true" → "false", reverts an edit by kubectl-patch`; `.metadata.labels.x: released
   * by helm, its previous owner`. Secret values are never shown.
   */
  ownership?: string[];
}

/** Objects per action, plus `blocked`: how many of the `error` objects are blocked (`PreviewObject.blocked`). */
export type PreviewSummary = Record<PreviewAction, number> & { blocked: number };

export interface PreviewDocument {
  /** Package path as the user names it (relative to the repository root). */
  package: string;
  summary: PreviewSummary;
  objects: PreviewObject[];
  /** Apply waves in order, as short names (`Deployment/web`), for the mermaid graph. */
  waves: string[][];
  /** depends-on edges (from depends on to), short names, for the graph. */
  edges: { from: string; to: string }[];
  /** What a failed apply of this plan would do (`on-failure`); not part of the plan (nor of its digest). */
  onFailure?: OnFailurePlan;
  context: {
    cluster?: string;
    namespace?: string;
    fieldManager: string;
    commit?: string;
    durationMs?: number;
    /** e.g. `main`: shown as "applies on merge to main". */
    targetBranch?: string;
    runUrl?: string;
  };
}

export function emptySummary(): PreviewSummary {
  return {
    create: 0,
    configure: 0,
    unchanged: 0,
    prune: 0,
    skip: 0,
    error: 0,
    replace: 0,
    orphan: 0,
    blocked: 0,
  };
}

/** What a failed apply would do: roll back to commit `to`, or leave the cluster as the failure left it (`reason`). */
export interface OnFailurePlan {
  action: 'rollback' | 'none';
  /** The commit a rollback would return to (the last successful deploy), when known. */
  to?: string;
  /** Why it would be left as is, or why the commit is not known. */
  reason?: string;
}
