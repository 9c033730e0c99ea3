import { type ChangedUnit, changedPackages, resolveExplicitPackages } from '../changes/index.js';
import { packageTrees } from '../changes/tree-hash.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { findUnits } from '../package/find-packages.js';
import { type CatchUpSession, selectCatchUp } from './catch-up-selection.js';
import { changeSetForEvent, type EventContext, type GitHubClient } from './github/index.js';
import type { ActionInputs } from './inputs.js';
import type { RunScope } from './run-scope.js';
import * as core from './toolkit.js';

/** A package the run handles. */
export interface SelectedUnit extends ChangedUnit {
  /** Why it runs (catch-up), for the log and the job summary. */
  reason?: string;
  /** The commit the cluster last applied for it: the merged pull requests since are its. */
  base?: string;
  /**
   * Its git tree in the checkout (recorded with the deploy; compared with the reviewed one): looked up by
   * git while the run starts, awaited where it is used.
   */
  tree?: Promise<string | undefined>;
  /** A deleted package's inventory, when known without reading git (from the watermark). */
  inventory?: InventoryRef;
}

type Listed = { path: string; reason: string };

/** Which packages a run handles, and (catch-up) which it leaves and why. */
export interface Selection {
  units: SelectedUnit[];
  held: Listed[];
  upToDate: Listed[];
  skipped: Listed[];
  /** Catch-up: what storing the watermark after the run needs (src/action/watermark-save.ts). */
  catchUp?: CatchUpSession;
}

const empty = (units: SelectedUnit[] = []): Selection => ({ units, held: [], upToDate: [], skipped: [] });

/** The units, each with its tree at HEAD being looked up (one git process for all; never rejects). */
function withTrees(repoRoot: string, units: SelectedUnit[]): SelectedUnit[] {
  const trees = packageTrees(
    repoRoot,
    'HEAD',
    units.filter((u) => !u.removed).map((u) => u.path),
  ).catch(() => new Map<string, string | undefined>());
  return units.map((u) => (u.removed ? u : { ...u, tree: trees.then((t) => t.get(u.path)) }));
}

/** The event's own change: a pull request's files, a push's diff, a merge queue's base..head. */
async function fromChange(
  repoRoot: string,
  ctx: EventContext,
  octokit: GitHubClient | undefined,
): Promise<SelectedUnit[]> {
  const changeSet = await changeSetForEvent(ctx, { repoDir: repoRoot, octokit });
  for (const n of changeSet.notes) core.info(n);
  if (changeSet.all) return (await findUnits(repoRoot)).map((u) => ({ path: u.dir, removed: false }));
  const changed = await changedPackages(repoRoot, changeSet);
  for (const n of changed.notes) core.info(n);
  for (const w of changed.warnings) core.warning(w);
  return changed.units;
}

/**
 * Which deployable units this run handles, before any of them runs (src/action/run-scope.ts decides
 * the kind): the `packages` input; the units the event's change touches, deleted ones marked
 * `removed`; every unit; or, for an apply, catch-up: what the cluster lacks of the commit, read from
 * the deploy records and the job's watermark in `cluster`. Without `cluster` (mode resolve without
 * credentials) catch-up falls back to the push's own change, with a notice.
 */
export async function selectPackages(o: {
  repoRoot: string;
  scope: RunScope;
  ctx: EventContext;
  octokit?: GitHubClient;
  inputs: Pick<ActionInputs, 'packages' | 'commentKey' | 'destroyRemovedPackages'>;
  cluster?: { client: ClusterClient; namespace: string };
}): Promise<Selection> {
  const { repoRoot, scope, ctx, octokit, inputs } = o;
  switch (scope.kind) {
    case 'nothing':
      return empty();
    case 'explicit': {
      const { paths, notes } = await resolveExplicitPackages(repoRoot, inputs.packages);
      for (const n of notes) core.info(n);
      return empty(
        withTrees(
          repoRoot,
          paths.map((path) => ({ path, removed: false })),
        ),
      );
    }
    case 'every':
      return empty(
        withTrees(
          repoRoot,
          (await findUnits(repoRoot)).map((u) => ({ path: u.dir, removed: false })),
        ),
      );
    case 'change':
      return empty(withTrees(repoRoot, await fromChange(repoRoot, ctx, octokit)));
    case 'catch-up':
      break;
  }
  if (!o.cluster) {
    core.notice(
      ctx.push
        ? "no cluster credentials: the packages are the push's own change; packages whose earlier run was cancelled or failed are caught up by the apply job, which reads the cluster's deploy records"
        : 'no cluster credentials: every package is listed; the apply job applies those the cluster lacks',
    );
    const units = ctx.push
      ? await fromChange(repoRoot, ctx, octokit)
      : (await findUnits(repoRoot)).map((u) => ({ path: u.dir, removed: false }));
    if (inputs.packages.length === 0) return empty(withTrees(repoRoot, units));
    const named = new Set((await resolveExplicitPackages(repoRoot, inputs.packages)).paths);
    return empty(
      withTrees(
        repoRoot,
        units.filter((u) => u.removed || named.has(u.path)),
      ),
    );
  }
  const sel = await selectCatchUp({ repoRoot, ctx, octokit, inputs, ...o.cluster });
  for (const n of sel.notes) core.info(n);
  for (const w of sel.warnings) core.warning(w);
  const r = sel.result;
  return {
    units: r.run.map((e) => ({
      path: e.path,
      removed: e.removed,
      reason: e.reason,
      ...(e.base ? { base: e.base } : {}),
      ...(e.tree ? { tree: Promise.resolve(e.tree) } : {}),
      ...(e.baseCommit ? { baseCommit: e.baseCommit } : {}),
      ...(e.inventory ? { inventory: e.inventory } : {}),
    })),
    held: r.held,
    upToDate: r.upToDate,
    skipped: r.skipped,
    catchUp: sel.session,
  };
}
