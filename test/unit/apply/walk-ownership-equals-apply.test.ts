import { describe, expect, it } from 'vitest';
import { Annotations } from '../../../src/common/constants.js';
import {
  applied,
  checkDryRunThenApply,
  cm,
  cmRef,
  managers,
  runsOf,
  type StateRow,
  web,
  webRef,
} from '../../support/dry-run-vs-apply.js';
import { actionsOf, decisionsOf, type Walk, walkOnFake } from '../../support/fake-walk.js';

/**
 * The ownership rule (src/inventory/field-owners.ts) through the whole walk: for each state of a field's
 * ownership (a hand edit, a co-owner, a client-side apply, a Helm release adopted) and each setting
 * (conflicts, conflicts-take, conflicts-keep, the per-object annotation), the dry run decides what the real
 * apply then does (test/support/dry-run-vs-apply.ts says what each row checks).
 */
const handEditX = (w: Walk) =>
  w.client.jsonPatch(cmRef('a'), [{ op: 'replace', path: '/data/x', value: 'edited' }], {
    fieldManager: 'kubectl-patch',
  });
/** Our ConfigMap a (x: 1), then x changed by kubectl patch. */
const handEdit = async (w: Walk) => {
  await applied(() => [cm('a', { x: '1' })])(w);
  await handEditX(w);
};
/** Our ConfigMap a (x: 1), then x taken by another server-side applier with another value. */
const coOwnerChangedX = async (w: Walk) => {
  await applied(() => [cm('a', { x: '1' })])(w);
  await w.client.apply(cm('a', { x: 'theirs' }), { fieldManager: 'other-applier', force: true });
};

const rows: StateRow[] = [
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
    state: 'a hand edit under conflicts: fail (kubectl server-side apply): a conflict',
    package: () => [cm('a', { x: '1' })],
    setup: handEdit,
    options: { conflicts: { mode: 'fail', take: [], keep: [] } },
    decided: { 'ConfigMap/a': 'error' },
    refused: true,
    again: { 'ConfigMap/a': 'error' },
  },
  {
    state: 'a hand edit on an object annotated conflicts: fail',
    package: () => [cm('a', { x: '1' }, { annotations: { 'kpt-live-action.dev/conflicts': 'fail' } })],
    setup: async (w) => {
      await applied(() => [
        cm('a', { x: '1' }, { annotations: { 'kpt-live-action.dev/conflicts': 'fail' } }),
      ])(w);
      await handEditX(w);
    },
    decided: { 'ConfigMap/a': 'error' },
    refused: true,
    again: { 'ConfigMap/a': 'error' },
  },
  {
    state: "a co-owner's field under conflicts: force: taken",
    package: () => [cm('a', { x: '1' })],
    setup: coOwnerChangedX,
    options: { conflicts: { mode: 'force', take: [], keep: [] } },
    decided: { 'ConfigMap/a': 'configure' },
    check: (w) => expect(w.fake.object(cmRef('a'))!.data).toEqual({ x: '1' }),
  },
  {
    state: 'a co-owner listed in conflicts-take: its field is taken like a hand edit',
    package: () => [cm('a', { x: '1' })],
    setup: coOwnerChangedX,
    options: { conflicts: { mode: 'take-hand-edits', take: ['other-applier'], keep: [] } },
    decided: { 'ConfigMap/a': 'configure' },
    check: (w) => expect(managers(w, cmRef('a'))).toEqual(['kpt-live-action']),
  },
  {
    state: 'kubectl-patch listed in conflicts-keep: its edit is a conflict',
    package: () => [cm('a', { x: '1' })],
    setup: handEdit,
    options: { conflicts: { mode: 'take-hand-edits', take: [], keep: ['kubectl-patch'] } },
    decided: { 'ConfigMap/a': 'error' },
    refused: true,
    again: { 'ConfigMap/a': 'error' },
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
];

describe('who holds a field: the dry run decides what the apply then does', () => {
  it.each(runsOf(rows))('$state (preflight: $preflight)', checkDryRunThenApply);
});

describe('what the dry run says about ownership', () => {
  it('a hand edit: the field, its live and package values, and whose edit is reverted', async () => {
    const w = await walkOnFake();
    await handEdit(w);
    const dry = await w.apply([cm('a', { x: '1' })], { dryRun: true });
    const d = decisionsOf(dry.run)['ConfigMap/a'];
    expect(d.ownership?.fields.map((f) => [f.field, f.outcome, f.live, f.desired, f.message])).toEqual([
      ['.data.x', 'take', 'edited', '1', 'reverts an edit by kubectl-patch'],
    ]);
    expect(actionsOf(dry.run)).toEqual({ 'ConfigMap/a': 'configured' });
  });
});
