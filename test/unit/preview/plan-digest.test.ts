import { describe, expect, it } from 'vitest';
import { idKey, idOf } from '../../../src/common/object-id.js';
import { diffObjects } from '../../../src/preview/diff.js';
import {
  comparePlans,
  manifestHash,
  type PlanEntry,
  planEntry,
  planOf,
  reviewedPlan,
} from '../../../src/preview/plan-digest.js';
import {
  parsePlanDigest,
  renderPlanDigest,
  withoutPlanDigest,
} from '../../../src/report/plan-digest-marker.js';
import {
  configMap,
  deployment,
  PLANTED,
  PLANTED_B64,
  secret,
  wordpressPreview,
} from '../report/preview-fixtures.js';

const desiredOfWordpress = () => [
  configMap('wp-config-2', { WORDPRESS_DB_HOST: 'wordpress-mysql' }),
  deployment('wordpress', 2, 'wp-config-2'),
];

describe('plan digest', () => {
  it('takes each object action and a hash of its changes; unchanged objects carry no hash', () => {
    const plan = planOf(wordpressPreview().objects, desiredOfWordpress());
    const byKey = new Map(plan.map((e) => [e.key, e]));
    const web = byKey.get('shop_wordpress_apps_Deployment')!;
    expect(web.action).toBe('configure');
    expect(web.hash).toMatch(/^[0-9a-f]{12}$/);
    expect(byKey.get('shop_wp-config-2__ConfigMap')).toMatchObject({ action: 'create' });
    expect(byKey.get('shop_wp-config-2__ConfigMap')!.hash).toBe(
      manifestHash(configMap('wp-config-2', { WORDPRESS_DB_HOST: 'wordpress-mysql' })),
    );
    expect(byKey.get('shop_wp-config-1__ConfigMap')).toEqual({
      key: 'shop_wp-config-1__ConfigMap',
      action: 'prune',
      hash: '',
    });
    expect(byKey.get('shop_mysql-config__ConfigMap')).toMatchObject({ action: 'unchanged', hash: '' });
    expect(plan.map((e) => e.key)).toEqual([...plan.map((e) => e.key)].sort());
  });

  it('reads as the same plan when nothing changed, and names what did', () => {
    const reviewed = reviewedPlan(planOf(wordpressPreview().objects, desiredOfWordpress()));
    const now = planOf(wordpressPreview().objects, desiredOfWordpress());
    expect(comparePlans(reviewed, now)).toEqual({ same: true, differences: [] });

    // someone scaled the Deployment by hand: the same configure now changes other values
    const live = deployment('wordpress', 3, 'wp-config-1');
    const changed = diffObjects(live, deployment('wordpress', 2, 'wp-config-2')).changes;
    const drifted: PlanEntry[] = now.map((e) =>
      e.key === 'shop_wordpress_apps_Deployment'
        ? planEntry(idOf(live), 'configure', { changes: changed })
        : e.key === 'shop_mysql-config__ConfigMap'
          ? { ...e, action: 'configure', hash: 'abcabcabcabc' }
          : e,
    );
    const c = comparePlans(reviewed, drifted);
    expect(c.same).toBe(false);
    expect(c.differences).toEqual([
      { key: 'shop_mysql-config__ConfigMap', reviewed: 'unchanged', now: 'configure', changesDiffer: false },
      { key: 'shop_wordpress_apps_Deployment', reviewed: 'configure', now: 'configure', changesDiffer: true },
    ]);
  });

  it('names an object the review planned that is no longer planned', () => {
    const reviewed = reviewedPlan(planOf(wordpressPreview().objects, desiredOfWordpress()));
    const now = planOf(wordpressPreview().objects, desiredOfWordpress()).filter(
      (e) => e.key !== 'shop_wp-config-1__ConfigMap',
    );
    expect(comparePlans(reviewed, now).differences).toEqual([
      { key: 'shop_wp-config-1__ConfigMap', reviewed: 'prune', now: 'unchanged', changesDiffer: false },
    ]);
  });

  it('treats a configure that changes no value (ownership only) as unchanged', () => {
    const id = idOf(configMap('a', {}));
    expect(planEntry(id, 'configure', { changes: [] })).toEqual({
      key: idKey(id),
      action: 'unchanged',
      hash: '',
    });
  });

  it('never carries a Secret value: a create hashes sizes, and the digest text holds no value', () => {
    const a = secret('db', { password: PLANTED_B64 });
    const b = secret('db', { password: Buffer.from('x'.repeat(PLANTED.length)).toString('base64') });
    // same sizes, different values: the same hash (the value is not in it)
    expect(manifestHash(a)).toBe(manifestHash(b));
    const text = renderPlanDigest(reviewedPlan([planEntry(idOf(a), 'create', { desired: a })]));
    expect(text).not.toContain(PLANTED);
    expect(text).not.toContain(PLANTED_B64);
  });

  it('ignores what the engine adds to the desired object (owning-inventory)', () => {
    const cm = configMap('a', { k: 'v' });
    const owned = configMap('a', { k: 'v' }, { 'config.k8s.io/owning-inventory': 'inv-1' });
    expect(manifestHash(owned)).toBe(manifestHash(cm));
    expect(manifestHash(configMap('a', { k: 'w' }))).not.toBe(manifestHash(cm));
  });
});

