import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changeSetForEvent } from '../../../src/action/github/change-set.js';
import type { EventContext } from '../../../src/action/github/event.js';
import { createOctokit } from '../../../src/action/github/octokit.js';
import type { ChangeSet } from '../../../src/changes/changed-file.js';
import { changedPackages, readInventoryAtCommit } from '../../../src/changes/changed-packages.js';
import { type GitHubServer, startGitHubServer } from '../../support/github-server.js';
import {
  configMap,
  kptfile,
  makeSandbox,
  resourceGroup,
  type Sandbox,
  sh,
  unitFiles,
} from '../github/git-repo.js';

let server: GitHubServer | undefined;
let box: Sandbox | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  box?.cleanup();
  box = undefined;
});

const manual = (files: ChangeSet['files'], base?: string): ChangeSet => ({
  all: false,
  files,
  base,
  source: 'git',
  notes: [],
});

/** main: deploy/app (resourcegroup.yaml), deploy/web (Kptfile inventory) with a subpackage, lib/base (no inventory). */
function baseRepo(b: Sandbox): string {
  return b.commit({
    ...unitFiles('deploy/app', 'id-app'),
    'deploy/web/Kptfile': kptfile('web', { name: 'inventory-web', namespace: 'web', id: 'id-web' }),
    'deploy/web/cm.yaml': configMap('web', '1'),
    'deploy/web/db/Kptfile': kptfile('db'),
    'deploy/web/db/cm.yaml': configMap('db', '1'),
    'lib/base/Kptfile': kptfile('base'),
    'lib/base/cm.yaml': configMap('base', '1'),
    'README.md': '# repo\n',
  });
}

