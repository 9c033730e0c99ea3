import { describe, expect, it } from 'vitest';
import { normaliseBoolFlags } from '../../../src/cli/bool-flags.js';
import { CliError } from '../../../src/cli/cli-io.js';
import { durationArg, type RunFlags, runOptionsFrom } from '../../../src/cli/options.js';

describe('durationArg', () => {
  it.each([
    ['0', 0],
    ['90s', 90_000],
    ['2m', 120_000],
    ['1h30m', 5_400_000],
    ['250ms', 250],
    ['1.5s', 1500],
  ])('%s is %i ms', (text, ms) => {
    expect(durationArg(text)).toBe(ms);
  });

  it.each(['5x', '', '2 minutes', '-1s', 'm', '10'])('rejects %j with a usage message', (text) => {
    expect(() => durationArg(text)).toThrow(`"${text}" is not a duration`);
  });
});

describe('normaliseBoolFlags', () => {
  it.each([
    [['--server-side=true'], ['--server-side']],
    [['--server-side=false'], []],
    [
      ['--dry-run=1', 'pkg'],
      ['--dry-run', 'pkg'],
    ],
    [['--dry-run=F'], []],
    [['--install-resource-group=false'], ['--no-install-resource-group']],
    [['--install-resource-group=TRUE'], ['--install-resource-group']],
    [['--prune=false'], ['--no-prune']],
    [['--prune=true'], []],
    [['--wait=false'], ['--no-wait']],
    [['--allow-skipped=true'], ['--allow-skipped']],
    [['--allow-skipped=false'], []],
    [['--fail-fast=false'], ['--no-fail-fast']],
    [['--fail-fast=true'], []],
    [
      ['--reconcile-timeout=2m', '--output=json'],
      ['--reconcile-timeout=2m', '--output=json'],
    ],
    [
      ['--', '--dry-run=false'],
      ['--', '--dry-run=false'],
    ],
  ])('%j becomes %j', (args, want) => {
    expect(normaliseBoolFlags(args)).toEqual(want);
  });

  it('rejects a value that is not a boolean with exit code 2', () => {
    const err = (() => {
      try {
        normaliseBoolFlags(['--force-conflicts=yes']);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(2);
    expect((err as CliError).message).toBe(
      'invalid argument "yes" for "--force-conflicts" flag: use true or false',
    );
  });
});

describe('runOptionsFrom', () => {
  it('keeps the documented defaults when no flag is given', () => {
    const o = runOptionsFrom({ output: 'events' });
    expect(o).toMatchObject({
      fieldManager: 'kpt-live-action',
      reconcileTimeoutMs: 300_000,
      pruneTimeoutMs: 300_000,
      prune: true,
      prunePropagationPolicy: 'Background',
      inventoryPolicy: 'strict',
      wait: true,
      waitForJobs: false,
      waitForControllerMs: 0,
      failFast: true,
      allowEmptyPrune: false,
      allowSkipped: false,
      forceConflicts: false,
      installResourceGroup: true,
      statusPolicy: 'all',
    });
  });

  it('maps the pre-flight flags to modes', () => {
    expect(runOptionsFrom({ output: 'events' }).preflight).toBe('auto');
    expect(runOptionsFrom({ output: 'events', preflight: false }).preflight).toBe('off');
    expect(runOptionsFrom({ output: 'events', preflightAll: true }).preflight).toBe('all');
  });

  it('maps every flag, and the destroy aliases win over the prune names', () => {
    const o = runOptionsFrom({
      output: 'events',
      fieldManager: 'me',
      forceConflicts: true,
      reconcileTimeout: 0,
      pruneTimeout: 1000,
      deleteTimeout: 2000,
      prunePropagationPolicy: 'Foreground',
      deletePropagationPolicy: 'Orphan',
      inventoryPolicy: 'adopt',
      prune: false,
      wait: false,
      waitForJobs: true,
      waitForController: 15_000,
      failFast: false,
      allowEmptyPrune: true,
      allowSkipped: true,
      installResourceGroup: false,
      statusPolicy: 'none',
    });
    expect(o).toMatchObject({
      fieldManager: 'me',
      forceConflicts: true,
      reconcileTimeoutMs: 0,
      pruneTimeoutMs: 2000,
      prunePropagationPolicy: 'Orphan',
      inventoryPolicy: 'adopt',
      prune: false,
      wait: false,
      waitForJobs: true,
      waitForControllerMs: 15_000,
      failFast: false,
      allowEmptyPrune: true,
      allowSkipped: true,
      installResourceGroup: false,
      statusPolicy: 'none',
    });
  });

  it('maps --conflicts, --conflicts-take, --conflicts-keep (repeated or a,b); --force-conflicts is --conflicts force', () => {
    expect(runOptionsFrom({ output: 'events' }).conflicts).toEqual({
      mode: 'take-hand-edits',
      take: [],
      keep: [],
    });
    const o = runOptionsFrom({
      output: 'events',
      conflicts: 'fail',
      conflictsTake: ['deploy-script'],
      conflictsKeep: ['kubectl-label', 'kubectl-annotate'],
    });
    expect(o).toMatchObject({
      forceConflicts: false,
      conflicts: { mode: 'fail', take: ['deploy-script'], keep: ['kubectl-label', 'kubectl-annotate'] },
    });
    expect(runOptionsFrom({ output: 'events', conflicts: 'force' })).toMatchObject({
      forceConflicts: true,
      conflicts: { mode: 'force' },
    });
    expect(runOptionsFrom({ output: 'events', forceConflicts: true }).conflicts.mode).toBe('force');
  });

  it('refuses contradicting conflict flags as a usage error (exit 2) naming them', () => {
    const cases: [Partial<RunFlags>, string][] = [
      [{ conflicts: 'fail', forceConflicts: true }, '--conflicts: "fail" contradicts --force-conflicts'],
      [
        { conflictsTake: ['a'], conflictsKeep: ['a'] },
        '--conflicts-take and --conflicts-keep: field manager "a" listed in both',
      ],
    ];
    for (const [flags, message] of cases) {
      const err = (() => {
        try {
          runOptionsFrom({ output: 'events', ...flags });
        } catch (e) {
          return e as CliError;
        }
      })();
      expect(err).toBeInstanceOf(CliError);
      expect(err?.exitCode).toBe(2);
      expect(err?.message).toContain(message);
    }
  });
});
