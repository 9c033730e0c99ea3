import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { formatRef, idKey, type ObjectId } from '../../../src/common/object-id.js';
import { buildPlan, type Plan } from '../../../src/plan/index.js';
import { obj } from './objects.js';

/** Every edge's dependency sits in an earlier apply wave, or a later prune wave, than its dependent. */
function expectOrdered(plan: Plan): void {
  const applyWave = new Map<string, number>();
  const pruneWave = new Map<string, number>();
  plan.applyWaves.forEach((w, i) => {
    for (const id of w) applyWave.set(idKey(id), i);
  });
  plan.pruneWaves.forEach((w, i) => {
    for (const id of w) pruneWave.set(idKey(id), i);
  });
  for (const { from, to } of plan.edges) {
    const [fa, ta] = [applyWave.get(idKey(from)), applyWave.get(idKey(to))];
    if (fa !== undefined && ta !== undefined) expect(fa).toBeGreaterThan(ta);
    const [fp, tp] = [pruneWave.get(idKey(from)), pruneWave.get(idKey(to))];
    if (fp !== undefined && tp !== undefined) expect(fp).toBeLessThan(tp);
  }
}

/**
 * 20 namespaces of 100 objects: the Namespace, a ConfigMap, 48 Deployments that depend on it,
 * 48 Services that each depend on one Deployment and 2 Services that depend on nothing explicit.
 */
function bigPackage(): KubeObject[] {
  const out: KubeObject[] = [];
  for (let n = 0; n < 20; n++) {
    const ns = `team-${String(n).padStart(2, '0')}`;
    // services first, so input order cannot be what produces the waves
    for (let i = 0; i < 50; i++) {
      const dep = i < 48 ? `apps/namespaces/${ns}/Deployment/web-${i}` : undefined;
      out.push(obj('v1', 'Service', `svc-${i}`, ns, dep));
    }
    for (let i = 0; i < 48; i++)
      out.push(obj('apps/v1', 'Deployment', `web-${i}`, ns, `/namespaces/${ns}/ConfigMap/cfg`));
    out.push(obj('v1', 'ConfigMap', 'cfg', ns));
    out.push(obj('v1', 'Namespace', ns));
  }
  return out;
}

const kinds = (wave: ObjectId[]): string[] => [...new Set(wave.map((id) => id.kind))];

describe('large packages', () => {
  it('plans 2000 objects into four waves', () => {
    const apply = bigPackage();
    expect(apply).toHaveLength(2000);
    const plan = buildPlan({ apply, prune: [] });
    expect(plan.errors).toEqual([]);
    expect(plan.applyWaves.map((w) => w.length)).toEqual([20, 60, 960, 960]);
    expect(plan.applyWaves.map(kinds)).toEqual([
      ['Namespace'],
      ['ConfigMap', 'Service'],
      ['Deployment'],
      ['Service'],
    ]);
    expect(plan.edges).toHaveLength(2000 - 20 + 48 * 20 * 2);
    expectOrdered(plan);
  });

  it('prunes the same 2000 objects in the reverse order', () => {
    const plan = buildPlan({ apply: [], prune: bigPackage() });
    expect(plan.pruneWaves.map((w) => w.length)).toEqual([960, 960, 60, 20]);
    expect(plan.pruneWaves.map(kinds)).toEqual([
      ['Service'],
      ['Deployment'],
      ['Service', 'ConfigMap'],
      ['Namespace'],
    ]);
    expectOrdered(plan);
  });

  it('handles a 1500-link chain', () => {
    const chain = Array.from({ length: 1500 }, (_, i) =>
      obj('v1', 'ConfigMap', `c-${i}`, 'ns', i > 0 ? `/namespaces/ns/ConfigMap/c-${i - 1}` : undefined),
    ).reverse();
    const plan = buildPlan({ apply: chain, prune: [] });
    expect(plan.applyWaves).toHaveLength(1500);
    expect(plan.applyWaves[0][0].name).toBe('c-0');
    expect(plan.applyWaves[1499][0].name).toBe('c-1499');
  });
});

/** A small deterministic PRNG (mulberry32), so failures reproduce. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** cli-utils' Graph.Sort as written in Go: rescan for leaves, remove them, repeat. */
function naiveLayers(deps: Map<string, Set<string>>): string[][] {
  const left = new Map([...deps].map(([k, v]) => [k, new Set(v)]));
  const layers: string[][] = [];
  while (left.size > 0) {
    const leaves = [...left].filter(([, v]) => v.size === 0).map(([k]) => k);
    if (leaves.length === 0) throw new Error('cycle');
    for (const leaf of leaves) left.delete(leaf);
    for (const v of left.values()) for (const leaf of leaves) v.delete(leaf);
    layers.push(leaves.sort());
  }
  return layers;
}

describe('random acyclic graphs', () => {
  it.each([1, 2, 3, 4, 5])('seed %i: same layers as the naive algorithm', (seed) => {
    const rnd = random(seed);
    const ids = Array.from({ length: 300 }, (_, i) => ({
      group: '',
      kind: 'ConfigMap',
      namespace: 'ns',
      name: `o${i}`,
    }));
    const deps = new Map<string, Set<string>>();
    const objs = ids.map((id, i) => {
      // depend only on lower indexes, so the graph is acyclic
      const targets = new Set<number>();
      for (let k = 0; k < 3; k++) if (i > 0 && rnd() < 0.5) targets.add(Math.floor(rnd() * i));
      deps.set(id.name, new Set([...targets].map((t) => `o${t}`)));
      const dependsOn = [...targets].map((t) => formatRef(ids[t])).join(',');
      return obj('v1', 'ConfigMap', id.name, 'ns', dependsOn || undefined);
    });
    // split into apply and prune halves to exercise both filters over one layering
    const apply = objs.filter((_, i) => i % 2 === 0);
    const prune = objs.filter((_, i) => i % 2 === 1);
    const plan = buildPlan({ apply: [...apply].reverse(), prune });
    const layers = naiveLayers(deps);
    const pick = (parity: number): string[][] =>
      layers.map((l) => l.filter((n) => Number(n.slice(1)) % 2 === parity)).filter((l) => l.length > 0);
    expect(plan.applyWaves.map((w) => w.map((id) => id.name).sort())).toEqual(pick(0));
    expect(plan.pruneWaves.map((w) => w.map((id) => id.name).sort())).toEqual(pick(1).reverse());
    expectOrdered(plan);
  });
});
