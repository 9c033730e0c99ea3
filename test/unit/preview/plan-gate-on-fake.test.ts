import { describe, expect, it } from 'vitest';
import type { RunOptions } from '../../../src/apply/run-options.js';
import { Annotations } from '../../../src/common/constants.js';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { planOf, reviewedPlan } from '../../../src/preview/plan-digest.js';
import type { ReviewLookup } from '../../../src/preview/plan-gate.js';
import { previewObjects } from '../../../src/preview/preview-document.js';
import { actionsOf, ns, type Walk, walkOnFake } from '../../support/fake-walk.js';
import { configMap, secret } from '../../support/harness/builders.js';

/**
 * The plan gate (`plan-drift`) on a real walk: the preview's plan is reviewed on a pull request; the apply's
 * pre-flight computes its plan the same way (the same recorded decisions, the same view) and compares. Under
 * `fail` a plan that differs from the reviewed one stops the run with nothing written. A row: the state
 * reviewed, what changed between the review and the apply, and the verdict.
 */
const cm = (name: string, x: string, o: Parameters<typeof configMap>[2] = {}) =>
  configMap(name, { x }, { namespace: ns, ...o });
const keep = { annotations: { [Annotations.OnRemove]: 'keep' } };
const cmRef = (name: string) => ({ apiVersion: 'v1', group: '', kind: 'ConfigMap', namespace: ns, name });

/** What was applied before the review: the state the preview and the apply both start from. */
const before = (): KubeObject[] => [cm('same', '1'), cm('edit', '1'), cm('gone', '1'), cm('kept', '1', keep)];
/** The package reviewed: a Secret and a ConfigMap to create, one to configure, one unchanged, one pruned, one kept. */
const reviewed = (): KubeObject[] => [
  cm('same', '1'),
  cm('edit', '2'),
  cm('new', '1'),
  secret('token', { password: 's3cret' }, { namespace: ns }),
];

interface GateRow {
  rule: string;
  /** What happens between the review and the apply. */
  between?: (w: Walk) => Promise<unknown>;
  /** The package applied (default: the one reviewed). */
  applied?: () => KubeObject[];
  /** What the comments hold (default: the reviewed plan, found on #7). */
  lookup?: (plan: ReturnType<typeof reviewedPlan>) => ReviewLookup;
  options?: Partial<RunOptions>;
  /** The refusal; else the run succeeds with this info line. */
  refuse?: RegExp;
  info?: RegExp;
}

const rows: GateRow[] = [
  {
    rule: "the same state and package: the pre-flight's plan is the reviewed one",
    info: /^the plan matches the one reviewed on #7$/,
  },
  {
    rule: 'a hand edit after the review changes what apply would change: refused',
    between: (w) =>
      w.client.jsonPatch(cmRef('edit'), [{ op: 'replace', path: '/data/x', value: 'hotfix' }], {
        fieldManager: 'kubectl-patch',
      }),
    refuse:
      /^the plan changed since #7 was reviewed: ConfigMap\/edit \(namespace team\)\. Refusing to apply \(plan-drift: fail\); nothing was changed\./,
  },
  {
    rule: 'a value of the package changed after the review: refused',
    applied: () => [
      cm('same', '1'),
      cm('edit', '3'),
      cm('new', '1'),
      secret('token', { password: 's3cret' }, { namespace: ns }),
    ],
    refuse: /^the plan changed since #7 was reviewed: ConfigMap\/edit \(namespace team\)\./,
  },
  {
    rule: "a Secret's value changed to one of another size: refused, and no value is in the message",
    applied: () => [
      ...reviewed().slice(0, 3),
      secret('token', { password: 'longer-secret' }, { namespace: ns }),
    ],
    refuse: /^the plan changed since #7 was reviewed: Secret\/token \(namespace team\)\./,
  },
  {
    // the plan a comment carries holds a Secret's sizes, never a hash of its values (a public comment would
    // let anyone test guesses of a short secret against it)
    rule: "a Secret's value changed to one of the same size: not seen by the plan",
    applied: () => [...reviewed().slice(0, 3), secret('token', { password: 'other!' }, { namespace: ns })],
    info: /^the plan matches the one reviewed on #7$/,
  },
  {
    rule: 'an object added to the package after the review: refused',
    applied: () => [...reviewed(), cm('extra', '1')],
    refuse: /^the plan changed since #7 was reviewed: ConfigMap\/extra \(namespace team\)\./,
  },
  {
    rule: 'no reviewed plan, with changes: refused',
    lookup: () => ({ kind: 'none', why: 'no merged pull request' }),
    refuse: /^no reviewed plan for pkg: no merged pull request\. Refusing to apply/,
  },
  {
    rule: 'preflight off: there is no plan to compare, refused',
    options: { preflight: 'off' },
    refuse: /plan-drift: fail compares the pre-flight's plan with the reviewed one, but preflight is off/,
  },
];

describe('plan-drift: fail on a walk', () => {
  it.each(rows)('$rule', async (row) => {
    const w = await walkOnFake();
    expect((await w.apply(before())).run.outcome).toBe('success');
    const preview = await w.apply(reviewed(), { dryRun: true });
    const objects = await previewObjects(preview.run.objects, preview.run, {
      allowSkipped: false,
      fieldManager: 'kpt-live-action',
    });
    const plan = reviewedPlan(planOf(objects, reviewed()));
    expect(plan.changed?.map((e) => `${e.action} ${e.key}`).sort()).toEqual([
      'configure team_edit__ConfigMap',
      'create team_new__ConfigMap',
      'create team_token__Secret',
      'orphan team_kept__ConfigMap',
      'prune team_gone__ConfigMap',
    ]);
    await row.between?.(w);
    const mark = w.fake.log.mark();
    const reviewedLookup: ReviewLookup = row.lookup?.(plan) ?? { kind: 'found', pull: 7, plan };
    const { run, planCheck } = await w.apply(row.applied?.() ?? reviewed(), {
      options: row.options,
      gate: { policy: 'fail', package: 'pkg', reviewed: reviewedLookup },
    });
    if (row.refuse) {
      expect(run.outcome).toBe('error');
      expect(run.error).toMatch(row.refuse);
      expect(run.error).not.toMatch(/s3cret|longer-secret/);
      expect(w.fake.log.since(mark).filter((r) => r.mutating && !r.dryRun)).toEqual([]);
      return;
    }
    expect(run.outcome, run.error).toBe('success');
    expect(planCheck?.info).toMatch(row.info!);
    expect(actionsOf(run)).toEqual({
      'ConfigMap/same': 'unchanged',
      'ConfigMap/edit': 'configured',
      'ConfigMap/new': 'created',
      'Secret/token': 'created',
      'ConfigMap/gone': 'pruned',
      'ConfigMap/kept': 'abandoned',
    });
  });
});
