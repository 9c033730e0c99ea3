import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findPackages,
  findUnits,
  groupUnits,
  locateFile,
  type PackageInfo,
  unitForFile,
} from '../../../src/package/find-packages.js';
import { loadPackage } from '../../../src/package/load-package.js';
import { copyFixture, fixtures } from './helpers.js';

const repo = path.join(fixtures, 'repo');

describe('findPackages', () => {
  it('lists every Kptfile directory with its inventory files, skipping hidden directories', async () => {
    expect(await findPackages(repo)).toEqual([
      { dir: 'apps/plain', hasInventory: false, inventoryFiles: [] },
      { dir: 'apps/web', hasInventory: true, inventoryFiles: ['apps/web/resourcegroup.yaml'] },
      { dir: 'apps/web/db', hasInventory: false, inventoryFiles: [] },
      { dir: 'platform', hasInventory: false, inventoryFiles: [] },
      { dir: 'platform/dns', hasInventory: true, inventoryFiles: ['platform/dns/inventory.yaml'] },
      {
        dir: 'platform/dns/records',
        hasInventory: true,
        inventoryFiles: ['platform/dns/records/resourcegroup.yaml'],
      },
      { dir: 'platform/ingress', hasInventory: true, inventoryFiles: ['platform/ingress/Kptfile'] },
    ]);
  });
});

describe('findUnits', () => {
  it('makes the topmost package with inventory info the unit, with its subpackages', async () => {
    const units = await findUnits(repo);
    expect(units.map((u) => [u.dir, u.packages, u.errors.length])).toEqual([
      ['apps/web', ['apps/web', 'apps/web/db'], 0],
      ['platform/dns', ['platform/dns', 'platform/dns/records'], 1],
      ['platform/ingress', ['platform/ingress'], 0],
    ]);
  });

  it('reports inventory info inside a subpackage of a unit with the file and the fix', async () => {
    const dns = (await findUnits(repo)).find((u) => u.dir === 'platform/dns');
    expect(dns?.errors).toEqual([
      {
        message:
          'inventory info inside subpackage "platform/dns/records" of the deployable unit "platform/dns": two inventories would own the same objects',
        file: 'platform/dns/records/resourcegroup.yaml',
        line: undefined,
        object: undefined,
        fix: 'remove it (the subpackage is applied with "platform/dns"), or remove the inventory info of "platform/dns" to deploy its subpackages on their own',
      },
    ]);
  });

  it('treats the root itself as a unit when it holds inventory info', async () => {
    expect((await findUnits(path.join(fixtures, 'valid'))).map((u) => [u.dir, u.packages])).toEqual([
      ['.', ['.', 'sub']],
    ]);
  });
});

describe('groupUnits', () => {
  const pkg = (dir: string, hasInventory: boolean): PackageInfo => ({
    dir,
    hasInventory,
    inventoryFiles: hasInventory ? [`${dir}/resourcegroup.yaml`] : [],
  });
  it.each([
    { name: 'no inventory anywhere: no unit', packages: [pkg('a', false), pkg('a/b', false)], units: [] },
    { name: 'sibling units', packages: [pkg('a', true), pkg('b', true)], units: ['a', 'b'] },
    {
      name: 'inventory below a package without one',
      packages: [pkg('a', false), pkg('a/b', true)],
      units: ['a/b'],
    },
    { name: 'a prefix is not an ancestor', packages: [pkg('a', true), pkg('ab', true)], units: ['a', 'ab'] },
    { name: 'root unit swallows the rest', packages: [pkg('.', true), pkg('x', true)], units: ['.'] },
  ])('$name', ({ packages, units }) => {
    expect(groupUnits(packages).map((u) => u.dir)).toEqual(units);
  });
});

