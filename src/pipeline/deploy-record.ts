import { countOutcomes, failed, type RunResult } from '../apply/run-result.js';
import { shortName } from '../common/object-id.js';
import {
  type DeployRecord,
  deleteHistory,
  type HistoryEntry,
  readHistoryEntries,
  writeHistory,
} from '../inventory/deploy-history.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import type { ClusterClient } from '../kube/cluster-client.js';

export interface HistoryOptions {
  /** The commit being applied (enables the stale-commit guard); may still be being looked up. */
  commit?: string | Promise<string | undefined>;
  /** The package directory's git tree hash at `commit`, recorded for catch-up (src/changes/catch-up.ts); may still be being looked up. */
  tree?: string | Promise<string | undefined>;
  /** Who started it: the workflow run URL, else user@host. */
  trigger: string;
  /** Records kept per inventory. */
  keep: number;
  /** Apply even a commit older than the last one applied. */
  allowStale: boolean;
}

/** The package's deploy history as read before the run (undefined entries: it could not be read). */
export interface DeployHistory {
  options: HistoryOptions;
  entries?: HistoryEntry[];
  /** Why nothing will be recorded. */
  unreadable?: string;
}

const Unreadable = 'deploy history could not be read (no permission on ConfigMaps?): not recorded';

export async function readDeployHistory(
  client: ClusterClient,
  inventory: InventoryRef,
  options: HistoryOptions,
): Promise<DeployHistory> {
  try {
    return { options, entries: await readHistoryEntries(client, inventory) };
  } catch {
    return { options, unreadable: Unreadable };
  }
}

/**
 * Records the run next to the inventory (the history read before it is trimmed to `keep`). Nothing for a
 * run refused before its first write, nor when the history could not be read. A destroy that deleted the
 * inventory takes the package's history with it. Returns a notice when the record could not be written.
 */
export async function recordDeploy(
  client: ClusterClient,
  inventory: InventoryRef,
  o: {
    mode: string;
    pkg: string;
    startedAt: string;
    run: RunResult;
    history: DeployHistory;
    /** The inventory and settings it ran with (recordedSettings), for a later rollback to this deploy. */
    settings?: Pick<DeployRecord, 'inventory' | 'namespace' | 'options'>;
  },
): Promise<string | undefined> {
  const { run, history } = o;
  if (!history.entries || (o.mode !== 'apply' && o.mode !== 'destroy')) return undefined;
  // a run refused before its first write (pre-flight, empty package, lock) changed nothing: no record;
  // a destroy that deleted the inventory's Namespace took the history with it
  if (refusedBeforeFirstWrite(run) || run.namespaceDeleted) return undefined;
  try {
    if (o.mode === 'destroy' && run.outcome === 'success') {
      await deleteHistory(client, inventory);
      return undefined;
    }
    const record = {
      ...deployRecord(
        o.pkg,
        o.mode,
        { ...history.options, tree: await history.options.tree },
        await history.options.commit,
        o.startedAt,
        run,
      ),
      ...o.settings,
    };
    await writeHistory(client, inventory, record, history.options.keep, history.entries);
    return undefined;
  } catch (err) {
    return o.mode === 'destroy' && run.outcome === 'success'
      ? `deploy history not deleted: ${(err as Error).message}`
      : `deploy history not recorded: ${(err as Error).message}`;
  }
}

/** A run refused before its first write (pre-flight, empty package, plan gate): it changed nothing. */
export function refusedBeforeFirstWrite(run: RunResult): boolean {
  return run.outcome === 'error' && run.objects.every((x) => x.action === 'none');
}

/** The record of a run; the caller adds what only it knows (settings, a rollback's details). */
export function deployRecord(
  pkg: string,
  mode: DeployRecord['mode'],
  h: Pick<HistoryOptions, 'trigger'> & { tree?: string },
  commit: string | undefined,
  startedAt: string,
  run: RunResult,
): DeployRecord {
  const notDone = run.objects
    .filter((x) => failed(x))
    .map((x) => `${shortName(x.id)}: ${x.message ?? x.reconcile ?? 'failed'}`);
  return {
    package: pkg,
    mode,
    commit,
    ...(h.tree ? { tree: h.tree } : {}),
    trigger: h.trigger,
    startedAt,
    finishedAt: new Date().toISOString(),
    result: run.outcome,
    counts: countOutcomes(run.objects),
    failed: notDone,
    ...(run.error ? { error: run.error } : {}),
  };
}
