import {
  type CatchUpResult,
  catchUp,
  type GoneUnit,
  type PresentUnit,
  recordView,
} from '../changes/catch-up.js';
import { changedPackages } from '../changes/changed-packages.js';
import { resolvePackageFilter } from '../changes/package-filter.js';
import { fillRecordTrees } from '../changes/record-trees.js';
import { packageTrees } from '../changes/tree-hash.js';
import { type DeployRecord, inventoryKey, readHistories } from '../inventory/deploy-history.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import {
  readWatermark,
  type StoredWatermark,
  type WatermarkKey,
  watermarkName,
} from '../inventory/watermark.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { findUnits } from '../package/find-packages.js';
import { readInventoryInfo, sameInventory } from '../package/inventory-info.js';
import { changeSetForEvent, type EventContext, type GitHubClient } from './github/index.js';
import type { ActionInputs } from './inputs.js';

/** What the run needs to store the watermark afterwards (src/action/watermark-save.ts). */
export interface CatchUpSession {
  client: ClusterClient;
  namespace: string;
  key: WatermarkKey;
  /** The watermark read before the run; undefined when there was none. */
  stored?: StoredWatermark;
  /** False when it could not be read: then it is not written either (another run's would be lost). */
  writable: boolean;
  head: string;
  /** Every unit the job covers at `head`, with its inventory, and its tree. */
  units: Record<string, InventoryRef>;
  trees: Record<string, string | undefined>;
  forget: string[];
}

export interface CatchUpSelection {
  result: CatchUpResult;
  session: CatchUpSession;
  notes: string[];
  warnings: string[];
}

