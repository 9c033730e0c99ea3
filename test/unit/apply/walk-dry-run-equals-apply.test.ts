import { describe, expect, it } from 'vitest';
import type { DecidedAction } from '../../../src/apply/decision.js';
import type { RunOptions } from '../../../src/apply/run-options.js';
import { Annotations } from '../../../src/common/constants.js';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { planOf, reviewedPlan } from '../../../src/preview/plan-digest.js';
import { previewObjects } from '../../../src/preview/preview-document.js';
import {
  actionsOf,
  carriedAs,
  decidedActionsOf,
  decisionsOf,
  inventory,
  ns,
  type Walk,
  walkOnFake,
} from '../../support/fake-walk.js';
import { configMap, deployment, service } from '../../support/harness/builders.js';

/**
 * For each state a cluster may be in, the dry run (the preview) records a decision per object; the real
 * apply then does exactly that (its outcome per object), its pre-flight's plan is the preview's plan (the
 * plan gate compares the same view), and the dry run right after the apply finds nothing left to do where
 * the state allows. A row is a state: the package, how the cluster got there, what is decided.
 */
interface StateRow {
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

const cm = (name: string, data: Record<string, string>, o: Parameters<typeof configMap>[2] = {}) =>
  configMap(name, data, { namespace: ns, ...o });
const web = (image = 'example/app:1', o: Parameters<typeof deployment>[1] = {}) =>
  deployment('web', { namespace: ns, image, ...o });
const cmRef = (name: string) => ({ apiVersion: 'v1', group: '', kind: 'ConfigMap', namespace: ns, name });
const webRef = { apiVersion: 'apps/v1', group: 'apps', kind: 'Deployment', namespace: ns, name: 'web' };
const owned = { [Annotations.OwningInventory]: inventory.id };
const dependsOnBase = { dependsOn: `/namespaces/${ns}/ConfigMap/base` };

/** Applies the package as this tool would, so the state starts from our own last apply. */
const applied = (pkg: () => KubeObject[]) => async (w: Walk) => {
  const { run } = await w.apply(pkg());
  expect(run.outcome, run.error).toBe('success');
};
const managers = (w: Walk, ref: Parameters<Walk['fake']['object']>[0]) =>
  ((w.fake.object(ref)?.metadata.managedFields ?? []) as { manager: string }[]).map((e) => e.manager).sort();

const rows: StateRow[] = [
  {
    state: 'fresh: nothing in the cluster',
    package: () => [cm('a', { x: '1' }), web(), service('web', { namespace: ns })],
    decided: { 'ConfigMap/a': 'create', 'Deployment/web': 'create', 'Service/web': 'create' },
  },
  {
    state: 'unchanged: our last apply is in place',
    package: () => [cm('a', { x: '1' }), web()],
    setup: applied(() => [cm('a', { x: '1' }), web()]),
    decided: { 'ConfigMap/a': 'unchanged', 'Deployment/web': 'unchanged' },
  },
  {
    state: 'a hand edit (kubectl patch) of a field the package sets, and a label it does not set',
    package: () => [cm('a', { x: '1', y: '1' })],
    setup: async (w) => {
      await applied(() => [cm('a', { x: '1', y: '1' })])(w);
      await w.client.jsonPatch(cmRef('a'), [{ op: 'replace', path: '/data/x', value: 'edited' }], {
        fieldManager: 'kubectl-patch',
      });
      await w.client.jsonPatch(
        cmRef('a'),
        [{ op: 'add', path: '/metadata/labels', value: { hotfix: 'yes' } }],
        {
          fieldManager: 'kubectl-label',
        },
      );
    },
    decided: { 'ConfigMap/a': 'configure' },
    check: (w) => {
      const live = w.fake.object(cmRef('a'))!;
      expect(live.data).toEqual({ x: '1', y: '1' });
      expect(live.metadata.labels).toEqual({ hotfix: 'yes' });
      expect(managers(w, cmRef('a'))).toEqual(['kpt-live-action', 'kubectl-label']);
    },
  },
  {
    state: "a hand edit (kubectl set image) of a Deployment's image, its status written by the controller",
    package: () => [web('example/app:1')],
    setup: async (w) => {
      await applied(() => [web('example/app:1')])(w);
      await w.client.jsonPatch(
        webRef,
        [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'example/app:hotfix' }],
        { fieldManager: 'kubectl-set' },
      );
    },
    decided: { 'Deployment/web': 'configure' },
    check: (w) => {
      const live = w.fake.object(webRef)!;
      expect(
        (live.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0]
          .image,
      ).toBe('example/app:1');
    },
  },
  {
    state: 'a field a co-owner (another server-side applier) holds with another value',
    package: () => [cm('a', { x: '1' }), cm('b', { x: '1' })],
    setup: async (w) => {
      await applied(() => [cm('a', { x: '1' }), cm('b', { x: '1' })])(w);
      await w.client.apply(cm('a', { x: 'theirs' }), { fieldManager: 'other-applier', force: true });
    },
    decided: { 'ConfigMap/a': 'error', 'ConfigMap/b': 'unchanged' },
    refused: true,
    again: { 'ConfigMap/a': 'error', 'ConfigMap/b': 'unchanged' },
    check: (w) => expect(w.fake.object(cmRef('a'))!.data).toEqual({ x: 'theirs' }),
  },
  {
    state: 'a field a co-owner (another server-side applier) holds with the same value',
    package: () => [cm('a', { x: '1' })],
    setup: async (w) => {
      await applied(() => [cm('a', { x: '1' })])(w);
      await w.client.apply(cm('a', { x: '1' }), { fieldManager: 'other-applier' });
    },
    decided: { 'ConfigMap/a': 'unchanged' },
    check: (w) => expect(managers(w, cmRef('a'))).toEqual(['kpt-live-action', 'other-applier']),
  },
  {
    state: 'a client-side-applied object (kubectl apply), adopted',
    package: () => [cm('a', { x: '1', y: '2' })],
    setup: async (w) => {
      const last = JSON.stringify(cm('a', { x: '1' }));
      w.fake.seed([
        cm('a', { x: '1' }, { annotations: { [Annotations.LastApplied]: last } }),
        { manager: 'kubectl-client-side-apply' },
      ]);
    },
    options: { inventoryPolicy: 'adopt' },
    decided: { 'ConfigMap/a': 'configure' },
    check: (w) => {
      expect(w.fake.object(cmRef('a'))!.data).toEqual({ x: '1', y: '2' });
      expect(managers(w, cmRef('a'))).toEqual(['kpt-live-action']);
    },
  },
  {
    state: 'an object no inventory owns, under the strict inventory policy',
    package: () => [cm('a', { x: '1' })],
    setup: async (w) => w.fake.seed(cm('a', { x: '1' })),
    decided: { 'ConfigMap/a': 'skip' },
    again: { 'ConfigMap/a': 'skip' },
  },
  {
    state: 'a Helm release, adopted: its fields are released, so a label later dropped is removed',
    package: () => [cm('a', { x: '1' }, { labels: { tier: 'web' } })],
    setup: async (w) =>
      w.fake.seed([
        cm('a', { x: '1' }, { labels: { tier: 'web' }, annotations: { 'meta.helm.sh/release-name': 'rel' } }),
        { manager: 'helm' },
      ]),
    options: { inventoryPolicy: 'adopt' },
    decided: { 'ConfigMap/a': 'configure' },
    check: async (w) => {
      const { run } = await w.apply([cm('a', { x: '1' })]);
      expect(actionsOf(run)).toEqual({ 'ConfigMap/a': 'configured' });
      expect(w.fake.object(cmRef('a'))!.metadata.labels).toBeUndefined();
    },
  },
  {
    state: 'always-replace: deleted and created again on every apply',
    package: () => [
      cm('a', { x: '1' }, { annotations: { 'kapp.k14s.io/update-strategy': 'always-replace' } }),
    ],
    setup: applied(() => [
      cm('a', { x: '1' }, { annotations: { 'kapp.k14s.io/update-strategy': 'always-replace' } }),
    ]),
    decided: { 'ConfigMap/a': 'replace' },
    again: { 'ConfigMap/a': 'replace' },
  },
  {
    state: 'fallback-on-replace: an immutable field (a Deployment selector) changed',
    package: () => [
      web('example/app:1', {
        app: 'web2',
        annotations: { 'kapp.k14s.io/update-strategy': 'fallback-on-replace' },
      }),
    ],
    setup: applied(() => [web('example/app:1')]),
    decided: { 'Deployment/web': 'replace' },
  },
  {
    state: 'update-strategy skip: an existing object is left as it is',
    package: () => [cm('a', { x: '2' }, { annotations: { 'kapp.k14s.io/update-strategy': 'skip' } })],
    setup: applied(() => [cm('a', { x: '1' })]),
    decided: { 'ConfigMap/a': 'skip' },
    again: { 'ConfigMap/a': 'skip' },
    check: (w) => expect(w.fake.object(cmRef('a'))!.data).toEqual({ x: '1' }),
  },
  {
    state: 'an object being deleted (held by a finalizer)',
    package: () => [cm('a', { x: '1' }), cm('b', { x: '1' })],
    setup: async (w) =>
      w.fake.seed({
        ...cm('a', { x: '1' }, { annotations: owned, finalizers: ['example.com/hold'] }),
        metadata: {
          ...cm('a', { x: '1' }, { annotations: owned, finalizers: ['example.com/hold'] }).metadata,
          deletionTimestamp: '2024-01-01T00:00:00Z',
        },
      }),
    decided: { 'ConfigMap/a': 'error', 'ConfigMap/b': 'create' },
    refused: true,
    again: { 'ConfigMap/a': 'error', 'ConfigMap/b': 'create' },
  },
  {
    state: 'a dependency another inventory owns: it and what depends on it are skipped',
    package: () => [cm('base', { x: '1' }), cm('app', { x: '1' }, dependsOnBase)],
    setup: async (w) =>
      w.fake.seed(cm('base', { x: '1' }, { annotations: { [Annotations.OwningInventory]: 'other-inv' } })),
    decided: { 'ConfigMap/base': 'skip', 'ConfigMap/app': 'skip' },
    again: { 'ConfigMap/base': 'skip', 'ConfigMap/app': 'skip' },
  },
  {
    state: 'a dependency the server rejects: the pre-flight refuses',
    package: () => [cm('base', { x: '1' }), cm('app', { x: '1' }, dependsOnBase)],
    setup: async (w) => w.fake.faults.fail({ op: 'apply', name: 'base' }, 422),
    decided: { 'ConfigMap/base': 'error', 'ConfigMap/app': 'skip' },
    refused: true,
    again: { 'ConfigMap/base': 'error', 'ConfigMap/app': 'skip' },
  },
  {
    state:
      'a dependency the server rejects, preflight off: it fails at its write, what depends on it is skipped',
    package: () => [cm('base', { x: '1' }), cm('app', { x: '1' }, dependsOnBase)],
    setup: async (w) => w.fake.faults.fail({ op: 'apply', name: 'base' }, 422),
    options: { preflight: 'off' },
    decided: { 'ConfigMap/base': 'error', 'ConfigMap/app': 'skip' },
    again: { 'ConfigMap/base': 'error', 'ConfigMap/app': 'skip' },
  },
];