describe('unitForFile / locateFile', () => {
  it.each([
    { file: 'apps/web/cm.yaml', unit: 'apps/web', pkg: 'apps/web' },
    { file: 'apps/web/config/cm.yaml', unit: 'apps/web', pkg: 'apps/web' },
    { file: 'apps/web/db/cm.yaml', unit: 'apps/web', pkg: 'apps/web/db' },
    { file: 'apps/web/Kptfile', unit: 'apps/web', pkg: 'apps/web' },
    { file: 'apps/web/deleted-in-this-pr.yaml', unit: 'apps/web', pkg: 'apps/web' },
    { file: 'apps/web/gone/dir/deleted.yaml', unit: 'apps/web', pkg: 'apps/web' },
    { file: 'platform/ingress/cm.yaml', unit: 'platform/ingress', pkg: 'platform/ingress' },
    { file: 'platform/dns/records/resourcegroup.yaml', unit: 'platform/dns', pkg: 'platform/dns/records' },
    { file: 'platform/cm.yaml', unit: undefined, pkg: 'platform' },
    { file: 'apps/plain/cm.yaml', unit: undefined, pkg: 'apps/plain' },
    { file: 'docs/example.yaml', unit: undefined, pkg: undefined },
    { file: 'README.md', unit: undefined, pkg: undefined },
  ])('$file → $unit', async ({ file, unit, pkg }) => {
    expect(await unitForFile(repo, file)).toBe(unit);
    const where = await locateFile(repo, file);
    expect(where.package).toBe(pkg);
    expect(where.file).toBe(file);
  });

  it('notes a change in a package that nothing deploys', async () => {
    const where = await locateFile(repo, 'apps/plain/cm.yaml');
    expect(where.note).toContain('"apps/plain", which has no inventory info');
    expect(where.note).toContain('kpt-live init apps/plain');
    expect((await locateFile(repo, 'docs/example.yaml')).note).toBeUndefined();
    expect((await locateFile(repo, 'apps/web/cm.yaml')).note).toBeUndefined();
  });

  it.each(['../valid/config.yaml', 'apps/../../valid/Kptfile', '/etc/passwd'])(
    'refuses %s, which leaves the root',
    async (file) => {
      await expect(unitForFile(repo, file)).rejects.toThrow(/outside the repository root/);
    },
  );
});

describe('symlinks', () => {
  it('refuses a file reached through a symlinked directory that points outside the root', async () => {
    const { root, dir } = await copyFixture('repo');
    const outside = path.join(root, 'outside');
    await mkdir(outside);
    await symlink(outside, path.join(dir, 'apps/web/escape'));
    await expect(unitForFile(dir, 'apps/web/escape/x.yaml')).rejects.toThrow(
      /symlink.*outside the repository root/,
    );
  });

  it('reports a symlinked YAML file that points outside instead of reading it, and reads one inside', async () => {
    const { root, dir } = await copyFixture('valid');
    await writeFile(
      path.join(root, 'secret.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: stolen\n',
    );
    await symlink(path.join(root, 'secret.yaml'), path.join(dir, 'link-out.yaml'));
    await symlink(path.join(dir, 'namespace.yaml'), path.join(dir, 'link-in.yaml'));
    const result = await loadPackage('.', { repoRoot: dir });
    expect(result.objects.map((o) => o.object.metadata.name)).not.toContain('stolen');
    const err = result.errors.find((e) => e.file === 'link-out.yaml');
    expect(err?.message).toContain('symlink points outside the repository');
    expect(err?.fix).toContain('replace the symlink');
    expect(result.objects.filter((o) => o.object.kind === 'Namespace').map((o) => o.source.file)).toEqual([
      'link-in.yaml',
      'namespace.yaml',
    ]);
  });

  it('refuses a package path that is a symlink to a directory outside the root', async () => {
    const { root, dir } = await copyFixture('valid');
    await symlink(path.join(fixtures, 'wordpress'), path.join(dir, 'wp'));
    await expect(loadPackage('wp', { repoRoot: dir })).rejects.toThrow(
      /is a symlink .* outside the repository root/,
    );
    void root;
  });
});
