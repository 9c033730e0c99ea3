import { type KubeObject, splitApiVersion } from '../common/kube-object.js';
import { idKey, type ObjectId } from '../common/object-id.js';
import { sharesWithHandEdits } from '../inventory/field-owners.js';
import { applyBlockedBy } from '../inventory/ownership.js';
import { dependenciesOf } from '../plan/plan.js';
import { explainApplyError, isUnanswered } from './apply-error.js';
import { askServer, ownerContext } from './ask-server.js';
import { takeoverManagers } from './client-side-takeover.js';
import { type Decision, decideFromAnswer, decideLocally, type ObjectFacts, unjudged } from './decision.js';
import { provenNoOp } from './proven-no-op.js';
import type { RunState } from './run-state.js';
import type { SkipReason } from './skip-reason.js';
import { updateStrategyOf } from './update-strategy.js';

/**
 * Why an object may not be applied now (kpt's DependencyFilter and InventoryPolicyApplyFilter), if so,
 * as data (the owner's ResourceGroup is not looked up yet: `withOwner`).
 */
export function applySkip(state: RunState, id: ObjectId): SkipReason | undefined {
  for (const dep of dependenciesOf(state.plan, id)) {
    const depKey = idKey(dep);
    if (!state.manifests.has(depKey))
      return { type: 'dependency', dependency: dep, cause: 'scheduled for delete' };
    const why = state.blocked.get(depKey);
    if (why) return { type: 'dependency', dependency: dep, cause: why };
  }
  const live = state.live.get(idKey(id));
  const refused = applyBlockedBy(live ?? undefined, state.inventory.id, state.options.inventoryPolicy);
  if (!refused) return undefined;
  return {
    type: 'inventory-policy',
    strategy: 'Apply',
    match: refused.match,
    policy: state.options.inventoryPolicy,
    ...(refused.owner ? { owner: { id: refused.owner } } : {}),
  };
}

/**
 * The Namespace or CRD that this package creates and that does not exist yet, which a server-side dry-run
 * of `id` would trip over; undefined when the dry-run can be trusted now.
 */
export function missingPrerequisite(state: RunState, id: ObjectId): ObjectId | undefined {
  for (const dep of dependenciesOf(state.plan, id)) {
    const isNamespace = dep.group === '' && dep.kind === 'Namespace';
    const isCrd = dep.group === 'apiextensions.k8s.io' && dep.kind === 'CustomResourceDefinition';
    if ((isNamespace || isCrd) && state.manifests.has(idKey(dep)) && !state.live.get(idKey(dep))) return dep;
  }
  return undefined;
}

/**
 * The decision for one package object, as a dry run takes it (the preview, the pre-flight, drift): the facts
 * about it (decideLocally), then, when only the server can tell and the run's ask policy says so, the
 * server's answer to a dry-run apply (decideFromAnswer). Sends only dry-runs; never throws.
 */
export async function decideObject(
  state: RunState,
  id: ObjectId,
  /** The object as read again (a write found it changed since the run's read); the server is always asked. */
  fresh?: KubeObject | null,
): Promise<Decision> {
  try {
    const facts = await factsOf(state, id, fresh);
    const local = decideLocally(facts);
    if (local) return local;
    if (fresh === undefined && !asks(state, id)) return unjudged(facts);
    return decideFromAnswer(facts, await askServer(state, facts.manifest, facts.live));
  } catch (err) {
    // discovery could not be read: the server never judged the object
    return {
      action: 'error',
      validated: false,
      reason: explainApplyError(err).message,
      unanswered: isUnanswered(err),
    };
  }
}

async function factsOf(state: RunState, id: ObjectId, fresh?: KubeObject | null): Promise<ObjectFacts> {
  const key = idKey(id);
  const manifest = state.manifests.get(key)!;
  const live = (fresh === undefined ? state.live.get(key) : fresh) ?? undefined;
  const { fieldManager } = state.options;
  const base = { id, manifest, live, fieldManager, crdInPackage: false, provenUnchanged: false };
  const skip = applySkip(state, id);
  if (skip) return { ...base, skip, strategy: '' };
  const prerequisite = missingPrerequisite(state, id);
  if (prerequisite) return { ...base, prerequisite, strategy: '' };
  let strategy: ObjectFacts['strategy'];
  try {
    strategy = updateStrategyOf(manifest, state.options.defaultUpdateStrategy);
  } catch (err) {
    strategy = err as Error;
  }
  const info = await state.client.resolve(manifest.apiVersion, manifest.kind);
  const absorbed = takeoverManagers(live);
  const takenOver = absorbed.size > 0 ? [...absorbed].sort() : undefined;
  // what our own last apply left in place needs no dry-run to be known unchanged (an exhaustive preview and
  // `preflight: all` ask the server about every object all the same)
  const exhaustive = (state.ask.kind === 'all' && state.ask.exhaustive) || fresh !== undefined;
  const provenUnchanged =
    !!live &&
    !takenOver &&
    !exhaustive &&
    provenNoOp(live, manifest, fieldManager) &&
    !sharesWithHandEdits(live, ownerContext(state, manifest, live));
  return {
    ...base,
    info,
    crdInPackage: !info && crdInPackage(state, manifest),
    strategy,
    ...(takenOver ? { takenOver } : {}),
    provenUnchanged,
  };
}

/** Whether this run asks the server about `id` (its policy; for a sample, `preflightSample`). */
function asks(state: RunState, id: ObjectId): boolean {
  switch (state.ask.kind) {
    case 'all':
      return true;
    case 'none':
      return false;
    case 'sample':
      return preflightSample(state).has(idKey(id));
  }
}

const samples = new WeakMap<RunState, Set<string>>();

/**
 * The pre-flight's `auto` sample: every object that exists, every object of the later waves, and of the first
 * wave's new objects the first of each kind and namespace that the server can judge (a wave is ordered by
 * kind, then by id). The rest of the first wave is judged by its own write, as kpt does.
 */
export function preflightSample(state: RunState): Set<string> {
  let sample = samples.get(state);
  if (sample) return sample;
  sample = new Set();
  const firstWave = new Set((state.plan.applyWaves[0] ?? []).map(idKey));
  const sampled = new Set<string>();
  for (const id of state.plan.applyWaves.flat()) {
    const key = idKey(id);
    if (!firstWave.has(key) || state.live.get(key)) {
      sample.add(key);
      continue;
    }
    if (missingPrerequisite(state, id) || applySkip(state, id)) continue;
    const kindNs = `${id.group}/${id.kind}/${id.namespace}`;
    if (sampled.has(kindNs)) continue;
    sampled.add(kindNs);
    sample.add(key);
  }
  samples.set(state, sample);
  return sample;
}

function crdInPackage(state: RunState, manifest: KubeObject): boolean {
  const { group } = splitApiVersion(manifest.apiVersion);
  return [...state.manifests.values()].some(
    (m) =>
      m.kind === 'CustomResourceDefinition' && (m.spec as { group?: string } | undefined)?.group === group,
  );
}
