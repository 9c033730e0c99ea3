import { describe, expect, it } from 'vitest';
import { renderPreviewText } from '../../../src/report/preview-text.js';
import { expectGolden } from './golden.js';
import { buildDocument, configMap, generatedPreview, wordpressPreview } from './preview-fixtures.js';

describe('renderPreviewText', () => {
  it('preview-small.golden.txt: objects, every field change, and diffs', () => {
    expectGolden('preview-small.golden.txt', renderPreviewText(wordpressPreview()));
  });

  it('lists every changed field (no "+N more") and can leave diffs out', () => {
    const text = renderPreviewText(generatedPreview(3), { diffs: false });
    expect(text).not.toContain('+N more');
    expect(text).not.toContain('---');
    expect(text.match(/^ {4}data\.key-\d+ changed$/gm)?.length).toBeGreaterThan(3);
  });

  it('is never shortened, whatever the size', () => {
    const doc = generatedPreview(400);
    const text = renderPreviewText(doc);
    for (const obj of doc.objects.filter((o) => o.action !== 'unchanged'))
      expect(text).toContain(obj.id.name);
  });

  it('says no changes in one line', () => {
    const same = configMap('same', {});
    expect(renderPreviewText(buildDocument([{ live: same, desired: same, action: 'unchanged' }]))).toBe(
      'Preview of deploy/wordpress (cluster prod-eu, namespace shop): no changes (1 unchanged)\n',
    );
  });

  it('colours only when asked', () => {
    expect(renderPreviewText(wordpressPreview())).not.toContain('\u001b[');
    expect(renderPreviewText(wordpressPreview(), { color: true })).toContain(
      '\u001b[32m+ ConfigMap/wp-config-2',
    );
  });
});

describe('blocked objects in the terminal preview', () => {
  it('counts them and says why and what to do', () => {
    const doc = buildDocument([
      { desired: configMap('web', { a: '1' }), action: 'create' },
      { desired: configMap('owned-elsewhere', { a: '1' }), action: 'error' },
    ]);
    doc.objects[1].reason =
      'inventory policy prevented actuation: owned by another inventory: inventory other-id';
    doc.objects[1].blocked = { cause: 'inventory-policy', owner: { id: 'other-id' }, fix: 'destroy it' };
    doc.summary.blocked = 1;
    const text = renderPreviewText(doc, { diffs: false });
    expect(text).toContain('1 to create, 1 blocked\n');
    expect(text).toMatch(
      /x ConfigMap\/owned-elsewhere\s+blocked: inventory policy prevented actuation: owned by another inventory: inventory other-id\. Fix: destroy it/,
    );
  });
});
