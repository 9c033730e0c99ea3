import { describe, expect, it } from 'vitest';
import { planOf, reviewedPlan } from '../../../src/preview/plan-digest.js';
import type { PreviewDocument } from '../../../src/preview/types.js';
import { type CombinedEntry, renderCombinedComment } from '../../../src/report/combined-comment.js';
import {
  combinedMarker,
  packageSection,
  parseCombinedMarker,
  replaceSection,
  sectionPackages,
  sectionPreview,
  withSectionApplied,
} from '../../../src/report/combined-sections.js';
import { checkBalanced } from '../../../src/report/markdown-balance.js';
import { parsePlanDigest, renderPlanDigest } from '../../../src/report/plan-digest-marker.js';
import { APPLIED_MARKER } from '../../../src/report/pr-comment-body.js';
import { buildDocument, configMap, generatedPreview, wordpressPreview } from './preview-fixtures.js';

const entry = (doc: PreviewDocument): CombinedEntry => ({
  doc,
  digest: renderPlanDigest(reviewedPlan(planOf(doc.objects, []))),
});
const changed = (pkg: string) => entry({ ...wordpressPreview(), package: pkg });
const quiet = (pkg: string) =>
  entry(
    buildDocument([{ live: configMap('a', {}), desired: configMap('a', {}), action: 'unchanged' }], {
      package: pkg,
    }),
  );
const big = (pkg: string, n: number) => entry({ ...generatedPreview(n, 40), package: pkg });

