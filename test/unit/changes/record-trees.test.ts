import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { fillRecordTrees } from '../../../src/changes/record-trees.js';
import type { DeployRecord } from '../../../src/inventory/deploy-history.js';
import { createOriginAndClone, git } from '../../support/git-repo.js';

const repo = createOriginAndClone();
afterAll(() => fs.rmSync(repo.root, { recursive: true, force: true }));

const record = (r: Partial<DeployRecord>): DeployRecord => ({
  package: 'deploy/a',
  mode: 'apply',
  trigger: 'test',
  startedAt: '2026-11-26T00:00:00Z',
  finishedAt: '2026-11-26T00:00:01Z',
  result: 'success',
  counts: {} as DeployRecord['counts'],
  failed: [],
  ...r,
});

describe('fillRecordTrees: the trees of records written before trees were recorded', () => {
  const c1 = repo.commit({ 'deploy/a/cm.yaml': 'a: 1\n', 'deploy/b/cm.yaml': 'b: 1\n' });
  const c2 = repo.commit({ 'deploy/a/cm.yaml': 'a: 2\n' });
  const tree = (commit: string, dir: string) => git(repo.work, 'rev-parse', `${commit}:${dir}`);

  it('fills the counted records of each list from git at their commit, and leaves the rest as they are', async () => {
    const a = [
      record({ commit: c2, result: 'failed' }),
      record({ commit: c1 }),
      record({ commit: c1, startedAt: '2026-11-25T00:00:00Z' }),
    ];
    const b = [record({ package: 'deploy/b', commit: c1 }), record({ package: 'deploy/b', tree: 'kept' })];
    await fillRecordTrees(repo.work, [a, b], { counted: () => 2, dirOf: (r) => r.package });
    expect(a.map((r) => r.tree)).toEqual([tree(c2, 'deploy/a'), tree(c1, 'deploy/a'), undefined]);
    expect(b.map((r) => r.tree)).toEqual([tree(c1, 'deploy/b'), 'kept']);
  });

  it('leaves a record whose commit git cannot read, or that has no commit, without a tree', async () => {
    const list = [record({ commit: 'f'.repeat(40) }), record({})];
    await fillRecordTrees(repo.work, [list], { counted: (l) => l.length, dirOf: (r) => r.package });
    expect(list.map((r) => r.tree)).toEqual([undefined, undefined]);
  });
});
