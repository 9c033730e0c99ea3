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
  ])('$name', ({ vertices, edges, left }) => {
    expect([...verticesInCycles(vertices, edges)].sort()).toEqual(left);
  });
});
