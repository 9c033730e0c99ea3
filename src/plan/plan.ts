import type { KubeObject } from '../common/kube-object.js';
import { idKey, idOf, type ObjectId } from '../common/object-id.js';
import { buildDependencyGraph, type PlanEdge } from './dependency-graph.js';
import { cyclicDependencyMessage, type PlanError } from './errors.js';
import { layerGraph, reverseWaves, selectWaves } from './waves.js';

export interface PlanInput {
  /** The package's objects (namespaces already defaulted). */
  apply: readonly KubeObject[];
  /** Live objects from the inventory no longer in the package (for destroy: the whole inventory). */
  prune: readonly KubeObject[];
  /** Delete everything instead: apply ∪ prune all go into the delete waves. */
  destroy?: boolean;
}

/**
 * What a run will do and in which order, as a plain value: printable with formatPlan, comparable in
 * tests, and the engine's only source of ordering. Treat it as immutable once built (the lookup
 * helpers cache an index per plan).
 */
export interface Plan {
  /** True when the prune waves are destroy's delete waves. */
  destroy: boolean;
  /** Apply waves in order, each sorted by kind order; every wave waits for the previous to reconcile. */
  applyWaves: ObjectId[][];
  /** Prune (or delete) waves in order: reverse layering, reverse kind order within each wave. */
  pruneWaves: ObjectId[][];
  /** Every edge of the graph over apply ∪ prune objects, sorted by from then to. */
  edges: PlanEdge[];
  /** Invalid annotations and cycles; objects with errors are left out of the waves. */
  errors: PlanError[];
}

function uniqueById(objects: readonly KubeObject[], exclude: ReadonlySet<string>): KubeObject[] {
  const seen = new Set(exclude);
  return objects.filter((obj) => {
    const key = idKey(idOf(obj));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Plans a run the way cli-utils' solver does: one dependency graph over apply ∪ prune objects,
 * layered into waves; apply waves are the layers restricted to package objects, prune waves the
 * layers restricted to prune objects, reversed. Objects with invalid dependencies or in a cycle get
 * an error and no wave, as kpt filters invalid objects. An object both in the package and in `prune`
 * is applied, never pruned. O(V + E) apart from sorting each wave.
 */
export function buildPlan(input: PlanInput): Plan {
  const destroy = input.destroy === true;
  const applyObjs = destroy ? [] : uniqueById(input.apply, new Set());
  const applyKeys = new Set(applyObjs.map((obj) => idKey(idOf(obj))));
  const pruneObjs = destroy
    ? uniqueById([...input.apply, ...input.prune], new Set())
    : uniqueById(input.prune, applyKeys);

  const graph = buildDependencyGraph([...applyObjs, ...pruneObjs]);
  const { layers, cycle } = layerGraph(graph.ids, graph.edges);
  const errors = [...graph.errors];
  if (cycle) {
    const message = cyclicDependencyMessage(cycle.edges);
    for (const id of cycle.ids) errors.push({ id, message });
  }

  const invalid = new Set(errors.map((e) => idKey(e.id)));
  const valid = (objs: KubeObject[]): Set<string> =>
    new Set(objs.map((obj) => idKey(idOf(obj))).filter((key) => !invalid.has(key)));
  return {
    destroy,
    applyWaves: selectWaves(layers, valid(applyObjs)),
    pruneWaves: reverseWaves(selectWaves(layers, valid(pruneObjs))),
    edges: graph.edges,
    errors,
  };
}

interface PlanIndex {
  dependencies: Map<string, ObjectId[]>;
  dependents: Map<string, ObjectId[]>;
  waves: Map<string, number>;
}

const indexes = new WeakMap<Plan, PlanIndex>();

function indexPlan(plan: Plan): PlanIndex {
  const cached = indexes.get(plan);
  if (cached) return cached;
  const index: PlanIndex = { dependencies: new Map(), dependents: new Map(), waves: new Map() };
  const append = (map: Map<string, ObjectId[]>, key: string, id: ObjectId): void => {
    const list = map.get(key);
    if (list) list.push(id);
    else map.set(key, [id]);
  };
  for (const { from, to } of plan.edges) {
    append(index.dependencies, idKey(from), to);
    append(index.dependents, idKey(to), from);
  }
  for (const waves of [plan.applyWaves, plan.pruneWaves]) {
    waves.forEach((wave, i) => {
      for (const id of wave) index.waves.set(idKey(id), i);
    });
  }
  indexes.set(plan, index);
  return index;
}

/** What `id` directly depends on (explicit and implicit): the dependency filter checks these before applying it. */
export function dependenciesOf(plan: Plan, id: ObjectId): ObjectId[] {
  return [...(indexPlan(plan).dependencies.get(idKey(id)) ?? [])];
}

/**
 * What directly depends on `id`: an object still depended on by the package is never pruned, and a
 * delete waits for its dependents to be gone.
 */
export function dependentsOf(plan: Plan, id: ObjectId): ObjectId[] {
  return [...(indexPlan(plan).dependents.get(idKey(id)) ?? [])];
}

/**
 * The 0-based wave of `id`: in applyWaves for package objects, in pruneWaves for pruned (or destroyed)
 * objects; undefined when the object has no wave (not planned, or invalid).
 */
export function waveIndexOf(plan: Plan, id: ObjectId): number | undefined {
  return indexPlan(plan).waves.get(idKey(id));
}
