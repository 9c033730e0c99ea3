import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseInputs } from '../../../src/action/inputs.js';

/** Inputs arrive as the runner passes them: INPUT_<NAME> variables, hyphens kept. */
function withInputs(inputs: Record<string, string>) {
  for (const [k, v] of Object.entries(inputs)) vi.stubEnv(`INPUT_${k.toUpperCase()}`, v);
}

describe('parseInputs', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('reads on-failure and rollback-prune (default: none, kept) and the rollback target inputs', () => {
    expect(parseInputs().onFailure).toEqual({ rollback: false, prune: false });
    withInputs({ 'on-failure': 'rollback', 'rollback-prune': 'true' });
    expect(parseInputs().onFailure).toEqual({ rollback: true, prune: true });
    vi.unstubAllEnvs();
    withInputs({ mode: 'rollback', packages: 'deploy/app', 'rollback-steps': '2' });
    expect(parseInputs()).toMatchObject({
      mode: 'rollback',
      packages: ['deploy/app'],
      rollbackTo: '',
      rollbackSteps: 2,
    });
    withInputs({ 'rollback-to': '3f2a1c0' });
    expect(() => parseInputs()).toThrow(
      "Invalid inputs 'rollback-to' and 'rollback-steps': give one of them",
    );
  });

  it('applies the documented defaults (action.yml) when nothing is set', () => {
    const i = parseInputs();
    expect(i.mode).toBe('auto');
    expect(i.run).toMatchObject({
      reconcileTimeoutMs: 300_000,
      pruneTimeoutMs: 300_000,
      prune: true,
      prunePropagationPolicy: 'Background',
      inventoryPolicy: 'strict',
      fieldManager: 'kpt-live-action',
      wait: true,
      waitForJobs: false,
      waitForControllerMs: 0,
      failFast: true,
      allowEmptyPrune: false,
      allowSkipped: false,
      forceConflicts: false,
      exitEarly: false,
      defaultUpdateStrategy: '',
      statusPolicy: 'all',
    });
    expect(i.comment).toBe('changes');
    expect(i.commentKey).toBe('');
    expect(i.commentOnApply).toBe(true);
    expect(i.planDrift).toBe('warn');
    expect(i.historyLimit).toBe(20);
    expect(i.driftIssue).toBe(false);
    expect(i.failOnDrift).toBe(false);
    expect(i.commentKey).toBe('');
    expect(i.packageConcurrency).toBe(1);
    expect(i.commentLayout).toBe('auto');
    expect(i.workingDirectory).toBe('');
  });

  it('reads conflicts, conflicts-take and conflicts-keep (one manager per line); force-conflicts is conflicts: force', () => {
    expect(parseInputs().run.conflicts).toEqual({ mode: 'take-hand-edits', take: [], keep: [] });
    withInputs({
      conflicts: 'fail',
      'conflicts-take': 'deploy-script\n\n# a comment\n legacy-job \n',
      'conflicts-keep': 'kubectl-label',
    });
    expect(parseInputs().run).toMatchObject({
      forceConflicts: false,
      conflicts: { mode: 'fail', take: ['deploy-script', 'legacy-job'], keep: ['kubectl-label'] },
    });
    vi.unstubAllEnvs();
    withInputs({ conflicts: 'force' });
    expect(parseInputs().run).toMatchObject({ forceConflicts: true, conflicts: { mode: 'force' } });
    vi.unstubAllEnvs();
    // action.yml's defaults as the runner passes them: an empty conflicts input is its default
    withInputs({ 'force-conflicts': 'true', conflicts: '' });
    expect(parseInputs().run).toMatchObject({ forceConflicts: true, conflicts: { mode: 'force' } });
  });

  it.each([
    [
      { conflicts: 'fail', 'force-conflicts': 'true' },
      `Invalid input 'conflicts': "fail" contradicts input 'force-conflicts' (which takes every field, as conflicts "force" does): set one of them`,
    ],
    [
      { conflicts: 'sometimes' },
      `Invalid input 'conflicts': "sometimes" is not a conflicts mode (accepted: take-hand-edits, fail, force)`,
    ],
    [
      { 'conflicts-take': 'helm\nkubectl-edit', 'conflicts-keep': 'kubectl-edit' },
      `Invalid input 'conflicts-take' and input 'conflicts-keep': field manager "kubectl-edit" listed in both`,
    ],
  ])('refuses %j naming the inputs', (inputs, message) => {
    withInputs(inputs);
    expect(() => parseInputs()).toThrow(message);
  });

  it('reads package-concurrency (a whole number, at least 1)', () => {
    withInputs({ 'package-concurrency': ' 4 ' });
    expect(parseInputs().packageConcurrency).toBe(4);
    for (const bad of ['0', '-1', '2.5', 'many']) {
      vi.unstubAllEnvs();
      withInputs({ 'package-concurrency': bad });
      expect(() => parseInputs()).toThrow(`Invalid input 'package-concurrency': "${bad}"`);
    }
  });

  it('reads the drift mode and its inputs', () => {
    withInputs({ mode: 'drift', 'drift-issue': 'true', 'fail-on-drift': 'TRUE', 'comment-key': ' prod ' });
    expect(parseInputs()).toMatchObject({
      mode: 'drift',
      driftIssue: true,
      failOnDrift: true,
      commentKey: 'prod',
    });
    expect(parseInputs().driftCorrect).toBe(false);
    vi.unstubAllEnvs();
    withInputs({ 'fail-on-drift': 'maybe' });
    expect(() => parseInputs()).toThrow(/Invalid input 'fail-on-drift': "maybe"/);
    vi.unstubAllEnvs();
    withInputs({ mode: 'drift', 'drift-correct': 'true' });
    expect(parseInputs().driftCorrect).toBe(true);
    withInputs({ 'drift-correct': 'yes' });
    expect(() => parseInputs()).toThrow(/Invalid input 'drift-correct': "yes"/);
  });

  it('reads allow-skipped (off by default; true/false)', () => {
    withInputs({ 'allow-skipped': 'true' });
    expect(parseInputs().run.allowSkipped).toBe(true);
    withInputs({ 'allow-skipped': 'nope' });
    expect(() => parseInputs()).toThrow(/Invalid input 'allow-skipped'/);
  });

  it('reads the pre-flight mode: auto by default, all/off, and true/false as all/off', () => {
    expect(parseInputs().run.preflight).toBe('auto');
    for (const [given, mode] of [
      ['all', 'all'],
      ['off', 'off'],
      ['auto', 'auto'],
      ['true', 'all'],
      ['false', 'off'],
    ]) {
      withInputs({ preflight: given });
      expect(parseInputs().run.preflight, given).toBe(mode);
    }
    withInputs({ preflight: 'some' });
    expect(() => parseInputs()).toThrow(/Invalid input 'preflight': "some" \(accepted: auto, all, off\)/);
  });

  it('reads the comment mode: changes by default, always/never, and true/false as always/never', () => {
    for (const [given, mode] of [
      ['changes', 'changes'],
      ['always', 'always'],
      ['never', 'never'],
      ['true', 'always'],
      ['false', 'never'],
    ]) {
      withInputs({ comment: given });
      expect(parseInputs().comment, given).toBe(mode);
    }
  });

  it('reads comment-key, comment-on-apply and plan-drift', () => {
    withInputs({ 'comment-key': ' prod-eu ', 'comment-on-apply': 'false', 'plan-drift': 'fail' });
    const i = parseInputs();
    expect(i.commentKey).toBe('prod-eu');
    expect(i.commentOnApply).toBe(false);
    expect(i.planDrift).toBe('fail');
  });

  it('reads every setting', () => {
    withInputs({
      mode: 'apply',
      packages: 'deploy/a\n# a comment\n\ndeploy/b/**',
      'reconcile-timeout': '2m',
      'prune-timeout': '0',
      prune: 'false',
      'inventory-policy': 'force-adopt',
      'wait-for-controller': '15s',
      'wait-for-jobs': 'true',
      'fail-fast': 'false',
      'apply-default-update-strategy': 'fallback-on-replace',
      'history-limit': '5',
      'status-policy': 'none',
    });
    const i = parseInputs();
    expect(i.mode).toBe('apply');
    expect(i.packages).toEqual(['deploy/a', 'deploy/b/**']);
    expect(i.run).toMatchObject({
      reconcileTimeoutMs: 120_000,
      pruneTimeoutMs: 0,
      prune: false,
      inventoryPolicy: 'force-adopt',
      waitForControllerMs: 15_000,
      waitForJobs: true,
      failFast: false,
      defaultUpdateStrategy: 'fallback-on-replace',
      statusPolicy: 'none',
    });
    expect(i.historyLimit).toBe(5);
  });

  it.each([
    [
      'mode',
      'deploy',
      /Invalid input 'mode': "deploy" \(accepted: auto, preview, apply, destroy, status, resolve, drift, rollback\)/,
    ],
    ['reconcile-timeout', '10x', /Invalid input 'reconcile-timeout': "10x" \(expected a duration/],
    ['prune', 'yes', /Invalid input 'prune': "yes" \(accepted: true, false\)/],
    ['fail-fast', 'off', /Invalid input 'fail-fast': "off" \(accepted: true, false\)/],
    [
      'inventory-policy',
      'loose',
      /Invalid input 'inventory-policy': "loose" \(accepted: strict, adopt, force-adopt\)/,
    ],
    ['prune-propagation-policy', 'background', /accepted: Background, Foreground, Orphan/],
    ['status-policy', 'some', /Invalid input 'status-policy': "some" \(accepted: all, none\)/],
    [
      'comment-layout',
      'grouped',
      /Invalid input 'comment-layout': "grouped" \(accepted: auto, per-package, combined\)/,
    ],
    ['wait-for-controller', 'soon', /Invalid input 'wait-for-controller'/],
    ['history-limit', '0', /Invalid input 'history-limit'/],
    ['apply-default-update-strategy', 'replace', /Invalid input 'apply-default-update-strategy'/],
    ['comment', 'sometimes', /Invalid input 'comment': "sometimes" \(accepted: changes, always, never\)/],
    ['plan-drift', 'error', /Invalid input 'plan-drift': "error" \(accepted: warn, fail, ignore\)/],
    ['comment-on-apply', 'maybe', /Invalid input 'comment-on-apply': "maybe" \(accepted: true, false\)/],
    ['comment-key', 'prod -->', /Invalid input 'comment-key': "prod -->"/],
    ['comment-key', 'prod\neu', /Invalid input 'comment-key': "prod\\neu"/],
    ['comment-key', '<!-- x', /Invalid input 'comment-key'/],
    ['on-failure', 'revert', /Invalid input 'on-failure': "revert" \(accepted: none, rollback\)/],
    ['rollback-prune', 'yes', /Invalid input 'rollback-prune': "yes" \(accepted: true, false\)/],
    ['rollback-steps', '0', /Invalid input 'rollback-steps': "0"/],
  ])('rejects %s=%s naming the input and the accepted values', (name, value, message) => {
    withInputs({ [name]: value });
    expect(() => parseInputs()).toThrow(message);
  });
});
