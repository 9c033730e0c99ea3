import { describe, expect, it } from 'vitest';
import { verticesInCycles } from '../../../src/package/dependency-check.js';

describe('verticesInCycles', () => {
  it.each<{ name: string; vertices: string[]; edges: [string, string][]; left: string[] }>([
    { name: 'no edges', vertices: ['a', 'b'], edges: [], left: [] },
    {
      name: 'a chain',
      vertices: ['a', 'b', 'c'],
      edges: [
        ['a', 'b'],
        ['b', 'c'],
      ],
      left: [],
    },
    {
      name: 'a diamond',
      vertices: ['a', 'b', 'c', 'd'],
      edges: [
        ['a', 'b'],
        ['a', 'c'],
        ['b', 'd'],
        ['c', 'd'],
      ],
      left: [],
    },
    {
      name: 'two-cycle',
      vertices: ['a', 'b', 'c'],
      edges: [
        ['a', 'b'],
        ['b', 'a'],
      ],
      left: ['a', 'b'],
    },
    { name: 'self-dependency', vertices: ['a', 'b'], edges: [['a', 'a']], left: ['a'] },
    {
      name: 'a dependent of a cycle is left too (as in cli-utils)',
      vertices: ['a', 'b', 'x', 'y'],
      edges: [
        ['a', 'b'],
        ['b', 'a'],
        ['x', 'a'],
        ['a', 'y'],
      ],
      left: ['a', 'b', 'x'],
    },
    {
      name: 'an edge to a vertex outside the set holds its source (and what depends on it)',
      vertices: ['a', 'b', 'c'],
      edges: [
        ['a', 'z'],
        ['b', 'a'],
      ],
      left: ['a', 'b'],
    },
  ])('$name', ({ vertices, edges, left }) => {
    expect([...verticesInCycles(vertices, edges)].sort()).toEqual(left);
  });

  it('peels a long chain and many leaves, and finds a cycle at the end of it', () => {
    const n = 20_000;
    const vertices = Array.from({ length: n }, (_, i) => `v${i}`);
    // v0 -> v1 -> ... -> v9999, the rest depend on nothing
    const chain: [string, string][] = vertices.slice(0, n / 2 - 1).map((v, i) => [v, `v${i + 1}`]);
    expect(verticesInCycles(vertices, chain).size).toBe(0);
    // close the chain into a loop: all of it is left, none of the leaves
    const loop = verticesInCycles(vertices, [...chain, [`v${n / 2 - 1}`, 'v0']]);
    expect(loop.size).toBe(n / 2);
    expect(loop.has(`v${n / 2}`)).toBe(false);
  });
});
