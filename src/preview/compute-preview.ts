import { decideObject } from '../apply/decide-object.js';
import { withOwner } from '../apply/owner-lookup.js';
import { pruneDecision } from '../apply/prune-wave.js';
import { readRunInput } from '../apply/run-input.js';
import type { RunOptions } from '../apply/run-options.js';
import { runOrdered } from '../apply/run-ordered.js';
import { markBlocked, newRunState } from '../apply/run-state.js';
import { ResourceGroupApiVersion, ResourceGroupKind } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import { idKey, shortName } from '../common/object-id.js';
import type { SourceRef } from '../common/source-ref.js';
import { loadYaml } from '../common/yaml-module.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import { readClusterInventory } from '../inventory/read-inventory.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { formatPlanErrors } from '../plan/errors.js';
import { diffObjects } from './diff.js';
import { configureDiff, runSecretValues } from './object-changes.js';
import { previewOfSkip } from './skip-preview.js';
import { emptySummary, type PreviewDocument, type PreviewObject } from './types.js';

export interface PreviewRequest {
  client: ClusterClient;
  packagePath: string;
  objects: { object: KubeObject; source?: SourceRef }[];
  inventory: InventoryRef;
  options: RunOptions;
  context?: Partial<PreviewDocument['context']>;
}

/**
 * What apply would do, object by object, without changing anything: a server-side dry-run of every
 * object (same field manager and options as apply) compared with the live object, plus the inventory's
 * prune candidates through the same filters apply uses. Throws on fatal problems (invalid plan).
 */
export async function computePreview(req: PreviewRequest): Promise<PreviewDocument> {
  const started = Date.now();
  const haveRg = !!(await req.client.resolve(ResourceGroupApiVersion, ResourceGroupKind));
  // the inventory is read while the package's objects are
  const clusterIds = haveRg ? readClusterInventory(req.client, req.inventory).then((c) => c?.ids ?? []) : [];
  const input = await readRunInput(req.client, req.objects, req.inventory, clusterIds, {
    concurrency: req.options.concurrency,
    includePrune: req.options.prune,
  });
  const { manifests, sources, live, plan } = input;
  if (plan.errors.length > 0) throw new Error(formatPlanErrors(plan.errors));
  const state = newRunState(
    { client: req.client, options: req.options, inventory: req.inventory, emit: () => {}, ...input },
    started,
  );
  const secretValues = runSecretValues(manifests.values(), live.values());
  const objects: PreviewObject[] = [];

  for (const [w, wave] of plan.applyWaves.entries()) {
    await runOrdered(
      wave,
      req.options.concurrency,
      async (id): Promise<PreviewObject> => {
        const key = idKey(id);
        const manifest = manifests.get(key)!;
        const base = { id, apiVersion: manifest.apiVersion, source: sources.get(key), wave: w + 1 };
        const current = live.get(key) ?? undefined;
        // the decision apply takes, as a dry-run: preview, pre-flight and apply cannot disagree
        const d = await decideObject(state, id, { write: false });
        // as apply records it: what depends on a failed or blocked object is skipped
        if (d.action === 'error') markBlocked(state, id, 'apply actuation failed');
        else if (d.action === 'skip' && d.blocked) markBlocked(state, id, 'apply actuation skipped');
        if (d.action === 'skip' && d.blocked && d.skip)
          return { ...base, ...previewOfSkip(await withOwner(state, d.skip), req.options) };
        const reason = d.reason ? { reason: d.reason } : {};
        switch (d.action) {
          case 'create':
            await loadYaml(); // the diff renders YAML; a preview with nothing to create or configure does not
            return {
              ...base,
              action: 'create',
              validated: d.validated,
              ...reason,
              ...diffObjects(undefined, d.object ?? manifest, { secretValues }),
            };
          case 'configure': {
            await loadYaml();
            const diff = configureDiff(current!, d.object!, secretValues);
            if (diff.changes.length > 0)
              return { ...base, action: 'configure', validated: true, ...reason, ...diff };
            const why = d.reason ?? ownershipMove(current!, manifest.apiVersion, req.options.fieldManager);
            return { ...base, action: 'configure', validated: true, reason: `${why}; no values change` };
          }
          case 'unchanged':
            return { ...base, action: 'unchanged', validated: true };
          default:
            return { ...base, action: d.action, ...reason };
        }
      },
      (_id, result) => result && objects.push(result),
    );
  }
  for (const [w, wave] of plan.pruneWaves.entries()) {
    for (const id of wave) {
      const current = live.get(idKey(id))!;
      const decision = pruneDecision(state, id, current);
      const base = { id, apiVersion: current.apiVersion, wave: w + 1 };
      if (!decision) objects.push({ ...base, action: 'prune', reason: 'no longer in the package' });
      else {
        const reason = await withOwner(state, decision.reason);
        objects.push({ ...base, ...previewOfSkip(reason, { ...req.options, abandon: decision.abandon }) });
      }
    }
  }

  const summary = emptySummary();
  for (const o of objects) {
    summary[o.action]++;
    if (o.blocked) summary.blocked++;
  }
  const explicitEdges = plan.edges.filter((e) => !e.implicit);
  return {
    package: req.packagePath,
    summary,
    objects,
    waves: plan.applyWaves.map((w) => w.map(shortName)),
    edges: explicitEdges.map((e) => ({ from: shortName(e.from), to: shortName(e.to) })),
    context: {
      fieldManager: req.options.fieldManager,
      namespace: req.inventory.namespace,
      ...req.context,
      durationMs: Date.now() - started,
    },
  };
}

/** Why an apply that changes no value still writes the object: what happens to its field ownership. */
function ownershipMove(live: KubeObject, apiVersion: string, fieldManager: string): string {
  const entries = (live.metadata.managedFields ?? []) as {
    manager?: string;
    operation?: string;
    apiVersion?: string;
  }[];
  const ours = entries.find((e) => e.manager === fieldManager && e.operation === 'Apply');
  if (ours?.apiVersion && ours.apiVersion !== apiVersion)
    return `the field ownership of ${fieldManager} is recorded under ${apiVersion} instead of ${ours.apiVersion}`;
  return `field ownership moves to ${fieldManager}`;
}
