import { describe, expect, it } from 'vitest';
import type { ObjectOutcome } from '../../../src/apply/run-result.js';
import type { ClusterClient } from '../../../src/kube/cluster-client.js';
import {
  correctionOf,
  correctionWithoutApply,
  skippedCorrection,
} from '../../../src/pipeline/drift-correction.js';
import type { DriftRunResult } from '../../../src/pipeline/drift-package.js';
import type { PackageRunResult } from '../../../src/pipeline/run-package.js';

const id = (kind: string, name: string) => ({
  group: kind === 'Deployment' ? 'apps' : '',
  kind,
  namespace: 'shop',
  name,
});
const outcome = (o: Partial<ObjectOutcome> & Pick<ObjectOutcome, 'action'>, name = 'web'): ObjectOutcome => ({
  id: id('Deployment', name),
  ...o,
});
const applied = (run: Partial<PackageRunResult> & Pick<PackageRunResult, 'outcome'>): PackageRunResult => ({
  path: 'deploy/a',
  mode: 'apply',
  notices: [],
  exitCode: run.outcome === 'success' ? 0 : run.outcome === 'failed' ? 3 : 1,
  ...run,
});

describe("a correction's result from its apply", () => {
  it('corrected, with the counts', () => {
    const run = applied({
      outcome: 'success',
      run: {
        outcome: 'success',
        durationMs: 1,
        objects: [
          outcome({ action: 'configured' }),
          outcome({ action: 'unchanged' }, 'api'),
          outcome({ action: 'pruned' }, 'old'),
        ],
      },
    });
    expect(correctionOf(run)).toEqual({
      result: 'corrected',
      summary: { created: 0, configured: 1, unchanged: 1, pruned: 1, skipped: 0, failed: 0 },
    });
  });

  it('failed: the objects that did not succeed, or the error that stopped the run', () => {
    const timedOut = applied({
      outcome: 'failed',
      run: {
        outcome: 'failed',
        durationMs: 1,
        objects: [
          outcome({ action: 'configured', reconcile: 'Timeout', message: 'Available: 0/1' }),
          outcome({ action: 'configured' }, 'api'),
        ],
      },
    });
    expect(correctionOf(timedOut)).toEqual({
      result: 'failed',
      reason: '1 object(s) did not succeed',
      summary: { created: 0, configured: 2, unchanged: 0, pruned: 0, skipped: 0, failed: 1 },
      failed: ['Deployment/web: Available: 0/1'],
    });
    const locked = applied({ outcome: 'error', error: 'the lock is held by another run' });
    expect(correctionOf(locked)).toEqual({ result: 'failed', reason: 'the lock is held by another run' });
  });
});

describe('a drifted package that is not re-applied', () => {
  // never asked: status drift is decided from the drift report alone
  const noCluster = {} as ClusterClient;
  const drift = (
    objects: DriftRunResult['objects'],
    outcome: DriftRunResult['outcome'] = 'drifted',
  ): DriftRunResult => ({
    path: 'deploy/a',
    outcome,
    objects,
    notices: [],
    exitCode: outcome === 'drifted' ? 4 : 0,
    prepared: {
      dir: 'deploy/a',
      objects: [],
      notices: [],
      inventory: {
        name: 'inv',
        namespace: 'shop',
        id: 'inv-id',
        source: 'resourcegroup',
        file: 'deploy/a/resourcegroup.yaml',
      },
    },
  });
  const hold = { dir: 'deploy/a', repoRoot: '/nowhere', retry: 'not corrected until it changes' };

  it('status drift only is left, saying why; nothing to do for a package in sync', async () => {
    const unhealthy = drift([
      { id: id('Deployment', 'web'), drift: 'status', status: 'Failed', message: 'boom' },
    ]);
    expect(await correctionWithoutApply(noCluster, unhealthy, hold)).toEqual({
      result: 'left',
      reason: expect.stringMatching(/^only status drift .*re-applying would change nothing$/),
    });
    expect(unhealthy.correction?.result).toBe('left');
    const inSync = drift([], 'in-sync');
    expect(await correctionWithoutApply(noCluster, inSync, hold)).toBeUndefined();
    expect(inSync.correction).toBeUndefined();
  });

  it('a deploy history that cannot be read leaves the package, saying so (never re-applied blind)', async () => {
    const cannotList = {
      resolve: async () => ({
        group: '',
        version: 'v1',
        kind: 'ConfigMap',
        resource: 'configmaps',
        namespaced: true,
      }),
      list: async () => {
        throw new Error('configmaps is forbidden: User "x" cannot list resource "configmaps"');
      },
    } as unknown as ClusterClient;
    const edited = drift([{ id: id('ConfigMap', 'settings'), drift: 'configure' }]);
    const left = await correctionWithoutApply(cannotList, edited, hold);
    expect(left).toEqual({
      result: 'left',
      reason:
        'its deploy history could not be read (configmaps is forbidden: User "x" cannot list resource "configmaps"), so whether its last apply failed is not known: not re-applied',
    });
  });

  it('a package the loop never started is skipped, saying why', () => {
    const edited = drift([{ id: id('ConfigMap', 'settings'), drift: 'configure' }]);
    expect(skippedCorrection(edited, 'skipped: deploy/0 failed')).toEqual({
      result: 'skipped',
      reason: 'skipped: deploy/0 failed',
    });
    expect(edited.correction?.result).toBe('skipped');
  });
});
