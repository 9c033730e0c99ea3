import { describe, expect, it } from 'vitest';
import { parsePlanDigest, renderPlanDigest } from '../../../src/report/plan-digest-marker.js';
import {
  APPLIED_MARKER,
  type AppliedInfo,
  isNoLongerChanged,
  noLongerChangedBody,
  previewPart,
  renderAppliedSection,
  withAppliedSection,
} from '../../../src/report/pr-comment-body.js';
import {
  GITHUB_COMMENT_LIMIT,
  parsePreviewMarker,
  previewMarker,
  renderPreviewMarkdown,
} from '../../../src/report/preview-markdown.js';
import { generatedPreview, wordpressPreview } from './preview-fixtures.js';

const applied = (extra: Partial<AppliedInfo> = {}): AppliedInfo => ({
  package: 'deploy/wordpress',
  outcome: 'success',
  counts: { created: 1, configured: 2, unchanged: 5, pruned: 1, skipped: 0, failed: 0 },
  failed: [],
  commit: '9c1d2e3f4a5b6c7d8e9f00112233445566778899',
  runUrl: 'https://github.example/acme/platform/actions/runs/4242',
  ...extra,
});

describe('the comment marker', () => {
  it('names the key when one is set, and reads back package and key', () => {
    expect(previewMarker('deploy/app', 'prod')).toBe(
      '<!-- kpt-live-action:preview package=deploy/app key=prod -->',
    );
    expect(previewMarker('deploy/app', '')).toBe('<!-- kpt-live-action:preview package=deploy/app -->');
    expect(parsePreviewMarker(`${previewMarker('deploy/app', 'prod eu')}\nbody`)).toEqual({
      package: 'deploy/app',
      key: 'prod eu',
    });
    expect(parsePreviewMarker(`${previewMarker('odd>dir')}\n`)).toEqual({ package: 'odd>dir', key: '' });
    expect(parsePreviewMarker('LGTM')).toBeUndefined();
  });

  it('keeps the comments of two keys apart (neither marker contains the other)', () => {
    const a = previewMarker('deploy/app', 'staging');
    const b = previewMarker('deploy/app', 'prod');
    const none = previewMarker('deploy/app');
    for (const [x, y] of [
      [a, b],
      [a, none],
      [none, b],
    ])
      expect(x.includes(y) || y.includes(x)).toBe(false);
  });
});

describe('the Applied section', () => {
  it('says the outcome, counts, commit and run link', () => {
    const s = renderAppliedSection(applied());
    expect(s.startsWith(APPLIED_MARKER)).toBe(true);
    expect(s).toContain('### Applied · `deploy/wordpress` · ✅ applied');
    expect(s).toContain('**1 created · 2 configured · 1 pruned · 5 unchanged**');
    expect(s).toContain('`9c1d2e3`');
    expect(s).toContain('[run](https://github.example/acme/platform/actions/runs/4242)');
  });

  it('lists failed objects with their reasons, escaped', () => {
    const s = renderAppliedSection(
      applied({
        outcome: 'failed',
        counts: { created: 0, configured: 0, unchanged: 1, pruned: 0, skipped: 0, failed: 1 },
        failed: [{ name: 'Deployment/stuck', reason: 'Failed: Progress deadline exceeded <script>' }],
      }),
    );
    expect(s).toContain('❌ applied with failures');
    expect(s).toContain('- ❌ `Deployment/stuck`: Failed: Progress deadline exceeded \\<script\\>');
  });

  it('is added under the preview, and replaces an earlier Applied section', () => {
    const preview = renderPreviewMarkdown(wordpressPreview());
    const once = withAppliedSection(preview, renderAppliedSection(applied()), {
      package: 'deploy/wordpress',
      commentKey: '',
    });
    expect(once.startsWith(previewMarker('deploy/wordpress'))).toBe(true);
    expect(once).toContain('### Preview');
    expect(previewPart(once)).toBe(preview.trimEnd());
    const twice = withAppliedSection(once, renderAppliedSection(applied({ outcome: 'failed' })), {
      package: 'deploy/wordpress',
      commentKey: '',
    });
    expect(twice.split(APPLIED_MARKER)).toHaveLength(2);
    expect(twice).toContain('applied with failures');
  });

  it('makes a comment of its own when there is none, with the marker first', () => {
    const body = withAppliedSection(undefined, renderAppliedSection(applied()), {
      package: 'deploy/wordpress',
      commentKey: 'prod',
    });
    expect(body.split('\n')[0]).toBe(previewMarker('deploy/wordpress', 'prod'));
    expect(body).toContain('### Applied');
  });

  it('stays under the comment limit: the preview gives way, the plan digest and the section stay', () => {
    const doc = generatedPreview(400, 60);
    const digest = renderPlanDigest({ hash: 'ab'.repeat(8), objects: 1, changed: [] });
    const md = renderPreviewMarkdown(doc);
    // a preview that used its whole budget: padded up to the limit, its digest last
    const pad = 'x'.repeat(GITHUB_COMMENT_LIMIT - md.length - digest.length - 10);
    const preview = `${md}${pad}\n${digest}\n`;
    expect(preview.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT - 100);
    const section = renderAppliedSection(
      applied({
        outcome: 'failed',
        failed: Array.from({ length: 100 }, (_, i) => ({
          name: `ConfigMap/c${i}`,
          reason: 'x'.repeat(2000),
        })),
      }),
    );
    const body = withAppliedSection(preview, section, { package: doc.package, commentKey: '' });
    expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(body).toContain('### Applied');
    expect(body).toContain('The preview was cut to make room for the apply result');
    expect(body).toContain('… and 70 more');
    expect(parsePlanDigest(body)).toBeDefined();
    expect(body.split('\n')[0]).toBe(previewMarker(doc.package));
  });
});

describe('a package the pull request no longer changes', () => {
  it('says so first and keeps the earlier preview folded, without its plan digest', () => {
    const digest = renderPlanDigest({ hash: 'ab'.repeat(8), objects: 1, changed: [] });
    const earlier = `${renderPreviewMarkdown(wordpressPreview())}${digest}\n`;
    const body = noLongerChangedBody(earlier, {
      package: 'deploy/wordpress',
      commentKey: '',
      commit: 'abcdef0123456789',
    });
    expect(body.split('\n')[0]).toBe(previewMarker('deploy/wordpress'));
    expect(body.split('\n')[1]).toContain('**No longer changed by this pull request**');
    expect(body).toContain('`abcdef0`');
    expect(body).toContain('<details><summary>Earlier preview</summary>');
    expect(body).toContain('wp-config-2');
    expect(parsePlanDigest(body)).toBeUndefined();
    expect(body.split(previewMarker('deploy/wordpress'))).toHaveLength(2);
    expect(isNoLongerChanged(body)).toBe(true);
    expect(isNoLongerChanged(earlier)).toBe(false);
  });
});
