import {
  type ApplyRequest,
  applyResult,
  carryOutApply,
  checkApplyInput,
  dryRunApply,
  FatalRunError,
} from '../apply/applier.js';
import { runDestroy } from '../apply/destroyer.js';
import type { RunEventSink } from '../apply/events.js';
import { readLiveSnapshot } from '../apply/live-snapshot.js';
import { formatRejections, preflightRejections } from '../apply/preflight.js';
import { readRunInput } from '../apply/run-input.js';
import type { RunOptions } from '../apply/run-options.js';
import { fatalResult, type RunResult } from '../apply/run-result.js';
import { type AskPolicy, withDecisions } from '../apply/run-state.js';
import { ResourceGroupApiVersion, ResourceGroupKind } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import type { SourceRef } from '../common/source-ref.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import { readClusterInventory } from '../inventory/read-inventory.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { checkPlan, type PlanGate, type PlanVerdict, plannedEntries } from '../preview/plan-gate.js';

/** What every cluster run of a package takes. */
export interface ClusterRunRequest {
  client: ClusterClient;
  inventory: InventoryRef;
  options: RunOptions;
  emit: RunEventSink;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
  /** Change nothing: the walk decides and reports what a real run would do. */
  dryRun: boolean;
}

export interface ApplyStepsResult {
  run: RunResult;
  /** The pre-flight's plan compared with the reviewed one (with a plan gate). */
  planCheck?: PlanVerdict;
}

type ApplyStepsRequest = ClusterRunRequest & {
  objects: { object: KubeObject; source?: SourceRef }[];
  gate?: PlanGate;
  /** Drift: a field a co-owner holds with another value is left as it is, not an error (AskPolicy). */
  keepCoOwners?: boolean;
};

/** What an apply reads from the cluster before it decides anything. */
export interface ClusterState {
  /** Whether the server serves kpt's ResourceGroup kind. */
  rgServed: boolean;
  input: ApplyRequest['input'];
  cluster: ApplyRequest['cluster'];
}

/**
 * The cluster's inventory and the package's live objects, read together (a real apply also asks for a
 * legacy ConfigMap inventory at once: one round trip fewer before a first apply's first write).
 */
export async function readClusterState(req: Omit<ApplyStepsRequest, 'emit'>): Promise<ClusterState> {
  const rgServed = !!(await req.client.resolve(ResourceGroupApiVersion, ResourceGroupKind));
  const reading = rgServed
    ? readClusterInventory(req.client, req.inventory, { together: !req.dryRun })
    : undefined;
  const ids = reading ? reading.then((c) => c?.ids ?? []) : [];
  const [input, cluster] = await Promise.all([
    readRunInput(req.client, req.objects, req.inventory, ids, { concurrency: req.options.concurrency }),
    reading,
  ]);
  return { rgServed, input, cluster };
}

/**
 * An apply of the package's objects, after the lock (a dry run takes none): the cluster's state (read here,
 * or by the caller as `state` while it reads something else behind the same lock), the plan, then the
 * engine. A dry run walks once and records every decision (the preview).
 * A real run walks first as a silent dry run (the pre-flight, asking the server as `preflight` says), stops
 * with nothing changed when that walk met an object it must refuse or a plan that differs from the
 * reviewed one under `plan-drift: fail`, then carries out those decisions. Never throws.
 */
export async function applySteps(
  req: ApplyStepsRequest & { state?: Promise<ClusterState> },
): Promise<ApplyStepsResult> {
  const startedAt = Date.now();
  try {
    const engine: ApplyRequest = { ...req, ...(await (req.state ?? readClusterState(req))) };
    checkApplyInput(engine);
    if (req.dryRun) {
      const ask = {
        kind: 'all' as const,
        exhaustive: req.options.preflight === 'all',
        keepCoOwners: req.keepCoOwners,
      };
      return { run: applyResult(await dryRunApply(engine, ask)) };
    }
    const pre = await dryRunApply({ ...engine, emit: () => {} }, askFor(req.options.preflight));
    const rejections = preflightRejections(pre);
    if (rejections.length > 0) throw new FatalRunError(formatRejections(pre, rejections));
    const planned = { outcomes: withDecisions(pre), plan: pre.plan, desired: [...pre.manifests.values()] };
    const planCheck = req.gate && checkPlan(req.gate, await plannedEntries(planned, req.options));
    if (planCheck?.refuse) throw new FatalRunError(planCheck.refuse);
    return { run: await carryOutApply(engine, pre), ...(planCheck ? { planCheck } : {}) };
  } catch (err) {
    return { run: fatalResult(req.emit, err, [], startedAt) };
  }
}

/** The pre-flight's ask policy from `preflight`. */
function askFor(preflight: RunOptions['preflight']): AskPolicy {
  if (preflight === 'all') return { kind: 'all', exhaustive: true };
  if (preflight === 'off') return { kind: 'none' };
  return { kind: 'sample' };
}

/**
 * A destroy, after the lock (a dry run takes none): the cluster's inventory and the live state of what it
 * lists, then the engine. No inventory in the cluster: nothing to do. Never throws.
 */
export async function destroySteps(req: ClusterRunRequest): Promise<RunResult> {
  const startedAt = Date.now();
  try {
    const cluster = await readClusterInventory(req.client, req.inventory);
    if (!cluster) return { outcome: 'success', objects: [], durationMs: Date.now() - startedAt };
    const live = await readLiveSnapshot(req.client, cluster.ids, { concurrency: req.options.concurrency });
    return await runDestroy({ ...req, cluster, live });
  } catch (err) {
    return fatalResult(req.emit, err, [], startedAt);
  }
}