describe('changedPackages', () => {
  it('maps files (and both paths of a rename) to their units, in path order, noting packages nothing deploys', async () => {
    box = makeSandbox();
    baseRepo(box);
    const cs = manual([
      { path: 'deploy/web/db/cm.yaml', status: 'modified' },
      { path: 'README.md', status: 'modified' },
      { path: 'lib/base/cm.yaml', status: 'modified' },
      { path: 'deploy/app/moved.yaml', status: 'renamed', previous: 'deploy/web/old.yaml' },
      { path: 'deploy/app/gone.yaml', status: 'removed' },
    ]);
    const r = await changedPackages(box.work, cs);
    expect(r.units).toEqual([
      { path: 'deploy/app', removed: false },
      { path: 'deploy/web', removed: false },
    ]);
    expect(r.notes).toEqual([
      expect.stringMatching(/lib\/base\/cm.yaml is in package "lib\/base", which has no inventory/),
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('every unit when the change set says all', async () => {
    box = makeSandbox();
    baseRepo(box);
    const r = await changedPackages(box.work, { all: true, files: [], source: 'none', notes: [] });
    expect(r.units.map((u) => u.path)).toEqual(['deploy/app', 'deploy/web']);
  });

  it('a PR that deletes a package (shallow checkout) reports it removed, with its inventory from the base commit', async () => {
    box = makeSandbox();
    const base = baseRepo(box);
    box.push();
    sh(box.work, 'checkout', '--quiet', '-b', 'drop-web');
    box.commit({ 'deploy/web': null, 'deploy/app/cm.yaml': configMap('app', 'v2') });
    const head = sh(box.work, 'rev-parse', 'HEAD');
    box.push('HEAD:refs/heads/drop-web');
    const checkout = box.shallowClone('drop-web');
    server = await startGitHubServer({ gitDir: box.origin, pulls: { 12: { base, head } } });
    const ctx: EventContext = {
      name: 'pull_request',
      owner: 'octo-org',
      repo: 'deploy',
      sha: head,
      ref: 'refs/pull/12/merge',
      pullRequest: { number: 12, baseSha: base, headSha: head, headRepoFork: false },
      runUrl: '',
      serverUrl: '',
      apiUrl: server.url,
    };

    const cs = await changeSetForEvent(ctx, {
      repoDir: checkout,
      octokit: createOctokit(server.readToken, { baseUrl: server.url }),
    });
    const r = await changedPackages(checkout, cs);

    expect(cs.source).toBe('pulls-api');
    expect(r.units).toEqual([
      { path: 'deploy/app', removed: false },
      { path: 'deploy/web', removed: true, baseCommit: base },
    ]);
    expect(r.warnings).toEqual([]);
    const inv = await readInventoryAtCommit(checkout, base, 'deploy/web');
    expect(inv.errors).toEqual([]);
    expect(inv.inventory).toMatchObject({
      name: 'inventory-web',
      namespace: 'web',
      id: 'id-web',
      source: 'kptfile',
      file: 'deploy/web/Kptfile',
      line: 5,
    });
  });

  it('reads a resourcegroup.yaml at the base commit, and says when there is no package there', async () => {
    box = makeSandbox();
    const base = baseRepo(box);
    box.commit({ 'deploy/app': null });
    const inv = await readInventoryAtCommit(box.work, base, 'deploy/app');
    expect(inv.inventory).toMatchObject({
      name: 'inventory-app',
      namespace: 'apps',
      id: 'id-app',
      source: 'resourcegroup',
      file: 'deploy/app/resourcegroup.yaml',
      line: 1,
    });
    const none = await readInventoryAtCommit(box.work, base, 'deploy/nothing');
    expect(none.inventory).toBeUndefined();
    expect(none.errors[0].message).toMatch(/no package \(no Kptfile\) at "deploy\/nothing" in commit/);
  });

  it('a deleted subpackage or inventory file is a change of its unit, not a removal', async () => {
    box = makeSandbox();
    const base = baseRepo(box);
    box.commit({ 'deploy/web/db': null, 'deploy/app/resourcegroup.yaml': null });
    const r = await changedPackages(
      box.work,
      manual(
        [
          { path: 'deploy/web/db/Kptfile', status: 'removed' },
          { path: 'deploy/web/db/cm.yaml', status: 'removed' },
          { path: 'deploy/app/resourcegroup.yaml', status: 'removed' },
        ],
        base,
      ),
    );
    expect(r.units).toEqual([{ path: 'deploy/web', removed: false }]);
    expect(r.notes).toEqual([expect.stringMatching(/"deploy\/app", which has no inventory info/)]);
  });

  it('a package moved with its inventory is applied at the new path, not destroyed', async () => {
    box = makeSandbox();
    const base = baseRepo(box);
    mkdirSync(path.join(box.work, 'apps'));
    sh(box.work, 'mv', 'deploy/app', 'apps/app');
    const head = box.commit({});
    const cs: ChangeSet = {
      all: false,
      files: ['Kptfile', 'cm.yaml', 'resourcegroup.yaml'].map((f) => ({
        path: `apps/app/${f}`,
        status: 'renamed' as const,
        previous: `deploy/app/${f}`,
      })),
      base,
      head,
      source: 'git',
      notes: [],
    };
    const r = await changedPackages(box.work, cs);
    expect(r.units).toEqual([{ path: 'apps/app', removed: false }]);
    expect(r.notes).toEqual([
      expect.stringMatching(/"deploy\/app" moved to "apps\/app" with the same inventory/),
    ]);
  });

  it('a package copied to a new path with a new inventory and deleted at the old one is removed', async () => {
    box = makeSandbox();
    const base = baseRepo(box);
    box.commit({ 'deploy/app': null, ...unitFiles('apps/app2', 'id-new') });
    const r = await changedPackages(
      box.work,
      manual(
        [
          {
            path: 'apps/app2/resourcegroup.yaml',
            status: 'renamed',
            previous: 'deploy/app/resourcegroup.yaml',
          },
          { path: 'deploy/app/cm.yaml', status: 'removed' },
        ],
        base,
      ),
    );
    expect(r.units).toEqual([
      { path: 'apps/app2', removed: false },
      { path: 'deploy/app', removed: true, baseCommit: base },
    ]);
  });

  it('warns, rather than guessing, when the base commit cannot be read', async () => {
    box = makeSandbox();
    baseRepo(box);
    box.commit({ 'deploy/app': null });
    const r = await changedPackages(
      box.work,
      manual([{ path: 'deploy/app/cm.yaml', status: 'removed' }], 'e'.repeat(40)),
    );
    expect(r.units).toEqual([]);
    expect(r.warnings).toEqual([
      expect.stringMatching(/cannot read the base commit to find deleted packages/),
    ]);
  });

  it('a unit whose resourcegroup.yaml is nested in a deleted tree at the root is found too', async () => {
    box = makeSandbox();
    const base = box.commit({
      Kptfile: kptfile('root'),
      'team/prod/Kptfile': kptfile('prod'),
      'team/prod/rg.yaml': resourceGroup('inv-prod', 'prod', 'id-prod'),
      'team/prod/sub/Kptfile': kptfile('sub'),
      'team/prod/sub/cm.yaml': configMap('sub', '1'),
    });
    box.commit({ team: null });
    const r = await changedPackages(
      box.work,
      manual([{ path: 'team/prod/sub/cm.yaml', status: 'removed' }], base),
    );
    expect(r.units).toEqual([{ path: 'team/prod', removed: true, baseCommit: base }]);
  });
});
