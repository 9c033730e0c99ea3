import { applySkip, missingPrerequisite } from '../apply/decide-object.js';
import { pruneDecision } from '../apply/prune-wave.js';
import type { RunState } from '../apply/run-state.js';
import { type UpdateStrategy, updateStrategyOf } from '../apply/update-strategy.js';
import { idKey, type ObjectId } from '../common/object-id.js';
import { configureDiff, runSecretValues } from './object-changes.js';
import { type PlanEntry, planEntry, sortPlan } from './plan-digest.js';

/**
 * The adapter between the engine's pre-flight and the plan-drift check: what the pre-flight decided for
 * each object, as plan entries comparable with a preview's (`planFromPreview`). It reads only the state
 * the pre-flight leaves (live objects, dry-run results, the skip/prune decisions), so a change in how the
 * engine stores those decisions is absorbed here. Undefined when nothing was dry-run (`preflight: off`):
 * without the server's answer a configure's changes are unknown.
 */
export function plannedActions(state: RunState): PlanEntry[] | undefined {
  if (state.options.preflight === 'off') return undefined;
  const secretValues = runSecretValues(state.manifests.values(), state.live.values());
  const entries: PlanEntry[] = [];
  for (const id of state.plan.applyWaves.flat()) entries.push(applyEntry(state, id, secretValues));
  if (state.options.prune) {
    for (const id of state.plan.pruneWaves.flat()) {
      const live = state.live.get(idKey(id));
      if (!live) continue;
      const decision = pruneDecision(state, id, live);
      entries.push(planEntry(id, !decision ? 'prune' : decision.abandon ? 'orphan' : 'skip'));
    }
  }
  return sortPlan(entries);
}

function applyEntry(state: RunState, id: ObjectId, secretValues: readonly string[]): PlanEntry {
  const key = idKey(id);
  const desired = state.manifests.get(key)!;
  if (applySkip(state, id)) return planEntry(id, 'skip');
  if (missingPrerequisite(state, id)) return planEntry(id, 'create', { desired });
  let strategy: UpdateStrategy;
  try {
    strategy = updateStrategyOf(desired, state.options.defaultUpdateStrategy);
  } catch {
    return planEntry(id, 'error');
  }
  const live = state.live.get(key);
  if (!live) return planEntry(id, 'create', { desired });
  if (strategy === 'skip') return planEntry(id, 'skip');
  if (strategy === 'always-replace') return planEntry(id, 'replace');
  const answer = state.preflight.get(key);
  if (answer?.unchanged) return planEntry(id, 'unchanged');
  const dryRun = answer?.object;
  // an existing object the pre-flight did not get an object back for: its immutable fields change
  // (fallback-on-replace), so it is re-created
  if (!dryRun) return planEntry(id, 'replace');
  const { changes } = configureDiff(live, dryRun, secretValues);
  return planEntry(id, 'configure', { changes });
}