/** `refs/heads/main` → `main`. */
export const branchOf = (ref: string) => ref.replace(/^refs\/heads\//, '');

/**
 * Records written before trees were recorded: the tree of the records catch-up compares (what the cluster
 * runs, and failures since the last successful apply) is read from git at their commit, fetched by SHA in a
 * shallow checkout.
 */
function fillTrees(repoRoot: string, records: Map<string, DeployRecord[]>): Promise<void> {
  return fillRecordTrees(repoRoot, records.values(), {
    counted: (list) => {
      const lastApply = list.findIndex((r) => r.mode === 'apply' && r.result === 'success');
      const running = list.findIndex((r) => r.mode !== 'destroy' && r.result === 'success');
      const end = Math.max(lastApply, running);
      return end >= 0 ? end + 1 : list.length;
    },
    dirOf: (r) => r.package,
    fetch: true,
  });
}

/**
 * Reads what catch-up decides from: the units at the pushed commit and their trees, the job's watermark,
 * every unit's deploy records (one LIST per namespace), the push's own change; then decides
 * (src/changes/catch-up.ts). `packages` filters what it covers.
 */
export async function selectCatchUp(o: {
  repoRoot: string;
  ctx: EventContext;
  octokit?: GitHubClient;
  inputs: Pick<ActionInputs, 'packages' | 'commentKey' | 'destroyRemovedPackages'>;
  client: ClusterClient;
  namespace: string;
}): Promise<CatchUpSelection> {
  const { repoRoot, ctx, client, namespace } = o;
  const notes: string[] = [];
  const warnings: string[] = [];
  const head = ctx.push?.after ?? ctx.sha;
  const key: WatermarkKey = {
    repository: `${ctx.owner}/${ctx.repo}`,
    branch: branchOf(ctx.ref),
    commentKey: o.inputs.commentKey,
  };
  let stored: StoredWatermark | undefined;
  let writable = true;
  try {
    stored = await readWatermark(client, namespace, key);
  } catch (err) {
    writable = false;
    warnings.push(
      `watermark ConfigMap ${namespace}/${watermarkName(key)} could not be read (${(err as Error).message}): packages without a deploy record run only when the push touches them, and it is not updated`,
    );
  }
  const wm = stored?.watermark;

  // the push's own change: what it touched, and the units it deleted
  let touched: Set<string> | 'all' = 'all';
  const pushGone: GoneUnit[] = [];
  if (ctx.push) {
    const cs = await changeSetForEvent(ctx, { repoDir: repoRoot, octokit: o.octokit });
    notes.push(...cs.notes);
    if (!cs.all) {
      const changed = await changedPackages(repoRoot, cs);
      notes.push(...changed.notes);
      warnings.push(...changed.warnings);
      touched = new Set(changed.units.map((u) => u.path));
      for (const u of changed.units)
        if (u.removed) pushGone.push({ path: u.path, ...(u.baseCommit ? { baseCommit: u.baseCommit } : {}) });
    }
  }

  // the units at the pushed commit, with their inventories (a broken one cannot be compared, only run)
  const all = await findUnits(repoRoot);
  const inventories = new Map<string, InventoryRef>();
  const broken = new Map<string, string>();
  for (const u of all) {
    const info = await readInventoryInfo(u.dir, { repoRoot }).catch((err: Error) => ({
      inventory: undefined,
      errors: [{ message: err.message }],
    }));
    if (info.inventory) inventories.set(u.dir, info.inventory);
    else broken.set(u.dir, `its inventory info cannot be read (${info.errors[0]?.message ?? 'none'})`);
  }
  // units the watermark knew that are gone now (unless they moved: the same inventory at a new path)
  const wmGone: GoneUnit[] = [];
  const moved: string[] = [];
  for (const [path, inv] of Object.entries(wm?.units ?? {})) {
    if (all.some((u) => u.dir === path) || pushGone.some((g) => g.path === path)) continue;
    const movedTo = [...inventories].find(([, now]) => sameInventory({ ...inv }, now))?.[0];
    if (movedTo) {
      notes.push(`package "${path}" moved to "${movedTo}" with the same inventory`);
      moved.push(path);
    } else wmGone.push({ path, inventory: inv, ...(wm?.commit ? { baseCommit: wm.commit } : {}) });
  }

  // `packages`: a filter over all of it
  let present = all.map((u) => u.dir);
  let gone = [...pushGone, ...wmGone];
  if (o.inputs.packages.length > 0) {
    const f = await resolvePackageFilter(
      repoRoot,
      o.inputs.packages,
      gone.map((g) => g.path),
    );
    notes.push(...f.notes);
    present = present.filter((p) => f.units.has(p));
    gone = gone.filter((g) => f.gone.has(g.path));
  }

  // the trees of what the checkout holds (the pushed commit): what is applied
  const treesAt = await packageTrees(repoRoot, 'HEAD', present);
  if (present.length > 0 && [...treesAt.values()].every((t) => t === undefined))
    notes.push(
      `git cannot read the trees of ${head.slice(0, 7)} (not a git checkout?): packages are compared by the commit last applied`,
    );
  const wmGoneInvs = gone.flatMap((g) => (g.inventory ? [g.inventory] : []));
  const histories = await readHistories(client, [
    ...present.flatMap((p) => (inventories.has(p) ? [inventories.get(p)!] : [])),
    ...wmGoneInvs,
  ]);
  const records = new Map<string, DeployRecord[]>();
  for (const [k, list] of histories) if (list) records.set(k, list);
  await fillTrees(repoRoot, records);

  const units: PresentUnit[] = present.map((p) => {
    const inv = inventories.get(p);
    const list = inv ? histories.get(inventoryKey(inv)) : undefined;
    return {
      path: p,
      tree: treesAt.get(p),
      ...(list ? { records: list.map(recordView) } : {}),
      ...(broken.has(p) ? { unreadable: broken.get(p) } : {}),
    };
  });
  const goneUnits: GoneUnit[] = gone.map((g) => {
    const list = g.inventory ? histories.get(inventoryKey(g.inventory)) : undefined;
    return { ...g, ...(list ? { records: list.map(recordView) } : {}) };
  });
  const result = catchUp({
    head,
    units,
    gone: goneUnits,
    touched,
    ...(ctx.push ? { push: ctx.push } : {}),
    ...(wm
      ? {
          watermark: {
            ...(wm.commit ? { commit: wm.commit } : {}),
            units: new Set(Object.keys(wm.units)),
          },
        }
      : {}),
    held: wm?.held ?? {},
    destroyRemovedPackages: o.inputs.destroyRemovedPackages,
  });
  const session: CatchUpSession = {
    client,
    namespace,
    key,
    ...(stored ? { stored } : {}),
    writable,
    head,
    units: Object.fromEntries(present.flatMap((p) => (inventories.has(p) ? [[p, inventories.get(p)!]] : []))),
    trees: Object.fromEntries(present.map((p) => [p, treesAt.get(p)])),
    forget: [...result.forget, ...moved],
  };
  return { result, session, notes, warnings };
}
