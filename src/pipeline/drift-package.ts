import type { RunOptions } from '../apply/run-options.js';
import { Annotations } from '../common/constants.js';
import { idKey, idOf, shortName } from '../common/object-id.js';
import { classifyDrift, previewErrors } from '../drift/classify-drift.js';
import type { DriftCorrection } from '../drift/correction.js';
import type { DriftObject } from '../drift/types.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { type PackageError, PackageFailure } from '../package/package-error.js';
import { previewDocument } from '../preview/preview-document.js';
import type { PreviewDocument } from '../preview/types.js';
import { applySteps } from './cluster-run.js';
import { settleHealth } from './drift-health.js';
import { readPackageStatus } from './package-status.js';
import { type PreparedPackage, preparePackage } from './prepare-package.js';

/** One package's drift check: what `kpt-live drift` prints and the action's drift mode reports. */
export interface DriftRunResult {
  path: string;
  /** `in-sync` (exit 0), `drifted` (exit 4), `error`: the package could not be checked (exit 1). */
  outcome: 'in-sync' | 'drifted' | 'error';
  /** Drifted objects only. */
  objects: DriftObject[];
  error?: string;
  packageErrors?: PackageError[];
  notices: string[];
  prepared?: PreparedPackage;
  /** The preview the drift was read from (its diffs, for the text report). */
  preview?: PreviewDocument;
  /** Set by drift correction (src/pipeline/drift-correction.ts) once it handled this drifted package. */
  correction?: DriftCorrection;
  exitCode: 0 | 1 | 4;
}

export interface DriftRunOptions {
  repoRoot: string;
  defaultNamespace: string;
  /** fieldManager, inventoryPolicy, prune and the update strategy decide what the preview reports;
   * reconcileTimeoutMs and waitForJobs how health is judged. */
  options: RunOptions;
  previewContext?: Partial<PreviewDocument['context']>;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
}

/**
 * Drift of one deployable unit, read-only: load and validate it, read its inventory's status (the status
 * mode's read), preview it (the same server-side dry-run and decisions as `preview` and `apply`), and wait
 * for objects still reconciling, up to the reconcile timeout, before judging their health. Takes no lock,
 * writes no history, sends no write but dry-runs. A package with no inventory in the cluster was never
 * applied: that is an error, not drift. Never throws.
 */
export async function runDriftPackage(
  client: ClusterClient,
  dir: string,
  o: DriftRunOptions,
): Promise<DriftRunResult> {
  const result: DriftRunResult = { path: dir, outcome: 'in-sync', objects: [], notices: [], exitCode: 0 };
  const stopWaiting = new AbortController();
  const onAbort = () => stopWaiting.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const prepared = await preparePackage(client, dir, {
      repoRoot: o.repoRoot,
      defaultNamespace: o.defaultNamespace,
    });
    result.prepared = prepared;
    result.path = prepared.dir;
    result.notices = prepared.notices;
    const inv = prepared.inventory;
    const status = await readPackageStatus(client, inv, {
      waitForJobs: o.options.waitForJobs,
      concurrency: o.options.concurrency,
    });
    if (!status.found) {
      throw new Error(
        `no inventory ${inv.namespace}/${inv.name} in the cluster: ${prepared.dir} was never applied (apply it first; drift compares a deployed package with the cluster)`,
      );
    }
    const exempt = new Set(
      prepared.objects
        .filter((x) => {
          const v = x.object.metadata.annotations?.[Annotations.KappDisableWait];
          return v !== undefined && v !== 'false';
        })
        .map((x) => idKey(idOf(x.object))),
    );
    // objects still reconciling are watched while the preview runs
    const health = settleHealth(client, status.objects, {
      timeoutMs: o.options.reconcileTimeoutMs,
      waitForJobs: o.options.waitForJobs,
      exempt,
      signal: stopWaiting.signal,
      onProgress: o.onProgress,
    });
    health.catch(() => undefined);
    // apply's ownership rule decides what is drift: a hand edit of a field the package sets is (the dry run
    // takes it back, writing nothing, to show the value apply restores); a co-owner's field is not
    const options = o.options;
    const { run } = await applySteps({
      client,
      inventory: inv,
      options,
      objects: prepared.objects,
      emit: () => {},
      signal: o.signal,
      dryRun: true,
      keepCoOwners: true,
    });
    if (run.outcome === 'error' && !run.dryRun) {
      stopWaiting.abort();
      throw new Error(run.error);
    }
    const preview = await previewDocument(run, {
      package: prepared.dir,
      allowSkipped: options.allowSkipped,
      fieldManager: options.fieldManager,
      context: { namespace: inv.namespace, ...o.previewContext },
    });
    result.preview = preview;
    const refused = previewErrors(preview);
    if (refused.length > 0) {
      stopWaiting.abort();
      throw new Error(
        `the server refused the dry-run of ${refused.length} object(s), so drift cannot be judged:\n${refused
          .map((r) => `  ${shortName(r.id)}: ${r.reason ?? 'no message'}`)
          .join('\n')}`,
      );
    }
    const verdicts = await health;
    if (o.signal?.aborted) throw new Error('cancelled before the objects settled');
    result.objects = classifyDrift(preview, verdicts);
    if (result.objects.length > 0) {
      result.outcome = 'drifted';
      result.exitCode = 4;
    }
    return result;
  } catch (err) {
    result.outcome = 'error';
    result.error = (err as Error).message;
    if (err instanceof PackageFailure) result.packageErrors = err.errors;
    result.objects = [];
    result.exitCode = 1;
    return result;
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
  }
}
