import { compareIds, idKey, type ObjectId } from '../common/object-id.js';
import { compareForApply } from './kind-order.js';

export interface Layering {
  /** Layer 0 holds the objects that depend on nothing; each later layer depends only on earlier ones. */
  layers: ObjectId[][];
  /** What is left when no object is free of dependencies: a cycle and everything waiting on it. */
  cycle?: {
    /** The objects left over, in apply order (cli-utils attaches the cycle error to each). */
    ids: ObjectId[];
    /** The edges among them, sorted by from then to (cli-utils' order for its message). */
    edges: { from: ObjectId; to: ObjectId }[];
  };
}

/**
 * cli-utils' Graph.Sort as a Kahn layering: take every vertex with no remaining outgoing edge as one
 * layer, remove it, repeat. Done with out-degree counters and reverse adjacency lists, so it costs
 * O(V + E) instead of cli-utils' repeated scans. Edges whose ends are not vertices are ignored.
 */
export function layerGraph(
  ids: readonly ObjectId[],
  edges: readonly { from: ObjectId; to: ObjectId }[],
): Layering {
  const outDegree = new Map<string, number>();
  const dependents = new Map<string, ObjectId[]>();
  for (const id of ids) {
    outDegree.set(idKey(id), 0);
    dependents.set(idKey(id), []);
  }
  for (const { from, to } of edges) {
    const fromKey = idKey(from);
    const toKey = idKey(to);
    if (!outDegree.has(fromKey) || !outDegree.has(toKey)) continue;
    outDegree.set(fromKey, (outDegree.get(fromKey) ?? 0) + 1);
    dependents.get(toKey)?.push(from);
  }

  const layers: ObjectId[][] = [];
  let current = ids.filter((id) => outDegree.get(idKey(id)) === 0);
  let placed = 0;
  while (current.length > 0) {
    layers.push(current);
    placed += current.length;
    const next: ObjectId[] = [];
    for (const done of current) {
      for (const dependent of dependents.get(idKey(done)) ?? []) {
        const key = idKey(dependent);
        const left = (outDegree.get(key) ?? 0) - 1;
        outDegree.set(key, left);
        if (left === 0) next.push(dependent);
      }
    }
    current = next;
  }
  if (placed === ids.length) return { layers };

  const leftKeys = new Set(ids.filter((id) => (outDegree.get(idKey(id)) ?? 0) > 0).map(idKey));
  const cycleIds = ids.filter((id) => leftKeys.has(idKey(id))).sort(compareForApply);
  const cycleEdges = edges
    .filter((e) => leftKeys.has(idKey(e.from)) && leftKeys.has(idKey(e.to)))
    .map(({ from, to }) => ({ from, to }))
    .sort((a, b) => compareIds(a.from, b.from) || compareIds(a.to, b.to));
  return { layers, cycle: { ids: cycleIds, edges: cycleEdges } };
}

/**
 * cli-utils' HydrateSetList: keeps only the ids in `keep` (apply objects, or prune objects), sorts each
 * wave by kind order and drops the waves left empty.
 */
export function selectWaves(layers: readonly ObjectId[][], keep: ReadonlySet<string>): ObjectId[][] {
  return layers
    .map((layer) => layer.filter((id) => keep.has(idKey(id))).sort(compareForApply))
    .filter((wave) => wave.length > 0);
}

/**
 * cli-utils' ReverseSetList: prune and destroy undo apply order, so both the waves and the objects
 * inside each wave are reversed (dependents go before what they depend on).
 */
export function reverseWaves(waves: readonly ObjectId[][]): ObjectId[][] {
  return waves.map((wave) => [...wave].reverse()).reverse();
}
