import { describe, expect, it } from 'vitest';
import { previewCommentBody } from '../../../src/action/preview-comments.js';
import { packageResultJson } from '../../../src/action/result-json.js';
import { rolledBackTo } from '../../../src/action/rollback-report.js';
import { onFailureOf } from '../../../src/pipeline/on-failure-plan.js';
import type { PackageRunResult } from '../../../src/pipeline/run-package.js';
import { type AppliedInfo, renderAppliedSection } from '../../../src/report/pr-comment-body.js';
import { renderPreviewMarkdown } from '../../../src/report/preview-markdown.js';
import { renderPreviewText } from '../../../src/report/preview-text.js';
import { wordpressPreview } from './preview-fixtures.js';

const Y = '3f2a1c0d4e5f60718293a4b5c6d7e8f901234567';
const X = '9c1d2e3f4a5b6c7d8e9f00112233445566778899';

describe('the preview says what a failed apply would do', () => {
  const doc = { ...wordpressPreview(), onFailure: { action: 'rollback' as const, to: Y } };

  it('in one line under the plan (markdown and text), and not at all when the preview was not asked', () => {
    const md = renderPreviewMarkdown(doc);
    const table = md.indexOf('| | object | change |');
    const line = md.indexOf('on failure: rolls back to `3f2a1c0`');
    expect(table).toBeGreaterThan(0);
    expect(line).toBeGreaterThan(table);
    expect(line).toBeLessThan(md.indexOf('<details>'));
    expect(renderPreviewText(doc, { diffs: false })).toMatch(
      /\n\non failure: rolls back to 3f2a1c0\n\nServer-side dry-run/,
    );
    expect(renderPreviewMarkdown(wordpressPreview())).not.toContain('on failure');
  });

  it('keeps it out of the plan digest: the comment reviewed with or without it holds the same digest', () => {
    const result = (preview: typeof doc | ReturnType<typeof wordpressPreview>): PackageRunResult => ({
      path: 'deploy/wordpress',
      mode: 'preview',
      outcome: 'success',
      notices: [],
      exitCode: 0,
      preview,
    });
    const digest = (body: string) => body.slice(body.indexOf('<!-- kpt-live-action:plan'));
    const withLine = previewCommentBody(result(doc), '');
    const left = previewCommentBody(
      result({ ...doc, onFailure: { action: 'none', reason: 'on-failure: none' } }),
      '',
    );
    expect(withLine).toContain('on failure: rolls back to');
    expect(left).toContain('on failure: left as is (on-failure: none)');
    expect(digest(withLine)).toBe(digest(previewCommentBody(result(wordpressPreview()), '')));
    expect(digest(left)).toBe(digest(withLine));
  });

  it('from the history: the last successful deploy, or left as is on a first deploy', () => {
    expect(onFailureOf({ record: { commit: Y } as never })).toEqual({ action: 'rollback', to: Y });
    expect(onFailureOf({ none: 'long reason', first: true })).toEqual({
      action: 'none',
      reason: 'no earlier successful deploy to roll back to',
    });
    expect(onFailureOf({ none: 'the last successful deploy recorded no commit' })).toEqual({
      action: 'none',
      reason: 'the last successful deploy recorded no commit',
    });
  });
});

describe('the rollback on the merged pull request and in the outputs', () => {
  const applied: AppliedInfo = {
    package: 'deploy/app',
    outcome: 'failed',
    counts: { created: 1, configured: 1, unchanged: 0, pruned: 0, skipped: 0, failed: 1 },
    failed: [{ name: 'Deployment/web', reason: 'Failed: Progress deadline exceeded' }],
    commit: X,
    runUrl: 'https://github.example/acme/platform/actions/runs/4242',
  };

  it('the Applied section says what failed, then what the rollback did', () => {
    const section = renderAppliedSection({
      ...applied,
      rollback: { status: 'rolled-back', markdown: 'rolled back to `3f2a1c0`, Current in 24.0s' },
    });
    const failed = section.indexOf('- ❌ `Deployment/web`: Failed: Progress deadline exceeded');
    const rolled = section.indexOf('↩️ rolled back to `3f2a1c0`, Current in 24.0s');
    expect(failed).toBeGreaterThan(0);
    expect(rolled).toBeGreaterThan(failed);
    expect(
      renderAppliedSection({
        ...applied,
        rollback: { status: 'failed', markdown: 'rollback to `3f2a1c0` failed: x' },
      }),
    ).toContain('❌ rollback to `3f2a1c0` failed: x');
    expect(renderAppliedSection(applied)).not.toContain('roll');
  });

  const failedApply = (rollback: PackageRunResult['rollback'], path = 'deploy/app'): PackageRunResult => ({
    path,
    mode: 'apply',
    outcome: 'failed',
    notices: [],
    exitCode: 3,
    run: { outcome: 'failed', objects: [], durationMs: 1 },
    rollback,
  });

  it('`result` carries the rollback; `rolled-back-to` the commits returned to, once each', () => {
    const rb = {
      status: 'rolled-back' as const,
      to: Y,
      of: X,
      kept: [{ group: '', kind: 'ConfigMap', namespace: 'shop', name: 'x' }],
      pruned: [],
      notices: [],
      run: {
        outcome: 'success' as const,
        durationMs: 5,
        objects: [
          {
            id: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' },
            action: 'configured' as const,
          },
        ],
      },
    };
    expect(packageResultJson(failedApply(rb)).rollback).toEqual({
      status: 'rolled-back',
      to: Y,
      of: X,
      kept: ['ConfigMap/x'],
      pruned: [],
      summary: { created: 0, configured: 1, unchanged: 0, pruned: 0, skipped: 0, failed: 0, blocked: 0 },
      objects: [{ kind: 'Deployment', group: 'apps', namespace: 'shop', name: 'web', action: 'configured' }],
    });
    expect(packageResultJson(failedApply(undefined))).not.toHaveProperty('rollback');
    const skipped = { status: 'skipped' as const, reason: 'first deploy', kept: [], pruned: [], notices: [] };
    expect(
      rolledBackTo([failedApply(rb), failedApply(rb, 'deploy/b'), failedApply(skipped, 'deploy/c')]),
    ).toBe(Y);
    expect(rolledBackTo([failedApply(skipped)])).toBe('');
  });
});
