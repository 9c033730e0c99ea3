import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveExplicitPackages } from '../../../src/changes/changed-packages.js';
import { globToRegExp } from '../../../src/changes/explicit-packages.js';
import { configMap, kptfile, unitFiles } from '../github/git-repo.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'kpt-live-explicit-'));
  const files: Record<string, string> = {
    ...unitFiles('deploy/app', 'id-app'),
    ...unitFiles('deploy/web', 'id-web'),
    'deploy/web/db/Kptfile': kptfile('db'),
    'deploy/web/db/cm.yaml': configMap('db', '1'),
    ...unitFiles('team/eu/prod', 'id-eu-prod'),
    ...unitFiles('team/us/prod', 'id-us-prod'),
    ...unitFiles('team/us/staging', 'id-us-staging'),
    'lib/base/Kptfile': kptfile('base'),
    'lib/base/cm.yaml': configMap('base', '1'),
    'docs/README.md': '# docs\n',
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('resolveExplicitPackages', () => {
  it.each([
    { input: 'deploy/app', paths: ['deploy/app'], notes: 0 },
    { input: './deploy/app/\n\n# a comment\n', paths: ['deploy/app'], notes: 0 },
    { input: 'team/us/prod\ndeploy/web', paths: ['deploy/web', 'team/us/prod'], notes: 0 },
    { input: 'deploy/*', paths: ['deploy/app', 'deploy/web'], notes: 0 },
    { input: 'deploy/**', paths: ['deploy/app', 'deploy/web'], notes: 0 },
    { input: 'team/*/prod', paths: ['team/eu/prod', 'team/us/prod'], notes: 0 },
    { input: '**/prod', paths: ['team/eu/prod', 'team/us/prod'], notes: 0 },
    { input: 'team/**/prod', paths: ['team/eu/prod', 'team/us/prod'], notes: 0 },
    { input: 'team/us/*', paths: ['team/us/prod', 'team/us/staging'], notes: 0 },
    { input: 'team/??/prod', paths: ['team/eu/prod', 'team/us/prod'], notes: 0 },
    { input: 'team/[e]u/prod', paths: ['team/eu/prod'], notes: 0 },
    // a subpackage selects its unit, with a note
    { input: 'deploy/web/db', paths: ['deploy/web'], notes: 1 },
    { input: 'deploy/*/db', paths: ['deploy/web'], notes: 0 },
    // a glob reaching a package nothing deploys notes it
    { input: '*/base\ndeploy/app', paths: ['deploy/app'], notes: 1 },
    {
      input: '**',
      paths: ['deploy/app', 'deploy/web', 'team/eu/prod', 'team/us/prod', 'team/us/staging'],
      notes: 1,
    },
  ])('$input', async ({ input, paths, notes }) => {
    const r = await resolveExplicitPackages(root, input);
    expect(r.paths).toEqual(paths);
    expect(r.notes).toHaveLength(notes);
  });

  it.each([
    { input: 'deploy/nope', error: /"deploy\/nope" does not exist/ },
    { input: 'deploy/app/cm.yaml', error: /is a file; list the package directory/ },
    { input: 'lib/base', error: /"lib\/base", which has no inventory info/ },
    { input: 'docs', error: /"docs" is not in a package/ },
    { input: 'nothing/*', error: /"nothing\/\*" matches no package directory/ },
    { input: '../elsewhere', error: /outside the repository/ },
    { input: 'deploy/app\nteam/[x', error: /"\[" without "\]"/ },
  ])('refuses $input', async ({ input, error }) => {
    await expect(resolveExplicitPackages(root, input)).rejects.toThrow(/^input "packages": /);
    await expect(resolveExplicitPackages(root, input)).rejects.toThrow(error);
  });

  it('takes a list as well as text', async () => {
    expect((await resolveExplicitPackages(root, ['deploy/app', 'deploy/app'])).paths).toEqual(['deploy/app']);
  });
});

describe('globToRegExp', () => {
  it.each([
    ['deploy/*', 'deploy/app', true],
    ['deploy/*', 'deploy/app/sub', false],
    ['deploy/**', 'deploy/app/sub', true],
    ['deploy/**', 'deploy', false],
    ['**/prod', 'prod', true],
    ['**/prod', 'a/b/prod', true],
    ['**/prod', 'a/b/preprod', false],
    ['a/**/b', 'a/b', true],
    ['a/**/b', 'a/x/y/b', true],
    ['a**', 'a/b', false],
    ['app.v1', 'appXv1', false],
    ['app+(x)', 'app+(x)', true],
    ['[!a]pp', 'bpp', true],
    ['[!a]pp', 'app', false],
    ['x[!a]y', 'x/y', false],
  ])('%s matches %s: %s', (glob, p, want) => {
    expect(globToRegExp(glob).test(p)).toBe(want);
  });
});
