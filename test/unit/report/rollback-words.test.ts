import { describe, expect, it } from 'vitest';
import type { ObjectOutcome, RunResult } from '../../../src/apply/run-result.js';
import type { ObjectId } from '../../../src/common/object-id.js';
import { leftBy, notInPackage, type RollbackReport } from '../../../src/pipeline/rollback-report.js';
import { onFailureWords } from '../../../src/report/on-failure-words.js';
import {
  renderRollbackSection,
  rollbackLine,
  rollbackMarkdownLine,
  rollbackPlanLine,
} from '../../../src/report/rollback-words.js';

const id = (kind: string, name: string, group = ''): ObjectId => ({ group, kind, namespace: 'shop', name });
const web = id('Deployment', 'web', 'apps');
const extra = id('ConfigMap', 'x');
const data = id('PersistentVolumeClaim', 'data');
const keeper = id('ConfigMap', 'keeper');
const Y = '3f2a1c0d4e5f60718293a4b5c6d7e8f901234567';
const X = '9c1d2e3f4a5b6c7d8e9f00112233445566778899';
const o = { automatic: true, package: 'deploy/app' };

const run = (objects: ObjectOutcome[], extra: Partial<RunResult> = {}): RunResult => ({
  outcome: objects.some((x) => x.reconcile === 'Failed' || x.action === 'failed') ? 'failed' : 'success',
  objects,
  durationMs: 24_000,
  ...extra,
});
const report = (r: Partial<RollbackReport>): RollbackReport => ({
  status: 'rolled-back',
  to: Y,
  of: X,
  kept: [],
  pruned: [],
  notices: [],
  ...r,
});

describe('what a rollback keeps and prunes', () => {
  const plan = {
    destroy: false,
    applyWaves: [[web]],
    pruneWaves: [[extra, keeper], [data]],
    edges: [],
    errors: [],
  };

  it('keeps every object the package at the commit lacks, unless rollback-prune; then those the prune kept stay kept', () => {
    const done = run([{ id: web, action: 'configured' }], { plan });
    expect(notInPackage(done, false)).toEqual({ kept: [extra, keeper, data], pruned: [] });
    const pruned = run(
      [
        { id: web, action: 'configured' },
        { id: extra, action: 'pruned' },
        { id: keeper, action: 'abandoned' },
        { id: data, action: 'pruned' },
      ],
      { plan },
    );
    expect(notInPackage(pruned, true)).toEqual({ kept: [keeper], pruned: [extra, data] });
    expect(notInPackage(run([], { outcome: 'error', error: 'refused' }), false)).toEqual({
      kept: [],
      pruned: [],
    });
  });

  it('a failed first deploy left what it applied, failed or not, and nothing it could not create', () => {
    const failed = run([
      { id: web, action: 'created', reconcile: 'Failed' },
      { id: extra, action: 'unchanged' },
      { id: data, action: 'failed', message: 'forbidden' },
      { id: keeper, action: 'skipped' },
    ]);
    expect(leftBy(failed)).toEqual([web, extra]);
  });
});

