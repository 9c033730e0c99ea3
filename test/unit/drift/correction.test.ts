import { describe, expect, it } from 'vitest';
import { holdOf, type RecordView, recordView } from '../../../src/changes/catch-up.js';
import {
  correctionFailed,
  type DriftCorrection,
  driftExitCode,
  driftRemains,
  needsReapply,
} from '../../../src/drift/correction.js';
import type { DriftObject } from '../../../src/drift/types.js';

const id = (kind: string, name: string) => ({ group: '', kind, namespace: 'shop', name });
const obj = (drift: DriftObject['drift'], name = 'x'): DriftObject => ({ id: id('ConfigMap', name), drift });
const fix = (result: DriftCorrection['result']): DriftCorrection => ({ result });

describe('drift correction: what is re-applied and how the run ends', () => {
  it('re-applies configure, create and prune drift; status drift alone is left', () => {
    expect(needsReapply([obj('status')])).toBe(false);
    expect(needsReapply([obj('status', 'a'), obj('configure', 'b')])).toBe(true);
    expect(needsReapply([obj('create')])).toBe(true);
    expect(needsReapply([obj('prune')])).toBe(true);
    expect(needsReapply([])).toBe(false);
  });

  it('exit codes: 0 in sync or corrected, 3 a correction failed or was skipped, 4 drift left, 1 not checked', () => {
    expect(driftExitCode({ outcome: 'in-sync' })).toBe(0);
    expect(driftExitCode({ outcome: 'error' })).toBe(1);
    expect(driftExitCode({ outcome: 'drifted' })).toBe(4);
    expect(driftExitCode({ outcome: 'drifted', correction: fix('corrected') })).toBe(0);
    expect(driftExitCode({ outcome: 'drifted', correction: fix('failed') })).toBe(3);
    expect(driftExitCode({ outcome: 'drifted', correction: fix('skipped') })).toBe(3);
    expect(driftExitCode({ outcome: 'drifted', correction: fix('held') })).toBe(4);
    expect(driftExitCode({ outcome: 'drifted', correction: fix('left') })).toBe(4);
  });

  it('fail-on-drift counts the drift a run leaves: never corrected, held, left, failed; not corrected ones', () => {
    expect(driftRemains({ drifted: false })).toBe(false);
    expect(driftRemains({ drifted: true })).toBe(true);
    expect(driftRemains({ drifted: true, correction: fix('corrected') })).toBe(false);
    for (const r of ['failed', 'skipped', 'held', 'left'] as const)
      expect(driftRemains({ drifted: true, correction: fix(r) }), r).toBe(true);
    expect(
      [fix('failed'), fix('skipped'), fix('held'), fix('left'), undefined].map(correctionFailed),
    ).toEqual([true, true, false, false, false]);
  });
});

describe("held: catch-up's rule, in drift correction's words", () => {
  const tree = (c: string) => c.repeat(40);
  let clock = 0;
  const rec = (mode: string, result: RecordView['result'], commit: string, t: string): RecordView => ({
    mode,
    result,
    commit: commit.repeat(40),
    tree: tree(t),
    startedAt: new Date(Date.UTC(2026, 0, 1) + ++clock * 1000).toISOString(),
  });
  const retry = 'not corrected until deploy/a changes or `kpt-live apply deploy/a` succeeds';

  it('holds the tree whose apply failed, and the one rolled back; a later success or another tree releases', () => {
    const newestFirst = (...r: RecordView[]) => r.sort((x, y) => (x.startedAt < y.startedAt ? 1 : -1));
    const ok = rec('apply', 'success', 'a', '1');
    const failed = newestFirst(ok, rec('apply', 'failed', 'b', '2'));
    expect(holdOf('deploy/a', failed, tree('2'), undefined, retry)).toEqual({
      reason: `tree of bbbbbbb failed; ${retry}`,
      commit: 'b'.repeat(40),
    });
    expect(holdOf('deploy/a', failed, tree('3'), undefined, retry)).toBeUndefined();
    const rolledBack = newestFirst(...failed, rec('rollback', 'success', 'a', '1'));
    expect(holdOf('deploy/a', rolledBack, tree('2'), undefined, retry)?.reason).toBe(
      `tree of bbbbbbb failed and was rolled back; ${retry}`,
    );
    const retried = newestFirst(...failed, rec('apply', 'success', 'c', '2'));
    expect(holdOf('deploy/a', retried, tree('2'), undefined, retry)).toBeUndefined();
  });

  it('reads a deploy record as catch-up does (a CLI record has no tree until git fills it in)', () => {
    const view = recordView({
      package: 'deploy/a',
      mode: 'apply',
      commit: 'a'.repeat(40),
      trigger: 'me@host',
      startedAt: '2026-01-01T00:00:00Z',
      finishedAt: '2026-01-01T00:00:09Z',
      result: 'failed',
      counts: {},
      failed: [],
    });
    expect(view).toEqual({
      mode: 'apply',
      result: 'failed',
      startedAt: '2026-01-01T00:00:00Z',
      commit: 'a'.repeat(40),
    });
    expect(holdOf('deploy/a', [view], tree('2'), undefined)).toBeUndefined();
  });
});
