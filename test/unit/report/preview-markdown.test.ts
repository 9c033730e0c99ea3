import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { diffObjects } from '../../../src/preview/diff.js';
import { emptySummary, type PreviewDocument } from '../../../src/preview/types.js';
import { checkBalanced } from '../../../src/report/markdown-balance.js';
import {
  GITHUB_COMMENT_LIMIT,
  previewMarker,
  renderPreviewMarkdown,
} from '../../../src/report/preview-markdown.js';
import { expectGolden } from './golden.js';
import { buildDocument, configMap, generatedPreview, wordpressPreview } from './preview-fixtures.js';

function expectWellFormed(markdown: string, max = GITHUB_COMMENT_LIMIT) {
  expect(markdown.length).toBeLessThanOrEqual(max);
  expect(checkBalanced(markdown).problems).toEqual([]);
}

describe('renderPreviewMarkdown goldens (test/golden/*.golden.md)', () => {
  it.each<[string, () => PreviewDocument, number | undefined]>([
    ['preview-small.golden.md', wordpressPreview, undefined],
    ['preview-large.golden.md', () => generatedPreview(20), undefined],
    ['preview-truncated-diffs.golden.md', () => generatedPreview(12), 6000],
    ['preview-truncated-list.golden.md', () => generatedPreview(12), 1500],
  ])('%s', (name, build, maxLength) => {
    const markdown = renderPreviewMarkdown(build(), { maxLength });
    expectWellFormed(markdown, maxLength);
    expectGolden(name, markdown);
  });

  it('preview-no-changes.golden.md: one line after the marker', () => {
    const unchanged = configMap('same', { a: '1' });
    const markdown = renderPreviewMarkdown(
      buildDocument([{ live: unchanged, desired: unchanged, action: 'unchanged' }]),
    );
    expect(markdown.trimEnd().split('\n')).toHaveLength(2);
    expect(markdown).toContain('No changes');
    expectGolden('preview-no-changes.golden.md', markdown);
  });
});

describe('renderPreviewMarkdown structure', () => {
  it('starts with the package marker and lists changed objects once, unchanged ones only counted', () => {
    const markdown = renderPreviewMarkdown(wordpressPreview());
    expect(markdown.split('\n')[0]).toBe('<!-- kpt-live-action:preview package=deploy/wordpress -->');
    expect(markdown).toContain('**1 to create · 2 to configure · 1 to prune · 1 skipped · 5 unchanged**');
    expect(markdown).not.toContain('wordpress-mysql` |');
    expect(markdown.match(/\| `Deployment\/wordpress` \|/g)).toHaveLength(1);
    expect(markdown).toContain('- ⚠️ skipped `ConfigMap/foreign`: inventory policy prevented actuation');
  });

  it('draws the waves only when there is more than one', () => {
    const doc = wordpressPreview();
    expect(renderPreviewMarkdown(doc)).toContain('```mermaid');
    expect(renderPreviewMarkdown({ ...doc, waves: [doc.waves.flat()] })).not.toContain('```mermaid');
  });

  it('escapes hostile names and messages so table rows and blocks stay intact', () => {
    const doc = wordpressPreview();
    doc.objects[4].reason = 'bad | pipe `tick` </details> ```fence``` <script>';
    doc.objects[0].id = { ...doc.objects[0].id, name: 'we|ird`name' };
    const markdown = renderPreviewMarkdown(doc);
    expectWellFormed(markdown);
    const rows = markdown.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| |'));
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length).toBe(5);
    expect(markdown).not.toContain('<script>');
  });

  it('keeps a diff that itself contains fences and details tags inside its code block', () => {
    const live = configMap('readme', { 'README.md': 'intro\n```sh\nmake\n```\n<details>\n' });
    const desired = configMap('readme', { 'README.md': 'intro\n````sh\nmake all\n````\n</details>\n' });
    const markdown = renderPreviewMarkdown(buildDocument([{ live, desired, action: 'configure' }]));
    expectWellFormed(markdown);
    expect(markdown).toContain('make all');
  });

  it('encodes a package path that could end the marker comment', () => {
    expect(previewMarker('a-->b%')).toBe('<!-- kpt-live-action:preview package=a--%3Eb%25 -->');
    expect(previewMarker('deploy/x')).toBe('<!-- kpt-live-action:preview package=deploy/x -->');
  });

  it('can leave the marker out (job summary)', () => {
    expect(renderPreviewMarkdown(wordpressPreview(), { marker: false }).startsWith('### Preview')).toBe(true);
  });

  it('degrades step by step and says what it cut', () => {
    const doc = generatedPreview(12);
    const full = renderPreviewMarkdown(doc);
    expect(full).not.toContain('✂️');
    const steps = [6000, 3000, 1500, 700].map((maxLength) => renderPreviewMarkdown(doc, { maxLength }));
    expect(steps[0]).toContain('Diffs shortened to fit');
    expect(steps[0]).toMatch(/\*… \d+ more lines not shown\*/);
    expect(steps[1]).toContain('Diffs left out to fit');
    expect(steps[1]).not.toContain('<details>');
    expect(steps[2]).toMatch(/Diffs and \d+ of 10 objects left out/);
    expect(steps[3]).toContain('The object list left out');
    expect(steps[3]).not.toContain('| object |');
    for (const step of steps) {
      expect(step).toContain('job summary');
      expect(checkBalanced(step).balanced).toBe(true);
      expect(step).toContain(
        '**1 to create · 6 to configure · 1 to prune · 1 skipped · 1 error · 2 unchanged**',
      );
    }
  });

  it('cuts one enormous diff instead of the whole list', () => {
    const data = (tag: string) =>
      Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, `${tag}-${i}`]));
    const doc = buildDocument([
      { live: configMap('huge', data('old')), desired: configMap('huge', data('new')), action: 'configure' },
    ]);
    const markdown = renderPreviewMarkdown(doc);
    expectWellFormed(markdown);
    expect(markdown).toContain('Diffs shortened');
    expect(markdown).toContain('<details>');
  });

  it('counts objects that could not be validated yet in the headline', () => {
    const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'new-ns' } };
    const doc = buildDocument([
      { desired: ns, action: 'create', wave: 1 },
      {
        desired: configMap('in-new-ns', {}),
        action: 'create',
        wave: 2,
        validated: false,
        reason: 'not validated: depends on Namespace/new-ns created by this package',
      },
    ]);
    const markdown = renderPreviewMarkdown(doc);
    expect(markdown).toContain('— 1 not validated by the server yet');
    expect(markdown).toContain('create (not validated: depends on Namespace/new-ns created by this package)');
  });
});

