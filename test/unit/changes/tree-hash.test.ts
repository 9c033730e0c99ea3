import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitsTouching, reachBase } from '../../../src/changes/commits-in-range.js';
import { resolvePackageFilter } from '../../../src/changes/package-filter.js';
import { packageTree, packageTrees } from '../../../src/changes/tree-hash.js';
import { createOriginAndClone, git } from '../../support/git-repo.js';

const kptfile = (name: string, inv = true) =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n${inv ? `inventory:\n  name: ${name}\n  namespace: ns\n  inventoryID: ${name}-id\n` : ''}`;

const repo = createOriginAndClone();
afterAll(() => fs.rmSync(repo.root, { recursive: true, force: true }));

describe('package trees and the commits of a range', () => {
  const c1 = repo.commit({
    'deploy/a/Kptfile': kptfile('a'),
    'deploy/a/cm.yaml': 'a: 1\n',
    'deploy/b/Kptfile': kptfile('b'),
    'deploy/b/cm.yaml': 'b: 1\n',
  });
  git(repo.work, 'checkout', '-q', '-B', 'feature');
  const f1 = repo.commit({ 'deploy/a/cm.yaml': 'a: 2\n' }, 'feature');
  git(repo.work, 'checkout', '-q', 'main');
  const c2 = repo.commit({ 'deploy/b/cm.yaml': 'b: 2\n' }, 'b');
  git(repo.work, 'merge', '-q', '--no-ff', '-m', 'Merge feature', 'feature');
  git(repo.work, 'push', '-q', 'origin', 'main');
  const m = git(repo.work, 'rev-parse', 'HEAD');
  const c3 = repo.commit({ 'README.md': 'hi\n' }, 'readme');

  it('gives each directory its tree: the same when only other directories changed, undefined when absent', async () => {
    const at1 = await packageTrees(repo.work, c1, ['deploy/a', 'deploy/b', 'deploy/none', '.']);
    const at2 = await packageTrees(repo.work, c2, ['deploy/a', 'deploy/b']);
    expect(at1.get('deploy/a')).toMatch(/^[0-9a-f]{40}$/);
    expect(at2.get('deploy/a')).toBe(at1.get('deploy/a'));
    expect(at2.get('deploy/b')).not.toBe(at1.get('deploy/b'));
    expect(at1.get('deploy/none')).toBeUndefined();
    expect(at1.get('.')).toBe(git(repo.work, 'rev-parse', `${c1}^{tree}`));
    // the merge commit holds the feature branch's tree of deploy/a
    expect(await packageTree(repo.work, m, 'deploy/a')).toBe(await packageTree(repo.work, f1, 'deploy/a'));
  });

  it('answers nothing (never throws) outside a git repository', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-nogit-'));
    expect((await packageTrees(dir, 'HEAD', ['deploy/a'])).get('deploy/a')).toBeUndefined();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists the first-parent commits of a range that changed a package, fetching history a shallow checkout lacks', async () => {
    const shallow = repo.shallowCheckout('main');
    expect(git(shallow, 'rev-parse', '--is-shallow-repository')).toBe('true');
    expect(await commitsTouching(shallow, c1, c3, ['deploy/a'])).toEqual({ commits: [m], truncated: false });
    expect(await commitsTouching(shallow, c1, c3, ['deploy/b'])).toEqual({ commits: [c2], truncated: false });
    expect(await commitsTouching(shallow, c3, c3, ['deploy/b'])).toEqual({ commits: [], truncated: false });
    // a commit the head does not descend from (history rewritten) cannot be a base
    expect(await reachBase(shallow, f1, c2)).toBe(false);
    const unknown = await commitsTouching(shallow, '1'.repeat(40), c3, ['deploy/a']);
    expect(unknown).toEqual({ unknown: expect.stringContaining('is not in the history of') });
  });

  it('packages on push: a filter whose lines may name deleted packages, and a line matching nothing is an error', async () => {
    const f = await resolvePackageFilter(
      repo.work,
      ['deploy/a', 'deploy/gone-*'],
      ['deploy/gone-1', 'other/x'],
    );
    expect([...f.units]).toEqual(['deploy/a']);
    expect([...f.gone]).toEqual(['deploy/gone-1']);
    await expect(resolvePackageFilter(repo.work, ['deploy/nothing-*', 'deploy/typo'], [])).rejects.toThrow(
      'input "packages": "deploy/nothing-*" matches no package directory (a directory with a Kptfile); "deploy/typo" does not exist in the checkout',
    );
  });
});