describe('the combined preview comment', () => {
  it('one comment: marker, a table of every package, a folded section per package with its own plan digest', () => {
    const entries = [changed('deploy/a'), quiet('deploy/b'), changed('deploy/c')];
    const parts = renderCombinedComment(entries, { commentKey: 'prod' });
    expect(parts).toHaveLength(1);
    const [body] = parts;
    expect(body.split('\n')[0]).toBe('<!-- kpt-live-action:preview combined part=1 key=prod -->');
    expect(parseCombinedMarker(body)).toEqual({ part: 1, key: 'prod' });
    expect(body).toContain('### Preview · 3 packages');
    expect(body).toContain('**2 with changes · 1 with nothing to do**');
    expect(body).toMatch(/\| ✏️ \| `deploy\/a` \| 1 to create/);
    expect(body).toMatch(/\| · \| `deploy\/b` \| no changes \|/);
    expect(sectionPackages(body)).toEqual(['deploy/a', 'deploy/b', 'deploy/c']);
    for (const e of entries) {
      const section = packageSection(body, e.doc.package)!;
      expect(parsePlanDigest(section)).toEqual(parsePlanDigest(e.digest));
    }
    // the changed packages' previews are folded; the unchanged one has only its digest
    expect(packageSection(body, 'deploy/a')).toMatch(/^<details><summary>✏️ <code>deploy\/a<\/code>/);
    expect(packageSection(body, 'deploy/b')).toMatch(/^<!-- kpt-live-action:plan v1/);
    expect(checkBalanced(body).problems).toEqual([]);
    expect(body.length).toBeLessThanOrEqual(65_536);
  });

  it('splits into more parts only when one comment cannot hold them, each under the limit', () => {
    const few = renderCombinedComment([big('deploy/a', 10), big('deploy/b', 10)]);
    expect(few).toHaveLength(1);
    const entries = Array.from({ length: 8 }, (_, i) => big(`deploy/p${i}`, 60));
    const parts = renderCombinedComment(entries, { commentKey: 'k' });
    expect(parts.length).toBeGreaterThan(1);
    parts.forEach((p, i) => {
      expect(p.length).toBeLessThanOrEqual(65_536);
      expect(parseCombinedMarker(p)).toEqual({ part: i + 1, key: 'k' });
      expect(checkBalanced(p).problems).toEqual([]);
    });
    expect(parts[0]).toContain(`Continued in ${parts.length - 1} more comment`);
    expect(parts[1]).toContain(`### Preview · continued (part 2 of ${parts.length})`);
    // every package is in exactly one part, in order, each with its digest
    expect(parts.flatMap((p) => sectionPackages(p))).toEqual(entries.map((e) => e.doc.package));
    for (const e of entries) {
      const holder = parts.find((p) => packageSection(p, e.doc.package) !== undefined)!;
      expect(parsePlanDigest(packageSection(holder, e.doc.package)!)).toEqual(parsePlanDigest(e.digest));
    }
  });

  it('shortens the diffs rather than going past the most parts', () => {
    const entries = Array.from({ length: 8 }, (_, i) => big(`deploy/p${i}`, 60));
    const unbounded = renderCombinedComment(entries, { maxParts: 100 });
    const capped = renderCombinedComment(entries, { maxParts: 2 });
    expect(unbounded.length).toBeGreaterThan(2);
    expect(capped.length).toBeLessThanOrEqual(2);
    expect(capped.join('')).toContain('to fit the combined comment');
    expect(capped.flatMap((p) => sectionPackages(p))).toHaveLength(8);
  });

  it('keeps sections of packages it did not preview, and names packages no longer changed', () => {
    const earlier = renderCombinedComment([changed('deploy/x')])[0];
    const parts = renderCombinedComment([changed('deploy/a')], {
      carried: [{ package: 'deploy/x', inner: packageSection(earlier, 'deploy/x')! }],
      noLongerChanged: ['deploy/old'],
    });
    expect(sectionPackages(parts[0])).toEqual(['deploy/a', 'deploy/x']);
    expect(packageSection(parts[0], 'deploy/x')).toBe(packageSection(earlier, 'deploy/x'));
    expect(parts[0]).toMatch(/\| ↩️ \| `deploy\/x` \| 1 to create .* \(from an earlier run\) \|/);
    expect(parts[0]).toContain(
      '**No longer changed by this pull request** (merging it applies nothing to them): `deploy/old`',
    );
  });

  it('sections: replaced in place, the Applied part replaced on a second apply, never touching other packages', () => {
    const body = renderCombinedComment([changed('deploy/a'), changed('deploy/b')])[0];
    const b = packageSection(body, 'deploy/b')!;
    const applied1 = `${APPLIED_MARKER}\n### Applied · \`deploy/a\` · ❌ applied with failures\n`;
    const applied2 = `${APPLIED_MARKER}\n### Applied · \`deploy/a\` · ✅ applied\n`;
    const once = replaceSection(
      body,
      'deploy/a',
      withSectionApplied(packageSection(body, 'deploy/a')!, applied1),
    );
    const twice = replaceSection(
      once,
      'deploy/a',
      withSectionApplied(packageSection(once, 'deploy/a')!, applied2),
    );
    const a = packageSection(twice, 'deploy/a')!;
    expect(a).toContain('✅ applied');
    expect(a).not.toContain('❌');
    expect(a.split(APPLIED_MARKER)).toHaveLength(2);
    expect(sectionPreview(a)).toBe(sectionPreview(packageSection(body, 'deploy/a')!));
    expect(packageSection(twice, 'deploy/b')).toBe(b);
    // a package without a section gets one at the end
    expect(sectionPackages(replaceSection(twice, 'deploy/new', applied2))).toEqual([
      'deploy/a',
      'deploy/b',
      'deploy/new',
    ]);
  });

  it('markers: part numbers and keys never prefix one another; a package path cannot end the HTML comment', () => {
    expect(combinedMarker(10).startsWith(combinedMarker(1))).toBe(false);
    expect(combinedMarker(1, 'prod').startsWith(combinedMarker(1))).toBe(false);
    expect(parseCombinedMarker('<!-- kpt-live-action:preview package=deploy/a -->')).toBeUndefined();
    const body = replaceSection(combinedMarker(1), 'deploy/a-->x', 'inner');
    expect(body).not.toContain('a-->x');
    expect(sectionPackages(body)).toEqual(['deploy/a-->x']);
    expect(packageSection(body, 'deploy/a-->x')).toBe('inner');
  });
});
