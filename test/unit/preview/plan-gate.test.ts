import { describe, expect, it } from 'vitest';
import { findReviewedPlan, type PullPlan } from '../../../src/action/reviewed-plan.js';
import { type PlanEntry, reviewedPlan } from '../../../src/preview/plan-digest.js';
import { checkPlan, type ReviewLookup } from '../../../src/preview/plan-gate.js';
import { parsePlanDigest, renderPlanDigest } from '../../../src/report/plan-digest-marker.js';

const changed: PlanEntry[] = [
  { key: 'ns_web_apps_Deployment', action: 'configure', hash: '111111111111' },
  { key: 'ns_cfg__ConfigMap', action: 'unchanged', hash: '' },
];
const nothing: PlanEntry[] = [{ key: 'ns_cfg__ConfigMap', action: 'unchanged', hash: '' }];
const treeA = 'a'.repeat(40);
const treeB = 'b'.repeat(40);
const found: ReviewLookup = { kind: 'found', pull: 12, plan: reviewedPlan(changed, treeA) };
const planDriftGate = (
  pkg: string,
  reviewed: ReviewLookup,
  planned: readonly PlanEntry[] | undefined,
  policy: 'warn' | 'fail',
) => checkPlan({ policy, package: pkg, reviewed }, planned);

describe('plan-drift gate (after the pre-flight)', () => {
  it('passes a plan equal to the reviewed one; refuses (fail) or warns (warn) one that changed', () => {
    const same = planDriftGate('deploy/a', found, changed, 'fail');
    expect(same.info).toBe('the plan matches the one reviewed on #12');
    expect(same.refuse).toBeUndefined();
    const now = changed.map((e) => (e.action === 'configure' ? { ...e, hash: '222222222222' } : e));
    const refused = planDriftGate('deploy/a', found, now, 'fail');
    expect(refused.refuse).toMatch(
      /^the plan changed since #12 was reviewed: Deployment\/web \(namespace ns\)\. Refusing to apply \(plan-drift: fail\); nothing was changed/,
    );
    expect(refused.comparison?.differences).toHaveLength(1);
    expect(planDriftGate('deploy/a', found, now, 'warn').warn).toBe(
      'the plan changed since #12 was reviewed: Deployment/web (namespace ns)',
    );
  });

  it('fails closed: no reviewed plan refuses under fail and warns under warn', () => {
    const none: ReviewLookup = { kind: 'none', why: 'the PR comment was deleted or never written (#12)' };
    expect(planDriftGate('deploy/a', none, changed, 'fail').refuse).toBe(
      'no reviewed plan for deploy/a: the PR comment was deleted or never written (#12). Refusing to apply (plan-drift: fail); nothing was changed. Preview it in a pull request and merge that, or run with plan-drift: warn',
    );
    expect(planDriftGate('deploy/a', none, changed, 'warn')).toEqual({
      warn: 'no reviewed plan for deploy/a: the PR comment was deleted or never written (#12)',
    });
    // GitHub could not be asked: refused under fail, a notice under warn
    const unreadable: ReviewLookup = { kind: 'unreadable', why: 'GitHub answered 403' };
    expect(planDriftGate('deploy/a', unreadable, changed, 'fail').refuse).toMatch(
      /^no reviewed plan for deploy\/a could be read: GitHub answered 403\. Refusing/,
    );
    expect(planDriftGate('deploy/a', unreadable, changed, 'warn')).toEqual({
      notice: 'plan-drift not checked: GitHub answered 403',
    });
    // preflight off: nothing to compare
    expect(planDriftGate('deploy/a', none, undefined, 'fail').refuse).toMatch(/preflight is off/);
    expect(planDriftGate('deploy/a', none, undefined, 'warn').notice).toMatch(/preflight is off/);
  });

  it('a plan that changes nothing needs no review', () => {
    expect(planDriftGate('deploy/a', { kind: 'none', why: 'x' }, nothing, 'fail')).toEqual({
      info: 'nothing to change, so no reviewed plan is needed',
    });
  });

  it('plans reviewed on other trees: refused naming the pull requests, and how to avoid it', () => {
    const mismatch: ReviewLookup = {
      kind: 'mismatch',
      tree: treeB,
      reviewed: [
        { pull: 13, tree: 'c'.repeat(40) },
        { pull: 12, tree: treeA },
      ],
    };
    const v = planDriftGate('deploy/a', mismatch, changed, 'fail');
    expect(v.refuse).toBe(
      'no merged pull request reviewed the tree of deploy/a being applied (bbbbbbb): #13 reviewed ccccccc, #12 reviewed aaaaaaa; a merge after those reviews changed the package. Refusing to apply (plan-drift: fail); nothing was changed. Require branches to be up to date before merging (branch protection), or merge through a merge queue',
    );
    expect(planDriftGate('deploy/a', mismatch, changed, 'warn').warn).toMatch(/use a merge queue$/);
  });
});

describe('finding the reviewed plan among the merged pull requests (before the lock)', () => {
  const body = (tree?: string) =>
    `<!-- kpt-live-action:preview package=deploy/a -->\n${renderPlanDigest(reviewedPlan(changed, tree))}\n`;
  /** The pull requests' package comments, read as the apply reads them (either layout: here per package). */
  const comments =
    (map: Record<number, { body?: string } | { skipped: string } | undefined>) =>
    async (n: number): Promise<PullPlan> => {
      const c = map[n];
      if (c && 'skipped' in c) return c;
      return { plan: c?.body ? parsePlanDigest(c.body) : undefined };
    };
  const pulls = [{ number: 13 }, { number: 12 }];

  it('takes the newest merged pull request whose reviewed tree is the tree applied', async () => {
    const r = await findReviewedPlan(
      pulls,
      comments({ 13: { body: body(treeB) }, 12: { body: body(treeA) } }),
      treeA,
    );
    expect(r).toMatchObject({ kind: 'found', pull: 12, plan: { tree: treeA } });
  });

  it('names the pull requests when none reviewed this tree', async () => {
    const r = await findReviewedPlan(
      pulls,
      comments({ 13: { body: body(treeB) }, 12: { body: body(treeB) } }),
      treeA,
    );
    expect(r).toEqual({
      kind: 'mismatch',
      tree: treeA,
      reviewed: [
        { pull: 13, tree: treeB },
        { pull: 12, tree: treeB },
      ],
    });
  });

  it('accepts a comment of an older version (no tree) from the newest pull request with a plan', async () => {
    const r = await findReviewedPlan(pulls, comments({ 13: undefined, 12: { body: body() } }), treeA);
    expect(r).toMatchObject({ kind: 'found', pull: 12 });
  });

  it('says why there is none: no comment, no pull request, or GitHub refused', async () => {
    expect(await findReviewedPlan(pulls, comments({}), treeA)).toEqual({
      kind: 'none',
      why: 'the PR comment was deleted or never written (#13, #12; a package with nothing to change at review gets none under comment: changes)',
    });
    expect((await findReviewedPlan([], comments({}), treeA)).kind).toBe('none');
    expect(await findReviewedPlan([{ number: 12 }], comments({ 12: { skipped: '403' } }), treeA)).toEqual({
      kind: 'unreadable',
      why: '#12: 403',
    });
  });
});
