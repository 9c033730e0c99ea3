import { beforeEach, describe, expect, it } from 'vitest';
import { Annotations } from '../../../src/common/constants.js';
import {
  actionsOf,
  carriedAs,
  decidedActionsOf,
  ns,
  type Walk,
  walkOnFake,
} from '../../support/fake-walk.js';
import { configMap, deployment } from '../../support/harness/builders.js';

/**
 * A dry run (the preview, `apply --dry-run`, `destroy --dry-run`) walks the same task list as the real run
 * and decides every object, but sends no mutating request that is not a dry-run: no object, inventory,
 * history, takeover or status write. The state has an object of each kind of decision: to create, to
 * configure, unchanged, to prune, kept by `on-remove: keep`, and one another inventory owns.
 */
const keep = { annotations: { [Annotations.OnRemove]: 'keep' } };
const v1 = () => [
  configMap('same', { x: '1' }, { namespace: ns }),
  configMap('gone', { x: '1' }, { namespace: ns }),
  configMap('kept', { x: '1' }, { namespace: ns, ...keep }),
  configMap('theirs', { x: '1' }, { namespace: ns }),
  deployment('web', { namespace: ns, image: 'example/app:1' }),
];
const v2 = () => [
  configMap('same', { x: '1' }, { namespace: ns }),
  configMap('new', { x: '1' }, { namespace: ns }),
  configMap('other-inventory', { x: '1' }, { namespace: ns }),
  deployment('web', { namespace: ns, image: 'example/app:2' }),
];

describe('a dry run writes nothing', () => {
  let w: Walk;
  beforeEach(async () => {
    w = await walkOnFake();
    const first = await w.apply(v1());
    expect(first.run.outcome, first.run.error).toBe('success');
    // another inventory's object, in the cluster before this package lists it
    w.fake.seed(
      configMap(
        'other-inventory',
        { x: '1' },
        {
          namespace: ns,
          annotations: { [Annotations.OwningInventory]: 'other-inv' },
        },
      ),
    );
    // an object of this inventory that another one has taken since (force-adopt)
    await w.client.jsonPatch(
      { apiVersion: 'v1', group: '', kind: 'ConfigMap', namespace: ns, name: 'theirs' },
      [{ op: 'replace', path: '/metadata/annotations/config.k8s.io~1owning-inventory', value: 'other-inv' }],
      { fieldManager: 'kubectl-annotate' },
    );
  });

  // a dry run asks the server about every object whatever `preflight` says (`all`: unchanged ones too)
  it.each(['auto', 'all', 'off'] as const)(
    'apply (preflight: %s): every kind of decision, no write that is not a dry-run',
    async (preflight) => {
      const mark = w.fake.log.mark();
      const { run } = await w.apply(v2(), { dryRun: true, options: { preflight } });
      expect(w.fake.log.since(mark).filter((r) => r.mutating && !r.dryRun)).toEqual([]);
      expect(w.fake.log.since(mark).some((r) => r.dryRun)).toBe(true);
      expect(decidedActionsOf(run)).toEqual({
        'ConfigMap/same': 'unchanged',
        'ConfigMap/new': 'create',
        'ConfigMap/other-inventory': 'skip',
        'Deployment/web': 'configure',
        'ConfigMap/gone': 'prune',
        'ConfigMap/kept': 'orphan',
        'ConfigMap/theirs': 'skip',
      });
      expect(run.dryRun).toBe(true);
      // the blocked skip fails the run, as it would fail the apply
      expect(run.outcome).toBe('failed');
    },
  );

  it('destroy: every kind of decision, and no write at all; the real destroy then does what it said', async () => {
    const mark = w.fake.log.mark();
    const dry = await w.destroy({ dryRun: true });
    expect(w.fake.log.writes().filter((r) => r.seq > mark)).toEqual([]);
    expect(decidedActionsOf(dry)).toEqual({
      'ConfigMap/same': 'prune',
      'ConfigMap/gone': 'prune',
      'ConfigMap/kept': 'orphan',
      'ConfigMap/theirs': 'skip',
      'Deployment/web': 'prune',
    });
    const real = await w.destroy();
    const promised = Object.fromEntries(
      Object.entries(decidedActionsOf(dry)).map(([k, a]) => [k, a === 'prune' ? 'deleted' : carriedAs[a]]),
    );
    expect(actionsOf(real)).toEqual(promised);
    expect(actionsOf(dry)).toEqual(promised);
    expect(w.fake.object({ kind: 'ConfigMap', namespace: ns, name: 'kept' })).toBeDefined();
    expect(w.fake.object({ kind: 'ConfigMap', namespace: ns, name: 'theirs' })).toBeDefined();
    expect(w.fake.object({ kind: 'ConfigMap', namespace: ns, name: 'same' })).toBeUndefined();
  });
});