describe('rollbackLine', () => {
  it('a rollback that worked: the commit, the time to Current, what it kept (sorted) or pruned', () => {
    expect(
      rollbackLine(report({ run: run([{ id: web, action: 'configured' }]), kept: [data, extra] }), o),
    ).toBe(
      'rolled back to 3f2a1c0, Current in 24.0s; added by the failed deploy, kept: ConfigMap/x, PersistentVolumeClaim/data',
    );
    expect(
      rollbackLine(report({ run: run([]), pruned: [extra], kept: [keeper] }), { ...o, automatic: false }),
    ).toBe(
      'rolled back to 3f2a1c0, Current in 24.0s; not in the package at 3f2a1c0, kept: ConfigMap/keeper; not in the package at 3f2a1c0, pruned: ConfigMap/x',
    );
  });

  it('lists ten names and counts the rest', () => {
    const many = Array.from({ length: 12 }, (_, i) => id('ConfigMap', `c${String(i).padStart(2, '0')}`));
    expect(rollbackLine(report({ run: run([]), kept: many }), o)).toMatch(
      /kept: ConfigMap\/c00, .*ConfigMap\/c09 and 2 more$/,
    );
  });

  it('a rollback that failed: its first failed object, or its error; nothing changed when it stopped before writing', () => {
    const failedRun = run([
      { id: web, action: 'configured', reconcile: 'Failed', message: 'Failed: Progress deadline exceeded' },
    ]);
    expect(rollbackLine(report({ status: 'failed', run: failedRun }), o)).toBe(
      'rollback to 3f2a1c0 failed: Deployment/web Failed: Progress deadline exceeded',
    );
    expect(
      rollbackLine(
        report({
          status: 'failed',
          reason: `commit 3f2a1c0 is not in this checkout and could not be fetched: git said no`,
        }),
        o,
      ),
    ).toBe(
      'rollback to 3f2a1c0 failed: commit 3f2a1c0 is not in this checkout and could not be fetched: git said no; nothing was changed by the rollback',
    );
    const refused = run([], { outcome: 'error', error: 'pre-flight: ConfigMap/x rejected' });
    expect(rollbackLine(report({ status: 'failed', run: refused, reason: refused.error }), o)).toBe(
      'rollback to 3f2a1c0 failed: pre-flight: ConfigMap/x rejected; nothing was changed by the rollback',
    );
  });

  it('no rollback: why, and after a first deploy what was left and how to remove it', () => {
    expect(
      rollbackLine(report({ status: 'skipped', to: undefined, reason: 'the run was cancelled' }), o),
    ).toBe('not rolled back: the run was cancelled');
    expect(
      rollbackLine(
        report({ status: 'skipped', to: undefined, reason: 'first deploy', left: [web, extra] }),
        o,
      ),
    ).toBe(
      "not rolled back: first deploy; left in the cluster: ConfigMap/x, Deployment/web (remove them with kpt-live destroy deploy/app, or the action's mode: destroy)",
    );
  });

  it('a dry run says what it would do', () => {
    expect(rollbackPlanLine(report({ status: 'skipped', kept: [extra] }), { ...o, automatic: false })).toBe(
      'would roll back to 3f2a1c0; not in the package at 3f2a1c0, would be kept: ConfigMap/x',
    );
  });
});

describe('the rollback in markdown', () => {
  it('puts commits and names in code and escapes messages', () => {
    const failedRun = run([
      { id: web, action: 'configured', reconcile: 'Failed', message: 'Failed: <b>*bad*</b>' },
    ]);
    expect(rollbackMarkdownLine(report({ status: 'failed', run: failedRun }), o)).toBe(
      'rollback to `3f2a1c0` failed: `Deployment/web` Failed: \\<b\\>\\*bad\\*\\</b\\>',
    );
  });

  it('a job summary section: the line as heading, then what it did to each object, with Secret values scrubbed', () => {
    const done = run([
      {
        id: web,
        action: 'configured',
        reconcile: 'Successful',
        status: 'Current',
        message: 'token hunter2 set',
      },
    ]);
    const section = renderRollbackSection(report({ run: done, kept: [extra] }), {
      ...o,
      secretValues: ['hunter2'],
    });
    const [heading, ...rest] = section.split('\n');
    expect(heading).toBe(
      '#### ↩️ rolled back to `3f2a1c0`, Current in 24.0s; added by the failed deploy, kept: `ConfigMap/x`',
    );
    expect(rest.join('\n')).toContain('| `shop/Deployment/web` | configured | Current |');
    expect(section).not.toContain('hunter2');
    expect(section).not.toContain('### ✅');
    expect(renderRollbackSection(report({ status: 'failed', reason: 'no commit' }), o)).toBe(
      '#### ❌ rollback to `3f2a1c0` failed: no commit; nothing was changed by the rollback\n',
    );
    expect(renderRollbackSection(report({ run: done }), { ...o, headingOnly: true })).toBe(
      '#### ↩️ rolled back to `3f2a1c0`, Current in 24.0s\n',
    );
  });
});

describe("the preview's on-failure line", () => {
  it('names the commit a failure returns to, or why it would be left as is', () => {
    expect(onFailureWords({ action: 'rollback', to: Y }, 'text')).toBe('on failure: rolls back to 3f2a1c0');
    expect(onFailureWords({ action: 'rollback', to: Y }, 'markdown')).toBe(
      'on failure: rolls back to `3f2a1c0`',
    );
    expect(onFailureWords({ action: 'none', reason: 'on-failure: none' }, 'text')).toBe(
      'on failure: left as is (on-failure: none)',
    );
    expect(
      onFailureWords({ action: 'none', reason: 'no earlier successful deploy to roll back to' }, 'markdown'),
    ).toBe('on failure: left as is (no earlier successful deploy to roll back to)');
  });
});