describe('renderPreviewMarkdown over generated plans of growing size', () => {
  it.each([1, 2, 5, 10, 30, 100, 300, 1000, 2000, 5000])(
    '%i objects: at most 65,536 characters, fences and details balanced',
    (n) => {
      const doc = generatedPreview(n);
      const markdown = renderPreviewMarkdown(doc);
      expectWellFormed(markdown);
      expect(markdown.split('\n')[0]).toBe(previewMarker('deploy/big'));
      const counted = Object.values(doc.summary).reduce((a, b) => a + b, 0);
      expect(counted).toBe(n);
    },
  );

  it('an empty document says No changes', () => {
    const doc: PreviewDocument = { ...buildDocument([]), summary: emptySummary() };
    expect(renderPreviewMarkdown(doc)).toContain(
      '**No changes** · `deploy/wordpress` → cluster `prod-eu` · no objects',
    );
  });

  it('a create of a Secret shows keys and sizes only', () => {
    const { diff } = diffObjects(undefined, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      stringData: { password: 'p4ssw0rd-value' },
    });
    expect(diff).toContain('+  password: (hidden, 14 bytes)');
  });
});

describe('blocked objects (apply would not deploy them)', () => {
  const blockedDoc = (): PreviewDocument => {
    const doc = buildDocument([
      { desired: configMap('web', { a: '1' }), action: 'create' },
      { desired: configMap('owned-elsewhere', { a: '1' }), action: 'error', file: 'p/cm.yaml' },
      { desired: configMap('needs-it', { a: '1' }), action: 'error' },
    ]);
    doc.objects[1].reason =
      'inventory policy prevented actuation (strategy: Apply, status: NoMatch, policy: MustMatch): owned by another inventory: inventory other-id (ResourceGroup team/inventory-other)';
    doc.objects[1].blocked = {
      cause: 'inventory-policy',
      owner: { id: 'other-id', resourceGroup: { namespace: 'team', name: 'inventory-other' } },
      fix: 'destroy the package that owns it (ResourceGroup team/inventory-other), or take it over with inventory-policy: force-adopt (--inventory-policy force-adopt)',
    };
    doc.objects[2].reason = 'dependency apply actuation skipped: shop_owned-elsewhere__ConfigMap';
    doc.objects[2].blocked = {
      cause: 'dependency',
      fix: 'fix ConfigMap/owned-elsewhere first (it is listed too)',
    };
    doc.summary.blocked = 2;
    return doc;
  };

  it('counts them in the headline, lists them with owner and fix, and marks their table rows', () => {
    const md = renderPreviewMarkdown(blockedDoc());
    expect(md).toContain('**1 to create · 2 blocked**');
    expect(md).toContain(
      '- ⛔ blocked `ConfigMap/owned-elsewhere` (apply would not deploy it): inventory policy prevented actuation',
    );
    expect(md).toContain('(ResourceGroup team/inventory-other). **Fix:** destroy the package that owns it');
    expect(md).toMatch(/^\| ⛔ \| `ConfigMap\/needs-it` \| blocked: dependency apply actuation skipped/m);
  });

  it('a blocked object and a server error are counted apart', () => {
    const doc = blockedDoc();
    doc.summary.error = 3;
    expect(renderPreviewMarkdown(doc)).toContain('**1 to create · 2 blocked · 1 error**');
  });
});
