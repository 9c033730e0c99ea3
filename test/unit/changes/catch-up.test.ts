import { describe, expect, it } from 'vitest';
import { type CatchUpInput, catchUp, type RecordView } from '../../../src/changes/catch-up.js';

const sha = (c: string) => c.repeat(40);
const tree = (c: string) => `${c}${'0'.repeat(39)}`;
const HEAD = sha('f');
let clock = 0;
/** A deploy record; later calls are newer. */
const rec = (mode: string, result: RecordView['result'], commit: string, t?: string): RecordView => ({
  mode,
  result,
  commit: sha(commit),
  ...(t ? { tree: tree(t) } : {}),
  startedAt: new Date(Date.UTC(2026, 0, 1) + ++clock * 1000).toISOString(),
});
/** Records newest first, from oldest-first arguments. */
const history = (...records: RecordView[]) => [...records].reverse();

const input = (extra: Partial<CatchUpInput>): CatchUpInput => ({
  head: HEAD,
  units: [],
  gone: [],
  touched: new Set(),
  push: { before: sha('e'), after: HEAD },
  ...extra,
});
const paths = (list: { path: string }[]) => list.map((e) => e.path);

describe('catch-up: which packages a push applies', () => {
  it('runs a package whose tree differs from the last one applied, even when the push did not touch it', () => {
    const r = catchUp(
      input({
        units: [
          { path: 'deploy/a', tree: tree('2'), records: history(rec('apply', 'success', 'a', '1')) },
          { path: 'deploy/b', tree: tree('3'), records: history(rec('apply', 'success', 'b', '3')) },
        ],
      }),
    );
    expect(r.run).toEqual([
      {
        path: 'deploy/a',
        removed: false,
        reason: 'changed since aaaaaaa, the last commit applied here',
        base: sha('a'),
        tree: tree('2'),
      },
    ]);
    expect(r.upToDate).toEqual([{ path: 'deploy/b', reason: 'bbbbbbb applied here' }]);
  });

  it('runs what the push touched, with the last applied commit as the base of its pull requests', () => {
    const r = catchUp(
      input({
        units: [{ path: 'deploy/a', tree: tree('1'), records: history(rec('apply', 'success', 'a', '1')) }],
        touched: new Set(['deploy/a']),
      }),
    );
    expect(r.run[0].reason).toBe('changed by this push (eeeeeee..fffffff)');
    expect(r.run[0].base).toBe(sha('a'));
  });

  it('holds a tree whose apply failed, until the tree changes, a successful apply, or the push touches it', () => {
    const failed = history(rec('apply', 'success', 'a', '1'), rec('apply', 'failed', 'b', '2'));
    const held = catchUp(input({ units: [{ path: 'deploy/a', tree: tree('2'), records: failed }] }));
    expect(held.run).toEqual([]);
    expect(held.held).toEqual([
      {
        path: 'deploy/a',
        reason:
          'tree of bbbbbbb failed; not retried until deploy/a changes or a workflow_dispatch run names it in `packages`',
      },
    ]);
    // a new tree runs
    const changed = catchUp(input({ units: [{ path: 'deploy/a', tree: tree('3'), records: failed }] }));
    expect(changed.run[0].reason).toBe('changed since aaaaaaa, the last commit applied here');
    // a re-run of the push that brought it retries it
    const rerun = catchUp(
      input({
        units: [{ path: 'deploy/a', tree: tree('2'), records: failed }],
        touched: new Set(['deploy/a']),
      }),
    );
    expect(paths(rerun.run)).toEqual(['deploy/a']);
    // a failure older than the last successful apply does not hold the tree when it comes back
    const back = history(rec('apply', 'failed', 'b', '2'), rec('apply', 'success', 'c', '3'));
    expect(
      paths(catchUp(input({ units: [{ path: 'deploy/a', tree: tree('2'), records: back }] })).run),
    ).toEqual(['deploy/a']);
  });

  it('holds a tree that failed and was rolled back; the rollback is what the cluster runs', () => {
    const records = history(
      rec('apply', 'success', 'a', '1'),
      rec('apply', 'failed', 'b', '2'),
      rec('rollback', 'success', 'a', '1'),
    );
    const r = catchUp(input({ units: [{ path: 'deploy/a', tree: tree('2'), records }] }));
    expect(r.held[0].reason).toMatch(
      /^tree of bbbbbbb failed and was rolled back; not retried until deploy\/a changes/,
    );
    // back at the rolled-back-to tree: up to date
    const same = catchUp(input({ units: [{ path: 'deploy/a', tree: tree('1'), records }] }));
    expect(paths(same.upToDate)).toEqual(['deploy/a']);
  });

  it('holds a tree the watermark marks as failed before any write (no deploy record)', () => {
    const records = history(rec('apply', 'success', 'a', '1'));
    const mark = {
      tree: tree('2'),
      commit: sha('b'),
      reason: 'pre-flight rejected ConfigMap/x',
      at: '2027-01-01T00:00:00Z',
    };
    const r = catchUp(
      input({ units: [{ path: 'deploy/a', tree: tree('2'), records }], held: { 'deploy/a': mark } }),
    );
    expect(r.held[0].reason).toBe(
      'tree of bbbbbbb failed (pre-flight rejected ConfigMap/x); not retried until deploy/a changes or a workflow_dispatch run names it in `packages`',
    );
    // a mark older than the last successful apply is stale
    const stale = { ...mark, at: '2020-01-01T00:00:00Z' };
    expect(
      paths(
        catchUp(
          input({ units: [{ path: 'deploy/a', tree: tree('2'), records }], held: { 'deploy/a': stale } }),
        ).run,
      ),
    ).toEqual(['deploy/a']);
  });

  it('finds a package with no record through the watermark: one it does not know runs, one it knows does not', () => {
    const watermark = { commit: sha('9'), units: new Set(['deploy/old']) };
    const r = catchUp(
      input({
        units: [
          { path: 'deploy/new', tree: tree('1'), records: [] },
          { path: 'deploy/old', tree: tree('2'), records: [] },
        ],
        watermark,
      }),
    );
    expect(r.run).toEqual([
      {
        path: 'deploy/new',
        removed: false,
        reason: 'added since 9999999, the last commit fully applied here',
        base: sha('9'),
        tree: tree('1'),
      },
    ]);
    expect(r.skipped[0].path).toBe('deploy/old');
    expect(r.skipped[0].reason).toMatch(/^no deploy record, though catch-up knew it \(destroyed since/);
    // a watermark that never saw a complete run still tells new units from known ones
    const early = catchUp(
      input({ units: [{ path: 'deploy/new', records: [] }], watermark: { units: new Set() } }),
    );
    expect(early.run[0].reason).toBe('new here (no deploy record, not in the watermark)');
  });

  it('without a watermark, a package with no record runs only when the change cannot be narrowed', () => {
    const units = [{ path: 'deploy/a', tree: tree('1'), records: [] }];
    expect(paths(catchUp(input({ units })).skipped)).toEqual(['deploy/a']);
    const all = catchUp(input({ units, touched: 'all' }));
    expect(all.run[0].reason).toBe('no deploy record here yet');
  });

  it('compares by commit when git cannot tell the trees, and runs what it cannot compare', () => {
    const old = history(rec('apply', 'success', 'a'));
    expect(
      paths(catchUp(input({ units: [{ path: 'deploy/a', records: old }], head: sha('a') })).upToDate),
    ).toEqual(['deploy/a']);
    const r = catchUp(input({ units: [{ path: 'deploy/a', tree: tree('1'), records: old }] }));
    expect(r.run[0].reason).toBe(
      'changed since aaaaaaa, the last commit applied here (its tree was not recorded and git could not read that commit)',
    );
  });

  it('with unreadable history: runs what the push touched, skips the rest saying why', () => {
    const r = catchUp(
      input({
        units: [
          { path: 'deploy/a', tree: tree('1') },
          { path: 'deploy/b', tree: tree('2'), unreadable: 'its inventory info cannot be read (bad)' },
        ],
        touched: new Set(['deploy/a']),
      }),
    );
    expect(paths(r.run)).toEqual(['deploy/a']);
    expect(r.skipped).toEqual([
      { path: 'deploy/b', reason: 'its inventory info cannot be read (bad), and the push did not touch it' },
    ]);
  });

  it('deleted packages: runs those still recorded, holds a refused removal, forgets those already gone', () => {
    const inv = { name: 'x', namespace: 'ns', id: 'x-id' };
    const live = history(rec('apply', 'success', 'a', '1'));
    const gone = [
      { path: 'deploy/live', baseCommit: sha('9'), inventory: inv, records: live },
      { path: 'deploy/refused', baseCommit: sha('9'), inventory: inv, records: live },
      { path: 'deploy/destroyed', baseCommit: sha('9'), inventory: inv, records: [] },
      { path: 'deploy/pushed', baseCommit: sha('e') },
    ];
    const mark = {
      tree: '',
      commit: sha('b'),
      reason: 'destroy-removed-packages is off',
      at: '2027-01-01T00:00:00Z',
      removalRefused: true,
    };
    const r = catchUp(input({ gone, touched: new Set(['deploy/pushed']), held: { 'deploy/refused': mark } }));
    expect(r.run.map((e) => [e.path, e.reason])).toEqual([
      ['deploy/live', 'deleted since 9999999, the last commit fully applied here'],
      ['deploy/pushed', 'deleted by this push'],
    ]);
    expect(r.run[0]).toMatchObject({ removed: true, inventory: inv, baseCommit: sha('9') });
    expect(r.held[0].path).toBe('deploy/refused');
    expect(r.forget).toEqual(['deploy/destroyed']);
    // turning destroy-removed-packages on releases the refused removal
    const on = catchUp(input({ gone, held: { 'deploy/refused': mark }, destroyRemovedPackages: true }));
    expect(paths(on.run)).toEqual(['deploy/live', 'deploy/refused']);
  });
});