describe('plan digest in the comment', () => {
  it('round-trips through the hidden HTML comment', () => {
    const reviewed = reviewedPlan(planOf(wordpressPreview().objects, desiredOfWordpress()));
    const text = renderPlanDigest(reviewed);
    expect(text.startsWith('<!-- kpt-live-action:plan v1 ')).toBe(true);
    expect(text.endsWith('-->')).toBe(true);
    expect(text.indexOf('-->')).toBe(text.length - 3);
    const body = `<!-- kpt-live-action:preview package=deploy/wordpress -->\n### Preview\n\n${text}\n`;
    expect(parsePlanDigest(body)).toEqual(reviewed);
    expect(withoutPlanDigest(body)).toBe(
      '<!-- kpt-live-action:preview package=deploy/wordpress -->\n### Preview\n',
    );
  });

  it("carries the package's reviewed tree; a comment without one (an older version) still parses", () => {
    const tree = '9b1e'.repeat(10);
    const reviewed = reviewedPlan(planOf(wordpressPreview().objects, desiredOfWordpress()), tree);
    const text = renderPlanDigest(reviewed);
    expect(text.split('\n')[0]).toMatch(
      new RegExp(`^<!-- kpt-live-action:plan v1 hash=[0-9a-f]+ objects=\\d+ tree=${tree}$`),
    );
    expect(parsePlanDigest(text)).toEqual(reviewed);
    expect(parsePlanDigest(renderPlanDigest(reviewed, 100))).toEqual({
      hash: reviewed.hash,
      objects: reviewed.objects,
      tree,
    });
    const older = text.replace(` tree=${tree}`, '');
    const parsed = parsePlanDigest(older)!;
    expect(parsed.tree).toBeUndefined();
    expect(parsed.changed).toEqual(reviewed.changed);
  });

  it('keeps only the whole-plan hash when the object list would not fit, and still tells a change', () => {
    const entries: PlanEntry[] = Array.from({ length: 50 }, (_, i) => ({
      key: `shop_cm-${i}__ConfigMap`,
      action: 'create',
      hash: 'a'.repeat(12),
    }));
    const text = renderPlanDigest(reviewedPlan(entries), 500);
    expect(text.length).toBeLessThan(500);
    const parsed = parsePlanDigest(text)!;
    expect(parsed.changed).toBeUndefined();
    expect(comparePlans(parsed, entries).same).toBe(true);
    const c = comparePlans(parsed, entries.slice(1));
    expect(c.same).toBe(false);
    expect(c.note).toMatch(/too large/);
  });

  it('finds no digest in a comment without one, or a damaged one', () => {
    expect(parsePlanDigest('<!-- kpt-live-action:preview package=a -->\nhello')).toBeUndefined();
    expect(parsePlanDigest('<!-- kpt-live-action:plan v1 hash=zz objects=1\n-->')).toBeUndefined();
    expect(parsePlanDigest('<!-- kpt-live-action:plan v1 hash=ab objects=1\nfly 1 x\n-->')).toBeUndefined();
  });
});
