import { expect } from 'vitest';
import type { DecidedAction } from '../../src/apply/decision.js';
import type { PreflightMode, RunOptions } from '../../src/apply/run-options.js';
import type { KubeObject } from '../../src/common/kube-object.js';
import { planOf, reviewedPlan } from '../../src/preview/plan-digest.js';
import { previewObjects } from '../../src/preview/preview-document.js';
import { actionsOf, carriedAs, decidedActionsOf, ns, type Walk, walkOnFake } from './fake-walk.js';
import { configMap, deployment } from './harness/builders.js';

/**
 * One cluster state, for the tables that hold the dry run to the real apply: the package, how the cluster
 * got there, and the decision per object. `checkDryRunThenApply` runs it: the dry run (the preview) records
 * those decisions; the real apply then does exactly that (its outcome per object), or its pre-flight
 * refuses with nothing written; its pre-flight's plan is the preview's plan (the plan gate compares one
 * view of one decision); and the dry run right after it finds nothing left to do where the state allows.
 */
export interface StateRow {
  state: string;
  package: () => KubeObject[];
  /** Leaves the cluster in the state. */
  setup?: (w: Walk) => Promise<unknown>;
  options?: Partial<RunOptions>;
  /** The decision per object (`Kind/name`). */
  decided: Record<string, DecidedAction>;
  /** The pre-flight stops the real apply with nothing written (an object the dry run decided is an error). */
  refused?: boolean;
  /** The dry run after the apply (default: every object unchanged). */
  again?: Record<string, DecidedAction>;
  /** What the cluster holds after the apply. */
  check?: (w: Walk) => Promise<unknown> | unknown;
}

export const cm = (name: string, data: Record<string, string>, o: Parameters<typeof configMap>[2] = {}) =>
  configMap(name, data, { namespace: ns, ...o });
export const web = (image = 'example/app:1', o: Parameters<typeof deployment>[1] = {}) =>
  deployment('web', { namespace: ns, image, ...o });
export const cmRef = (name: string) => ({
  apiVersion: 'v1',
  group: '',
  kind: 'ConfigMap',
  namespace: ns,
  name,
});
export const webRef = {
  apiVersion: 'apps/v1',
  group: 'apps',
  kind: 'Deployment',
  namespace: ns,
  name: 'web',
};

/** Applies the package as this tool would, so the state starts from our own last apply. */
export const applied = (pkg: () => KubeObject[]) => async (w: Walk) => {
  const { run } = await w.apply(pkg());
  expect(run.outcome, run.error).toBe('success');
};

/** The field managers of an object, sorted. */
export const managers = (w: Walk, ref: Parameters<Walk['fake']['object']>[0]) =>
  ((w.fake.object(ref)?.metadata.managedFields ?? []) as { manager: string }[]).map((e) => e.manager).sort();

/** Each row under each pre-flight that asks the server (a row may set its own). */
export function runsOf(rows: StateRow[]): (StateRow & { preflight: PreflightMode })[] {
  return rows.flatMap((row) =>
    row.options?.preflight
      ? [{ ...row, preflight: row.options.preflight }]
      : (['auto', 'all'] as const).map((preflight) => ({ ...row, preflight })),
  );
}

const promised = (decided: Record<string, DecidedAction>) =>
  Object.fromEntries(Object.entries(decided).map(([k, a]) => [k, carriedAs[a]]));

export async function checkDryRunThenApply(row: StateRow & { preflight: PreflightMode }): Promise<void> {
  const w = await walkOnFake();
  await row.setup?.(w);
  const options = { ...row.options, preflight: row.preflight };
  const pkg = row.package();

  const dry = await w.apply(pkg, { dryRun: true, options });
  expect(decidedActionsOf(dry.run), dry.run.error).toEqual(row.decided);
  expect(actionsOf(dry.run)).toEqual(promised(row.decided));

  // the plan the preview showed, as its comment carries it
  const previewed = await previewObjects(dry.run.objects, dry.run, {
    allowSkipped: false,
    fieldManager: 'kpt-live-action',
  });
  const plan = reviewedPlan(planOf(previewed, pkg));
  const mark = w.fake.log.mark();
  const real = await w.apply(pkg, {
    options,
    gate: { policy: 'warn', package: 'pkg', reviewed: { kind: 'found', pull: 1, plan } },
  });
  if (row.refused) {
    expect(real.run.outcome).toBe('error');
    expect(real.run.error).toMatch(/nothing was changed/);
    expect(w.fake.log.since(mark).filter((r) => r.mutating && !r.dryRun)).toEqual([]);
  } else {
    expect(actionsOf(real.run), real.run.error).toEqual(promised(row.decided));
    // without a pre-flight the real run asks nothing: its objects are judged by their own writes
    if (options.preflight !== 'off') {
      expect(decidedActionsOf(real.run)).toEqual(row.decided);
      expect(real.planCheck?.comparison?.same, real.planCheck?.warn).toBe(true);
    }
  }

  const again = await w.apply(pkg, { dryRun: true, options });
  const unchanged = Object.fromEntries(Object.keys(row.decided).map((k) => [k, 'unchanged']));
  expect(decidedActionsOf(again.run)).toEqual(row.again ?? unchanged);
  await row.check?.(w);
}