const unchanged = (r: StateRow) =>
  Object.fromEntries(Object.keys(r.decided).map((k) => [k, 'unchanged' as DecidedAction]));
const promised = (decided: Record<string, DecidedAction>) =>
  Object.fromEntries(Object.entries(decided).map(([k, a]) => [k, carriedAs[a]]));

/** Each row under each pre-flight that asks the server (a row may set its own). */
const runs = rows.flatMap((row) =>
  row.options?.preflight
    ? [{ ...row, preflight: row.options.preflight }]
    : (['auto', 'all'] as const).map((preflight) => ({ ...row, preflight })),
);

describe('the dry run decides what the apply then does', () => {
  it.each(runs)('$state (preflight: $preflight)', async (row) => {
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
        // the pre-flight's plan is the preview's: what the plan gate compares is one view of one decision
        expect(real.planCheck?.comparison?.same, real.planCheck?.warn).toBe(true);
      }
    }

    const again = await w.apply(pkg, { dryRun: true, options });
    expect(decidedActionsOf(again.run)).toEqual(row.again ?? unchanged(row));
    await row.check?.(w);
  });
});

describe('what the dry run says about ownership is what the apply does', () => {
  it('a hand edit: the field, its live and package values, and whose edit is reverted', async () => {
    const w = await walkOnFake();
    await rows[2].setup!(w);
    const dry = await w.apply(rows[2].package(), { dryRun: true });
    const d = decisionsOf(dry.run)['ConfigMap/a'];
    expect(d.ownership?.fields.map((f) => [f.field, f.outcome, f.live, f.desired, f.message])).toEqual([
      ['.data.x', 'take', 'edited', '1', 'reverts an edit by kubectl-patch'],
    ]);
  });
});
