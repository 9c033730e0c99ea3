import { type ChangedUnit, changedPackages, resolveExplicitPackages } from '../changes/index.js';
import { findUnits } from '../package/find-packages.js';
import { changeSetForEvent, type EventContext, type GitHubClient } from './github/index.js';
import * as core from './toolkit.js';

/**
 * Which deployable units this run handles: the `packages` input (paths or globs), else the units the
 * change set touches (PR files, or the push's before..after), with deleted units marked `removed`.
 */
export async function selectPackages(
  repoRoot: string,
  explicit: string[],
  ctx: EventContext,
  octokit: GitHubClient | undefined,
): Promise<ChangedUnit[]> {
  if (explicit.length > 0) {
    const { paths, notes } = await resolveExplicitPackages(repoRoot, explicit);
    for (const n of notes) core.info(n);
    return paths.map((path) => ({ path, removed: false }));
  }
  const changeSet = await changeSetForEvent(ctx, { repoDir: repoRoot, octokit });
  for (const n of changeSet.notes) core.info(n);
  if (changeSet.all) {
    const units = await findUnits(repoRoot);
    return units.map((u) => ({ path: u.dir, removed: false }));
  }
  const changed = await changedPackages(repoRoot, changeSet);
  for (const n of changed.notes) core.info(n);
  for (const w of changed.warnings) core.warning(w);
  return changed.units;
}
