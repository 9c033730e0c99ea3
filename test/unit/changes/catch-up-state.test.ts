import { describe, expect, it } from 'vitest';
import { type CatchUpRun, nextWatermark } from '../../../src/changes/catch-up-state.js';
import type { Watermark } from '../../../src/inventory/watermark.js';

const inv = (name: string) => ({ name, namespace: 'ns', id: `${name}-id` });
const run = (extra: Partial<CatchUpRun>): CatchUpRun => ({
  head: 'h'.repeat(40),
  at: '2026-03-01T00:00:00Z',
  units: { 'deploy/a': inv('a'), 'deploy/b': inv('b') },
  trees: { 'deploy/a': 'ta', 'deploy/b': 'tb' },
  results: [],
  complete: true,
  ...extra,
});

describe('the watermark after a catch-up run', () => {
  it('the first one knows every unit the run covers, and the commit when every package succeeded', () => {
    const next = nextWatermark(
      undefined,
      run({ results: [{ path: 'deploy/a', removed: false, tree: 'ta', outcome: 'success' }] }),
    );
    expect(next).toEqual({
      commit: 'h'.repeat(40),
      units: { 'deploy/a': inv('a'), 'deploy/b': inv('b') },
      held: {},
      updatedAt: '2026-03-01T00:00:00Z',
    });
  });

  it('later ones add what was applied, drop what was destroyed, and hold what failed', () => {
    const prev: Watermark = {
      commit: 'p'.repeat(40),
      units: { 'deploy/a': inv('a'), 'deploy/gone': inv('gone'), 'deploy/other-job': inv('o') },
      held: {},
    };
    const next = nextWatermark(
      prev,
      run({
        units: { 'deploy/a': inv('a'), 'deploy/b': inv('b'), 'deploy/new': inv('new'), 'deploy/c': inv('c') },
        results: [
          { path: 'deploy/new', removed: false, tree: 'tn', outcome: 'success' },
          { path: 'deploy/gone', removed: true, outcome: 'success' },
          {
            path: 'deploy/c',
            removed: false,
            tree: 'tc',
            outcome: 'failed',
            error: 'Deployment/web timed out\nmore',
          },
        ],
      }),
    );
    // deploy/b was neither known nor applied: the next run still finds it new; another job's unit stays
    expect(Object.keys(next.units).sort()).toEqual(['deploy/a', 'deploy/new', 'deploy/other-job']);
    expect(next.commit).toBe('p'.repeat(40));
    expect(next.held).toEqual({
      'deploy/c': {
        tree: 'tc',
        commit: 'h'.repeat(40),
        reason: 'Deployment/web timed out',
        at: '2026-03-01T00:00:00Z',
      },
    });
    // a run that stopped early does not advance the commit either
    expect(nextWatermark(prev, run({ complete: false })).commit).toBe('p'.repeat(40));
    expect(nextWatermark(prev, run({})).commit).toBe('h'.repeat(40));
  });

  it('releases a hold on success or when the tree changed, and keeps a held deletion known', () => {
    const prev: Watermark = {
      commit: 'p'.repeat(40),
      units: { 'deploy/a': inv('a'), 'deploy/gone': inv('gone') },
      held: {
        'deploy/a': { tree: 'old', commit: 'c', reason: 'x', at: 't' },
        'deploy/b': { tree: 'tb', commit: 'c', reason: 'x', at: 't' },
        'deploy/gone': { tree: '', commit: 'c', reason: 'refused', at: 't', removalRefused: true },
      },
    };
    const next = nextWatermark(
      prev,
      run({
        results: [
          { path: 'deploy/b', removed: false, tree: 'tb', outcome: 'success' },
          { path: 'deploy/gone', removed: true, outcome: 'error', removalRefused: true },
        ],
      }),
    );
    expect(next.held['deploy/a']).toBeUndefined();
    expect(next.held['deploy/b']).toBeUndefined();
    expect(next.held['deploy/gone']).toMatchObject({
      tree: '',
      removalRefused: true,
      commit: 'h'.repeat(40),
    });
    expect(Object.keys(next.units).sort()).toEqual(['deploy/a', 'deploy/b', 'deploy/gone']);
    // a deletion nothing is left of, or a unit that moved, is forgotten
    const forgotten = nextWatermark(prev, run({ forget: ['deploy/gone'] }));
    expect(forgotten.held['deploy/gone']).toBeUndefined();
    expect(forgotten.units['deploy/gone']).toBeUndefined();
  });
});
