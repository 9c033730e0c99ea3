import type { EventContext } from './github/event.js';
import type { ActionMode } from './inputs.js';

/** The mode a run has once `auto` is resolved. */
export type RunMode = Exclude<ActionMode, 'auto'>;

/**
 * Which packages a run may touch, decided from the mode, the event and the `packages` input alone,
 * before anything is read or written:
 * - `nothing`: the event asks for nothing (a closed pull request);
 * - `explicit`: exactly the packages `packages` names;
 * - `change`: the packages the event's change touches (a pull request's files, a push's diff, a merge
 *   queue's base..head);
 * - `every`: every package (read-only modes on an event that names no change);
 * - `catch-up`: what the cluster lacks of the commit (src/changes/catch-up.ts), `packages` a filter over it.
 */
export type RunScope =
  | { kind: 'nothing'; reason: string }
  | { kind: 'explicit' }
  | { kind: 'change' }
  | { kind: 'every' }
  | { kind: 'catch-up' };

/** A mode, event and input that do not go together: the step fails before any request. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** True for a push to the repository's default branch: what `mode: auto` applies. */
function isDefaultBranchPush(ctx: EventContext): boolean {
  return (
    ctx.push !== undefined && ctx.defaultBranch !== undefined && ctx.ref === `refs/heads/${ctx.defaultBranch}`
  );
}

/** `auto`: preview on pull requests and merge queues, apply on a push to the default branch, else preview. */
export function resolveMode(mode: ActionMode, ctx: EventContext): { mode: RunMode; note?: string } {
  if (mode !== 'auto') return { mode };
  if (ctx.pullRequest || ctx.mergeGroup) return { mode: 'preview' };
  if (isDefaultBranchPush(ctx)) return { mode: 'apply' };
  return {
    mode: 'preview',
    note: `mode auto on ${ctx.name} (${ctx.ref}): previewing; only a push to the default branch applies`,
  };
}

/** The scope of a run (see RunScope); throws a UsageError for combinations that must not run. */
export function runScope(mode: RunMode, ctx: EventContext, packages: readonly string[]): RunScope {
  const named = packages.length > 0;
  if (ctx.mergeGroup && (mode === 'apply' || mode === 'destroy' || mode === 'rollback')) {
    throw new UsageError(
      `mode: ${mode} on a merge_group event: the merge queue's commit (${ctx.mergeGroup.headSha.slice(0, 7)}) may never land on the branch. ` +
        'Preview in the merge queue (mode: auto or preview) and apply on the push to the default branch',
    );
  }
  if (mode === 'destroy') {
    if (!named) {
      throw new UsageError(
        'mode: destroy needs the packages input (the package directories to destroy, one per line): it never destroys every package',
      );
    }
    return { kind: 'explicit' };
  }
  if (mode === 'rollback') {
    if (!named) {
      throw new UsageError(
        'mode: rollback needs the packages input (the package directories to roll back, one per line): it never rolls back every package',
      );
    }
    return { kind: 'explicit' };
  }
  if (ctx.pullRequest && ctx.action === 'closed') {
    return {
      kind: 'nothing',
      reason: `pull request #${ctx.pullRequest.number} is closed: nothing to do (a merged pull request is applied by the push to its base branch)`,
    };
  }
  if (mode === 'apply' || mode === 'resolve') {
    if (ctx.pullRequest || ctx.mergeGroup) return named ? { kind: 'explicit' } : { kind: 'change' };
    if (ctx.push) return { kind: 'catch-up' };
    return named ? { kind: 'explicit' } : { kind: 'catch-up' };
  }
  if (named) return { kind: 'explicit' };
  if (ctx.pullRequest || ctx.mergeGroup || ctx.push) return { kind: 'change' };
  return { kind: 'every' };
}

/**
 * `drift-correct` re-applies the checked-out commit, so it runs only where an apply would: never on a pull
 * request or a merge queue (their commit is not the branch's), nor on a branch other than the default one
 * when the event names it (a `workflow_dispatch` from a feature branch would deploy that branch). Throws a
 * UsageError before any request.
 */
export function checkDriftCorrect(ctx: EventContext): void {
  if (ctx.pullRequest || ctx.mergeGroup)
    throw new UsageError(
      `drift-correct on a ${ctx.name} event: drift correction re-applies the checked-out commit, which is not the default branch's; run it on schedule or workflow_dispatch of the default branch`,
    );
  if (ctx.defaultBranch && ctx.ref !== `refs/heads/${ctx.defaultBranch}`)
    throw new UsageError(
      `drift-correct on ${ctx.ref}: drift correction re-applies the checked-out commit, so it runs on the default branch (${ctx.defaultBranch}) only`,
    );
}
