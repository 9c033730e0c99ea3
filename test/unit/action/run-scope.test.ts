import { describe, expect, it } from 'vitest';
import type { EventContext } from '../../../src/action/github/event.js';
import { checkDriftCorrect, resolveMode, runScope, UsageError } from '../../../src/action/run-scope.js';

const base: EventContext = {
  name: 'workflow_dispatch',
  owner: 'acme',
  repo: 'platform',
  sha: 'a'.repeat(40),
  ref: 'refs/heads/main',
  defaultBranch: 'main',
  runUrl: 'https://github.example/acme/platform/actions/runs/1',
  serverUrl: 'https://github.example',
  apiUrl: 'https://api.github.example',
};
const pushCtx: EventContext = {
  ...base,
  name: 'push',
  push: { before: 'b'.repeat(40), after: 'a'.repeat(40) },
};
const prCtx = (action = 'synchronize'): EventContext => ({
  ...base,
  name: 'pull_request',
  action,
  ref: 'refs/pull/7/merge',
  pullRequest: { number: 7, baseSha: 'b'.repeat(40), headSha: 'c'.repeat(40), headRepoFork: false },
});
const queue: EventContext = {
  ...base,
  name: 'merge_group',
  ref: 'refs/heads/gh-readonly-queue/main/pr-7-x',
  mergeGroup: { baseSha: 'b'.repeat(40), headSha: 'c'.repeat(40) },
};

describe('the scope of a run', () => {
  it('mode auto: previews pull requests and merge queues, applies a push to the default branch', () => {
    expect(resolveMode('auto', prCtx()).mode).toBe('preview');
    expect(resolveMode('auto', queue).mode).toBe('preview');
    expect(resolveMode('auto', pushCtx).mode).toBe('apply');
    const other = resolveMode('auto', { ...pushCtx, ref: 'refs/heads/feature' });
    expect(other).toEqual({
      mode: 'preview',
      note: expect.stringContaining('only a push to the default branch applies'),
    });
  });

  it('destroy needs packages, on every event', () => {
    for (const ctx of [base, pushCtx, prCtx()])
      expect(() => runScope('destroy', ctx, [])).toThrow(/^mode: destroy needs the packages input/);
    expect(runScope('destroy', base, ['deploy/a'])).toEqual({ kind: 'explicit' });
    expect(() => runScope('destroy', base, [])).toThrow(UsageError);
  });

  it('rollback needs packages, on every event, and is refused in a merge queue', () => {
    for (const ctx of [base, pushCtx, prCtx()])
      expect(() => runScope('rollback', ctx, [])).toThrow(/^mode: rollback needs the packages input/);
    expect(runScope('rollback', base, ['deploy/a'])).toEqual({ kind: 'explicit' });
    expect(() => runScope('rollback', queue, ['deploy/a'])).toThrow(/^mode: rollback on a merge_group event/);
  });

  it('apply catches up on a push (packages filter it) and on events that name no change, unless packages names some', () => {
    expect(runScope('apply', pushCtx, [])).toEqual({ kind: 'catch-up' });
    expect(runScope('apply', pushCtx, ['deploy/*'])).toEqual({ kind: 'catch-up' });
    expect(runScope('apply', base, [])).toEqual({ kind: 'catch-up' });
    expect(runScope('apply', { ...base, name: 'schedule' }, [])).toEqual({ kind: 'catch-up' });
    expect(runScope('apply', base, ['deploy/a'])).toEqual({ kind: 'explicit' });
    expect(runScope('resolve', pushCtx, [])).toEqual({ kind: 'catch-up' });
    expect(runScope('apply', prCtx(), [])).toEqual({ kind: 'change' });
  });

  it('previews what the event changed; every package only where no change is named', () => {
    expect(runScope('preview', prCtx(), [])).toEqual({ kind: 'change' });
    expect(runScope('preview', pushCtx, [])).toEqual({ kind: 'change' });
    expect(runScope('preview', queue, [])).toEqual({ kind: 'change' });
    expect(runScope('status', base, [])).toEqual({ kind: 'every' });
    expect(runScope('preview', base, ['deploy/a'])).toEqual({ kind: 'explicit' });
  });

  it('a closed pull request does nothing', () => {
    expect(runScope('preview', prCtx('closed'), [])).toEqual({
      kind: 'nothing',
      reason:
        'pull request #7 is closed: nothing to do (a merged pull request is applied by the push to its base branch)',
    });
    expect(runScope('apply', prCtx('closed'), ['deploy/a']).kind).toBe('nothing');
    // an explicit destroy of named packages still runs (tearing down a pull request's environment)
    expect(runScope('destroy', prCtx('closed'), ['deploy/pr-7'])).toEqual({ kind: 'explicit' });
  });

  it('merge_group: apply or destroy is a usage error (the queue commit may never land)', () => {
    expect(() => runScope('apply', queue, [])).toThrow(
      /^mode: apply on a merge_group event: the merge queue's commit \(ccccccc\) may never land/,
    );
    expect(() => runScope('destroy', queue, ['deploy/a'])).toThrow(UsageError);
    expect(runScope('resolve', queue, [])).toEqual({ kind: 'change' });
  });
});

describe('drift-correct: only where an apply would run', () => {
  it('runs on the default branch (schedule, workflow_dispatch, push), and where the event names no branch', () => {
    expect(() => checkDriftCorrect(base)).not.toThrow();
    expect(() => checkDriftCorrect(pushCtx)).not.toThrow();
    expect(() => checkDriftCorrect({ ...base, name: 'schedule', defaultBranch: undefined })).not.toThrow();
  });

  it('refuses pull requests, merge queues and other branches before any request', () => {
    expect(() => checkDriftCorrect(prCtx())).toThrow(UsageError);
    expect(() => checkDriftCorrect(prCtx())).toThrow(
      /drift-correct on a pull_request event: drift correction re-applies/,
    );
    expect(() => checkDriftCorrect(queue)).toThrow(/merge_group/);
    expect(() => checkDriftCorrect({ ...base, ref: 'refs/heads/feature' })).toThrow(
      'drift-correct on refs/heads/feature: drift correction re-applies the checked-out commit, so it runs on the default branch (main) only',
    );
  });
});
