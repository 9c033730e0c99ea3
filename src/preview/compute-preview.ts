import { applyObject } from '../apply/apply-object.js';
import { applySkip } from '../apply/apply-wave.js';
import { withOwner } from '../apply/owner-lookup.js';
import { missingPrerequisite } from '../apply/preflight.js';
import { pruneDecision } from '../apply/prune-wave.js';
import { readRunInput } from '../apply/run-input.js';
import type { RunOptions } from '../apply/run-options.js';
import { runOrdered } from '../apply/run-ordered.js';
import { newRunState } from '../apply/run-state.js';
import { immutableFields, type UpdateStrategy, updateStrategyOf } from '../apply/update-strategy.js';
import { Annotations, ResourceGroupApiVersion, ResourceGroupKind } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import type { InventoryRef } from '../inventory/inventory-types.js';
import { readClusterInventory } from '../inventory/read-inventory.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { formatPlanErrors } from '../plan/errors.js';
import { idKey, shortName } from '../plan/object-id.js';
import { diffObjects } from './diff.js';
import { managedFieldsChange } from './managed-fields.js';
import { collectSecretValues } from './redact.js';
import { previewOfSkip } from './skip-preview.js';
import { emptySummary, type PreviewDocument, type PreviewObject, type SourceRef } from './types.js';

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
  const secretValues = collectSecretValues([
    ...manifests.values(),
    ...[...live.values()].map((o) => o ?? undefined),
  ]);
  const objects: PreviewObject[] = [];

  for (const [w, wave] of plan.applyWaves.entries()) {
    await runOrdered(
      wave,
      req.options.concurrency,
      async (id): Promise<PreviewObject> => {
        const key = idKey(id);
        const manifest = manifests.get(key)!;
        const base = { id, apiVersion: manifest.apiVersion, source: sources.get(key), wave: w + 1 };
        const skip = applySkip(state, id);
        if (skip) {
          // what depends on it is not applied either
          state.blocked.set(key, 'apply actuation skipped');
          const shown = previewOfSkip(await withOwner(state, skip), req.options);
          return { ...base, ...shown };
        }
        const current = live.get(key) ?? undefined;
        const prerequisite = missingPrerequisite(state, id);
        if (prerequisite) {
          return {
            ...base,
            action: 'create',
            validated: false,
            reason: `not validated: depends on ${shortName(prerequisite)} created by this package`,
            ...diffObjects(undefined, manifest, { secretValues }),
          };
        }
        let strategy: UpdateStrategy;
        try {
          strategy = updateStrategyOf(manifest, req.options.defaultUpdateStrategy);
        } catch (err) {
          return { ...base, action: 'error', reason: (err as Error).message };
        }
        if (current && strategy === 'skip') {
          return {
            ...base,
            action: 'skip',
            reason: `${Annotations.KappUpdateStrategy}: skip (the live object is left as it is)`,
          };
        }
        if (current && strategy === 'always-replace') {
          return {
            ...base,
            action: 'replace',
            reason: `${Annotations.KappUpdateStrategy}: always-replace (deleted and created again)`,
          };
        }
        try {
          const { object } = await applyObject(req.client, manifest, current ?? null, {
            fieldManager: req.options.fieldManager,
            force: req.options.forceConflicts,
            dryRun: true,
          });
          if (!current)
            return {
              ...base,
              action: 'create',
              validated: true,
              ...diffObjects(undefined, object, { secretValues }),
            };
          const d = diffObjects(current, object, { secretValues, reportRemovals: true });
          if (d.changes.length > 0) return { ...base, action: 'configure', validated: true, ...d };
          if (managedFieldsChange(current, object)) {
            return {
              ...base,
              action: 'configure',
              validated: true,
              reason: `field ownership moves to ${req.options.fieldManager}; no values change`,
            };
          }
          return { ...base, action: 'unchanged', validated: true };
        } catch (err) {
          const fields = immutableFields(err);
          if (current && fields && strategy === 'fallback-on-replace') {
            return {
              ...base,
              action: 'replace',
              reason: `replace (immutable field${fields.length === 1 ? '' : 's'} ${fields.join(', ') || 'changed'})`,
            };
          }
          const hint = fields
            ? `; set ${Annotations.KappUpdateStrategy}: fallback-on-replace to delete and re-create it`
            : '';
          return { ...base, action: 'error', reason: `${(err as Error).message}${hint}` };
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
