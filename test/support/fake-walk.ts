import type { DecidedAction, Decision } from '../../src/apply/decision.js';
import { defaultRunOptions, type RunOptions } from '../../src/apply/run-options.js';
import { DecidedOn, type ObjectOutcome, type RunResult } from '../../src/apply/run-result.js';
import type { KubeObject } from '../../src/common/kube-object.js';
import { shortName } from '../../src/common/object-id.js';
import { ensureResourceGroupCrd } from '../../src/inventory/install-crd.js';
import type { ClusterClient } from '../../src/kube/cluster-client.js';
import { type ApplyStepsResult, applySteps, destroySteps } from '../../src/pipeline/cluster-run.js';
import type { PlanGate } from '../../src/preview/plan-gate.js';
import { FakeCluster, readyWorkloads } from './fake-cluster/index.js';

/**
 * The engine's walk on the fake cluster, for table-driven unit tests: a cluster with the ResourceGroup CRD
 * and one inventory, `apply`/`destroy` through the pipeline's steps (no lock: the steps are what runs under
 * it), and the views a test compares (each object's action and recorded decision, by `Kind/name`).
 */
export const ns = 'team';
export const inventory = { name: 'inv', namespace: ns, id: 'inv-id' };

export interface Walk {
  fake: FakeCluster;
  client: ClusterClient;
  apply(objects: KubeObject[], o?: ApplyOptions): Promise<ApplyStepsResult>;
  destroy(o?: { dryRun?: boolean; options?: Partial<RunOptions> }): Promise<RunResult>;
}

export interface ApplyOptions {
  dryRun?: boolean;
  options?: Partial<RunOptions>;
  gate?: PlanGate;
}

/** A fake cluster with Namespace `team`, ready workloads and the ResourceGroup CRD installed. */
export async function walkOnFake(): Promise<Walk> {
  const fake = new FakeCluster({ namespaces: [ns], reconcilers: [readyWorkloads] });
  const client = fake.client();
  await ensureResourceGroupCrd(client, { install: true });
  client.resetDiscovery();
  const opts = (o: Partial<RunOptions> = {}) =>
    defaultRunOptions({ reconcileTimeoutMs: 5000, pruneTimeoutMs: 5000, ...o });
  return {
    fake,
    client,
    apply: (objects, o = {}) =>
      applySteps({
        client,
        objects: objects.map((object) => ({ object: structuredClone(object) })),
        inventory,
        options: opts(o.options),
        emit: () => {},
        dryRun: !!o.dryRun,
        ...(o.gate ? { gate: o.gate } : {}),
      }),
    destroy: (o = {}) =>
      destroySteps({ client, inventory, options: opts(o.options), emit: () => {}, dryRun: !!o.dryRun }),
  };
}

const nameOf = (o: ObjectOutcome) => shortName(o.id);

/** What the run did (or, as a dry run, would do) to each object: `{ 'ConfigMap/a': 'created' }`. */
export function actionsOf(run: RunResult): Record<string, string> {
  return Object.fromEntries(run.objects.map((o) => [nameOf(o), o.action]));
}

/** The decision the run recorded for each object it decided. */
export function decisionsOf(run: RunResult): Record<string, Decision> {
  return Object.fromEntries(
    run.objects.flatMap((o) => (o[DecidedOn] ? [[nameOf(o), o[DecidedOn].decision]] : [])),
  );
}

/** Each recorded decision's action: `{ 'ConfigMap/a': 'create' }`. */
export function decidedActionsOf(run: RunResult): Record<string, DecidedAction> {
  return Object.fromEntries(Object.entries(decisionsOf(run)).map(([k, d]) => [k, d.action]));
}

/** The outcome a real run reports for carrying out a decision (what the dry run promised). */
export const carriedAs: Record<DecidedAction, ObjectOutcome['action']> = {
  create: 'created',
  configure: 'configured',
  unchanged: 'unchanged',
  replace: 'replaced',
  skip: 'skipped',
  error: 'failed',
  prune: 'pruned',
  orphan: 'abandoned',
};
