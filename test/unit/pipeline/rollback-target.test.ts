import { describe, expect, it } from 'vitest';
import type { DeployRecord } from '../../../src/inventory/deploy-history.js';
import { chosenTarget, lastGoodDeploy } from '../../../src/pipeline/rollback-target.js';

let clock = 0;
/** A deploy record, newer than the one made before it. */
const rec = (
  mode: DeployRecord['mode'],
  result: DeployRecord['result'],
  commit?: string,
  extra: Partial<DeployRecord> = {},
): DeployRecord => {
  clock++;
  return {
    package: 'deploy/app',
    mode,
    ...(commit ? { commit } : {}),
    trigger: 'https://github.example/acme/platform/actions/runs/1',
    startedAt: `2026-01-01T00:00:${String(clock).padStart(2, '0')}Z`,
    finishedAt: `2026-01-01T00:00:${String(clock).padStart(2, '0')}Z`,
    result,
    counts: {},
    failed: [],
    ...extra,
  };
};
const sha = (c: string) => c.repeat(40);
/** Newest first, as readHistory returns them. */
const newestFirst = (...records: DeployRecord[]) => [...records].reverse();

describe('lastGoodDeploy (on-failure: rollback)', () => {
  it('returns to the last successful apply before the failed one, skipping failed ones', () => {
    const history = newestFirst(
      rec('apply', 'success', sha('a')),
      rec('apply', 'success', sha('b')),
      rec('apply', 'failed', sha('c')),
    );
    expect(lastGoodDeploy(history, sha('d'))).toEqual({ record: history[1] });
  });

  it('counts a successful rollback as a deploy of the commit it applied', () => {
    const rollback = rec('rollback', 'success', sha('a'), { rollback: { of: sha('b'), to: sha('a') } });
    const history = newestFirst(
      rec('apply', 'success', sha('a')),
      rec('apply', 'failed', sha('b')),
      rollback,
    );
    expect(lastGoodDeploy(history, sha('c'))).toEqual({ record: rollback });
  });

  it('has nothing to return to on a first deploy, nor across a destroy', () => {
    expect(lastGoodDeploy([], sha('a'))).toMatchObject({
      first: true,
      none: expect.stringContaining('first deploy'),
    });
    const destroyed = newestFirst(
      rec('apply', 'success', sha('a')),
      rec('destroy', 'success', sha('a')),
      rec('apply', 'failed', sha('b')),
    );
    expect(lastGoodDeploy(destroyed, sha('c'))).toMatchObject({ first: true });
  });

  it('does not go back past the same commit, nor to a deploy that recorded no commit', () => {
    const same = newestFirst(rec('apply', 'success', sha('a')), rec('apply', 'success', sha('b')));
    expect(lastGoodDeploy(same, sha('b'))).toEqual({
      none: `the last successful deploy was this same commit ${sha('b').slice(0, 7)}: there is no earlier version to return to without undoing a deploy that worked`,
    });
    const noCommit = newestFirst(rec('apply', 'success'));
    expect(lastGoodDeploy(noCommit, sha('b'))).toMatchObject({
      none: expect.stringMatching(/recorded no commit \(applied from outside a git checkout\)/),
    });
    expect('first' in lastGoodDeploy(noCommit, sha('b'))).toBe(false);
  });
});

describe('chosenTarget (kpt-live rollback, mode: rollback)', () => {
  const c1 = rec('apply', 'success', sha('1'));
  const c2 = rec('apply', 'success', sha('2'));
  const c2again = rec('apply', 'success', sha('2'));
  const c3 = rec('apply', 'success', sha('3'));
  const history = newestFirst(c1, c2, c2again, c3);

  it('defaults to the deploy before the last, counting distinct commits', () => {
    expect(chosenTarget(history, {})).toEqual({ record: c2again, last: c3 });
    expect(chosenTarget(history, { steps: 2 })).toEqual({ record: c1, last: c3 });
  });

  it('after a failed deploy, the one before it is the last successful one', () => {
    const failed = rec('apply', 'failed', sha('4'));
    expect(chosenTarget([failed, ...history], {})).toEqual({ record: c3, last: failed });
  });

  it('finds --to by a prefix of its commit, and says which commits it could have been', () => {
    expect(chosenTarget(history, { to: sha('1').slice(0, 7) })).toEqual({ record: c1, last: c3 });
    expect(chosenTarget(history, { to: sha('3').toUpperCase() })).toEqual({ record: c3, last: c3 });
    expect(chosenTarget(history, { to: 'abc' })).toMatchObject({
      none: '"abc" is not a commit SHA (at least 4 hexadecimal characters)',
    });
    expect(chosenTarget(history, { to: 'deadbeef' })).toMatchObject({
      none: `no successful deploy of commit deadbeef in the deploy history; successful deploys: ${sha('3').slice(0, 7)}, ${sha('2').slice(0, 7)}, ${sha('1').slice(0, 7)}`,
    });
  });

  it('says how many deploys there are when asked for more steps, and when there is no deploy at all', () => {
    expect(chosenTarget(history, { steps: 3 })).toMatchObject({
      none: expect.stringMatching(
        /^the deploy history holds only 2 successful deploys of another commit before the last one \(asked for 3 steps back\)/,
      ),
    });
    expect(chosenTarget([c1], {})).toMatchObject({
      none: expect.stringMatching(
        /^the deploy history holds no successful deploys of another commit before the last one/,
      ),
    });
    expect(chosenTarget([rec('destroy', 'success', sha('1')), ...history], {})).toEqual({
      none: 'the deploy history names no apply of this package since it was last destroyed',
    });
  });
});
