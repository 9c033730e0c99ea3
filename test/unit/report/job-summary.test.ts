import { describe, expect, it } from 'vitest';
import type { ObjectOutcome } from '../../../src/apply/run-result.js';
import { type SkipReason, skipMessage } from '../../../src/apply/skip-reason.js';
import type { ObjectId } from '../../../src/common/object-id.js';
import { applySummaryObjects } from '../../../src/report/apply-summary-objects.js';
import {
  type ApplySummaryInput,
  JOB_SUMMARY_LIMIT,
  renderApplyJobSummary,
  renderPreviewJobSummary,
} from '../../../src/report/job-summary.js';
import { checkBalanced } from '../../../src/report/markdown-balance.js';
import { expectGolden } from './golden.js';
import { generatedPreview, wordpressPreview } from './preview-fixtures.js';

const obj = (group: string, kind: string, name: string, namespace = 'shop'): ObjectId => ({
  group,
  kind,
  name,
  namespace,
});

function successRun(): ApplySummaryInput {
  return {
    package: 'deploy/wordpress',
    outcome: 'success',
    durationMs: 48_000,
    objects: [
      {
        id: obj('', 'Secret', 'mysql-pass'),
        action: 'configured',
        status: 'Current',
        wave: 1,
        durationMs: 200,
        source: { file: 'deploy/wordpress/secret.yaml', line: 1 },
      },
      {
        id: obj('apps', 'Deployment', 'wordpress-mysql'),
        action: 'unchanged',
        status: 'Current',
        wave: 1,
        durationMs: 300,
        message: 'Deployment is available. Replicas: 1',
      },
      {
        id: obj('', 'ConfigMap', 'wp-config-2'),
        action: 'created',
        status: 'Current',
        wave: 1,
        durationMs: 100,
      },
      {
        id: obj('apps', 'Deployment', 'wordpress'),
        action: 'configured',
        status: 'Current',
        wave: 2,
        durationMs: 41_000,
        message: 'Deployment is available. Replicas: 2',
      },
      {
        id: obj('', 'ConfigMap', 'wp-config-1'),
        action: 'pruned',
        status: 'NotFound',
        wave: 3,
        durationMs: 1_000,
      },
    ],
  };
}

/**
 * The failure path real runs take, as the engine leaves the objects (apply-wave.ts, wait-wave.ts): the
 * Deployment's rollout exceeded its progress deadline, so kstatus says Failed and the wait fails; the
 * Ingress that depends on it is skipped (blocked) and never waited for.
 */
function failedRun(): ApplySummaryInput {
  const wordpress = obj('apps', 'Deployment', 'wordpress');
  const objects: ObjectOutcome[] = [
    {
      id: obj('apps', 'Deployment', 'wordpress-mysql'),
      action: 'configured',
      reconcile: 'Successful',
      status: 'Current',
      message: 'Deployment is available. Replicas: 1',
      wave: 1,
      readyAfterMs: 2_000,
    },
    {
      id: wordpress,
      source: { file: 'deploy/wordpress/wordpress-deployment.yaml', line: 12 },
      action: 'configured',
      reconcile: 'Failed',
      status: 'Failed',
      message: 'Failed: Progress deadline exceeded',
      wave: 2,
    },
  ];
  const skip: SkipReason = { type: 'dependency', dependency: wordpress, cause: 'apply reconcile failed' };
  objects.push({
    id: obj('networking.k8s.io', 'Ingress', 'wordpress'),
    action: 'skipped',
    reconcile: 'Skipped',
    skip,
    message: skipMessage(skip),
    wave: 3,
  });
  return {
    package: 'deploy/wordpress',
    outcome: 'failure',
    durationMs: 35_000,
    objects: applySummaryObjects(objects),
  };
}

describe('renderApplyJobSummary', () => {
  it('apply-success.golden.md: verdict with counts and all Current, one table per wave', () => {
    const markdown = renderApplyJobSummary(successRun());
    expect(markdown.split('\n')[0]).toBe(
      '### ✅ `deploy/wordpress` applied in 48.0s: 1 created, 2 configured, 1 unchanged, 1 pruned, all 4 Current',
    );
    expect(markdown.match(/^\*\*Wave \d\*\*$/gm)).toEqual(['**Wave 1**', '**Wave 2**', '**Wave 3**']);
    expectGolden('apply-success.golden.md', markdown);
  });

  it('apply-failure.golden.md: names the failed object (its progress deadline exceeded) and what it blocked', () => {
    const markdown = renderApplyJobSummary(failedRun());
    expect(markdown.split('\n')[0]).toBe(
      '### ❌ `deploy/wordpress`: `Deployment/wordpress` Failed: Progress deadline exceeded',
    );
    expect(markdown).toContain('- Failed: Progress deadline exceeded');
    expect(markdown).toContain(
      '- ⛔ `Ingress/wordpress`: dependency apply reconcile failed: shop\\_wordpress\\_apps\\_Deployment. Fix: fix Deployment/wordpress first (it is listed too)',
    );
    expectGolden('apply-failure.golden.md', markdown);
  });

  it('names the blocked objects in the verdict when nothing else failed', () => {
    const markdown = renderApplyJobSummary({
      package: 'p',
      outcome: 'failure',
      durationMs: 10,
      objects: [
        {
          id: obj('', 'Namespace', 'team'),
          action: 'skipped',
          status: 'skipped',
          blocked: true,
          source: { file: 'p/ns.yaml', line: 1 },
          message:
            'inventory policy prevented actuation (strategy: Apply, status: NoMatch, policy: MustMatch): owned by another inventory: inventory other. Fix: destroy the package that owns it (inventory other), or take it over with inventory-policy: force-adopt (--inventory-policy force-adopt)',
        },
      ],
    });
    expect(markdown.split('\n')[0]).toBe('### ❌ `p`: 1 object(s) blocked, not deployed: `Namespace/team`');
    expect(markdown).toContain('- ⛔ `Namespace/team` (`p/ns.yaml:1`): inventory policy prevented actuation');
    expect(markdown).toContain('force-adopt');
  });

  it('reports a fatal error when no object failed', () => {
    const markdown = renderApplyJobSummary({
      package: 'p',
      outcome: 'failure',
      durationMs: 10,
      objects: [],
      error: 'cluster unreachable: <dial tcp>',
    });
    expect(markdown).toBe('### ❌ `p`: cluster unreachable: \\<dial tcp\\>\n');
  });

  it('fails the verdict on a timed-out object, not on one merely in progress', () => {
    const run = successRun();
    run.objects[3].status = 'InProgress';
    expect(renderApplyJobSummary(run).split('\n')[0]).toContain('✅');
    expect(renderApplyJobSummary(run).split('\n')[0]).toContain('3 of 4 Current');
    // as applySummaryObjects marks a wait that timed out
    run.objects[3].status = 'Timeout';
    run.objects[3].failed = true;
    expect(renderApplyJobSummary(run).split('\n')[0]).toMatch(
      /^### ❌ `deploy\/wordpress`: `Deployment\/wordpress` Timeout after 41\.0s/,
    );
  });
});

describe('renderPreviewJobSummary', () => {
  it('job-summary-preview.golden.md: the comment without the marker', () => {
    const markdown = renderPreviewJobSummary(wordpressPreview());
    expect(markdown.startsWith('### Preview · `deploy/wordpress`')).toBe(true);
    expectGolden('job-summary-preview.golden.md', markdown);
  });

  it('keeps full diffs far beyond the comment limit', () => {
    const markdown = renderPreviewJobSummary(generatedPreview(300));
    expect(markdown.length).toBeGreaterThan(65_536);
    expect(markdown.length).toBeLessThanOrEqual(JOB_SUMMARY_LIMIT);
    expect(markdown).not.toContain('✂️');
    expect(checkBalanced(markdown).balanced).toBe(true);
  });
});
