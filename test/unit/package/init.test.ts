import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  generateInventoryId,
  initPackage,
  inventoryNamespace,
  renderResourceGroup,
} from '../../../src/package/init.js';
import { parseKptfile } from '../../../src/package/kptfile.js';
import { loadPackage } from '../../../src/package/load-package.js';
import type { LoadedObject } from '../../../src/package/loaded-object.js';
import { validatePackage } from '../../../src/package/validate.js';
import { copyFixture, expectActionable, lineOf, scopeFromTable } from './helpers.js';

// Recorded from `kpt live init` (kpt 1.0.0-beta.56) on the wordpress package: name, clock and the file it wrote.
const kptName = 'inventory-70035487';
const kptNanos = 1795363490629097407n;
const kptFile = `apiVersion: kpt.dev/v1alpha1
kind: ResourceGroup
metadata:
  name: inventory-70035487
  namespace: default
  labels:
    cli-utils.sigs.k8s.io/inventory-id: 011a8e9c4fc82b84256ce826fb242d48de5d05dd-1795363490629097407
`;

describe('initPackage', () => {
  it('writes resourcegroup.yaml byte for byte as kpt live init does, mode 0600', async () => {
    const { dir } = await copyFixture('wordpress');
    const result = await initPackage(dir, { randomSuffix: () => '70035487', now: () => kptNanos });
    expect(result).toEqual({
      ok: true,
      message: 'initializing "resourcegroup.yaml" data (namespace: default)...success',
      inventory: {
        name: kptName,
        namespace: 'default',
        id: '011a8e9c4fc82b84256ce826fb242d48de5d05dd-1795363490629097407',
        source: 'resourcegroup',
        file: 'resourcegroup.yaml',
        line: 1,
      },
      errors: [],
    });
    const file = path.join(dir, 'resourcegroup.yaml');
    expect(await readFile(file, 'utf8')).toBe(kptFile);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('generates inventory-<8 digits> and sha1(ns:name)-<nanos> by default, which our loader then accepts', async () => {
    const { root, dir } = await copyFixture('wordpress');
    const before = BigInt(Date.now()) * 1_000_000n;
    const result = await initPackage(dir);
    expect(result.ok).toBe(true);
    const inv = result.inventory;
    expect(inv?.name).toMatch(/^inventory-\d{8}$/);
    const [hash, nanos] = inv?.id.split('-') ?? [];
    expect(hash).toMatch(/^[0-9a-f]{40}$/);
    expect(BigInt(nanos)).toBeGreaterThanOrEqual(before);
    expect(BigInt(nanos)).toBeLessThan(before + 60_000_000_000n);

    const loaded = await loadPackage('wordpress', { repoRoot: root });
    expect(loaded.inventory).toEqual({ ...inv, file: 'wordpress/resourcegroup.yaml' });
    const validated = validatePackage(loaded, { scope: scopeFromTable(), defaultNamespace: 'default' });
    expect(validated.errors).toEqual([]);
    expect(validated.objects).toHaveLength(6);
  });

  it('takes --name, --namespace and --inventory-id as given', async () => {
    const { dir } = await copyFixture('wordpress-with-dependencies');
    const result = await initPackage(dir, { name: 'wp', namespace: 'blog', inventoryId: 'wp-inventory' });
    expect(result.message).toBe('initializing "resourcegroup.yaml" data (namespace: blog)...success');
    expect(parse(await readFile(path.join(dir, 'resourcegroup.yaml'), 'utf8'))).toEqual({
      apiVersion: 'kpt.dev/v1alpha1',
      kind: 'ResourceGroup',
      metadata: {
        name: 'wp',
        namespace: 'blog',
        labels: { 'cli-utils.sigs.k8s.io/inventory-id': 'wp-inventory' },
      },
    });
  });

  it('uses the given default namespace when the objects do not agree on one', async () => {
    const { dir } = await copyFixture('wordpress-with-dependencies');
    const result = await initPackage(dir, { defaultNamespace: 'staging' });
    expect(result.inventory?.namespace).toBe('staging');
  });

  it("refuses to overwrite existing inventory info, with kpt's message, unless forced", async () => {
    const { dir } = await copyFixture('valid');
    const refused = await initPackage(dir);
    expect(refused.ok).toBe(false);
    expect(refused.message).toBe('initializing "resourcegroup.yaml" data (namespace: default)...failed');
    expect(refused.errors).toHaveLength(1);
    expectActionable(refused.errors[0], {
      file: 'resourcegroup.yaml',
      line: 1,
      object: 'ResourceGroup/inventory-11111111',
    });
    expect(refused.errors[0].message).toBe('inventory information already set for package');
    expect(refused.errors[0].fix).toContain('--force');

    const forced = await initPackage(dir, { force: true, name: 'inventory-new' });
    expect(forced.ok).toBe(true);
    expect(await readFile(path.join(dir, 'resourcegroup.yaml'), 'utf8')).toContain('name: inventory-new');
  });

  it('refuses a Kptfile inventory section; --force moves it out of the Kptfile', async () => {
    const { dir } = await copyFixture('inventory/kptfile');
    const refused = await initPackage(dir);
    expect(refused.errors.map((e) => e.message)).toEqual([
      'inventory information already set within Kptfile for package',
    ]);
    expectActionable(refused.errors[0], {
      file: 'Kptfile',
      line: lineOf('inventory/kptfile/Kptfile', 'inventory:'),
    });
    expect(refused.errors[0].fix).toContain('kpt live migrate');

    const forced = await initPackage(dir, {
      force: true,
      name: 'inventory-kptfile',
      inventoryId: 'kptfile-id',
    });
    expect(forced.ok).toBe(true);
    const kptfile = parseKptfile(await readFile(path.join(dir, 'Kptfile'), 'utf8'), 'Kptfile');
    expect(kptfile.inventory).toBeUndefined();
    expect(kptfile.name).toBe('kptfile');
    expect(await readFile(path.join(dir, 'Kptfile'), 'utf8')).toContain(
      'description: inventory in the Kptfile',
    );
    const loaded = await loadPackage('.', { repoRoot: dir });
    expect(loaded.errors).toEqual([]);
    expect(loaded.inventory).toMatchObject({
      name: 'inventory-kptfile',
      id: 'kptfile-id',
      source: 'resourcegroup',
    });
  });

  it('refuses a ResourceGroup in another file even with --force (a package may have only one)', async () => {
    const { dir } = await copyFixture('inventory/other-file');
    const result = await initPackage(dir, { force: true });
    expect(result.ok).toBe(false);
    expectActionable(result.errors[0], {
      file: 'inventory.yaml',
      line: 1,
      object: 'ResourceGroup/inventory-other',
    });
    expect(result.errors[0].fix).toContain('delete this ResourceGroup first');
  });

  it('refuses a directory without a Kptfile', async () => {
    const { dir } = await copyFixture('repo/docs');
    const result = await initPackage(dir);
    expect(result.ok).toBe(false);
    expect(result.errors[0].message).toContain('has no Kptfile');
    expect(result.errors[0].fix).toContain('kpt pkg init');
  });

  it.each([
    { opts: { name: 'Bad_Name' }, message: 'inventory name "Bad_Name" is not a valid object name' },
    {
      opts: { namespace: 'no.dots' },
      message: 'inventory namespace "no.dots" is not a valid namespace name',
    },
    { opts: { inventoryId: 'x'.repeat(64) }, message: 'is not a valid label value' },
    { opts: { inventoryId: '-starts-with-dash' }, message: 'is not a valid label value' },
  ])('refuses $message', async ({ opts, message }) => {
    const { dir } = await copyFixture('wordpress');
    const result = await initPackage(dir, opts);
    expect(result.ok).toBe(false);
    expect(result.errors[0].message).toContain(message);
    expect(result.errors[0].fix).toBeTruthy();
    await expect(stat(path.join(dir, 'resourcegroup.yaml'))).rejects.toThrow();
  });

  it('resolves the package inside the root it is given and refuses one outside', async () => {
    const { root } = await copyFixture('wordpress');
    expect((await initPackage('wordpress', { root })).inventory?.file).toBe('wordpress/resourcegroup.yaml');
    await expect(initPackage('../elsewhere', { root })).rejects.toThrow(/outside the repository root/);
  });

  it('reads the namespace the objects share', async () => {
    const { dir } = await copyFixture('repo/apps/plain');
    await writeFile(
      path.join(dir, 'cm.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: shop}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n',
    );
    expect((await initPackage(dir, { defaultNamespace: 'ignored' })).inventory?.namespace).toBe('shop');
  });
});

describe('generateInventoryId', () => {
  it('matches the id kpt generated for the same namespace, name and clock', () => {
    expect(generateInventoryId('default', kptName, kptNanos)).toBe(
      '011a8e9c4fc82b84256ce826fb242d48de5d05dd-1795363490629097407',
    );
  });
});

describe('renderResourceGroup', () => {
  it.each([
    { id: 'abc-123', line: 'cli-utils.sigs.k8s.io/inventory-id: abc-123' },
    { id: 'y', line: 'cli-utils.sigs.k8s.io/inventory-id: "y"' }, // as kpt wrote it for --inventory-id y
    { id: '123', line: 'cli-utils.sigs.k8s.io/inventory-id: "123"' },
    { id: 'true', line: 'cli-utils.sigs.k8s.io/inventory-id: "true"' },
  ])('writes $id so it reads back as a string', ({ id, line }) => {
    const text = renderResourceGroup('n', 'ns', id);
    expect(text).toContain(`    ${line}\n`);
    expect(parse(text).metadata.labels['cli-utils.sigs.k8s.io/inventory-id']).toBe(id);
  });
});

describe('inventoryNamespace', () => {
  const obj = (apiVersion: string, kind: string, namespace?: string, spec?: unknown): LoadedObject => ({
    object: {
      apiVersion,
      kind,
      metadata: { name: 'x', ...(namespace ? { namespace } : {}) },
      ...(spec ? { spec } : {}),
    },
    source: { file: 'f.yaml', line: 1 },
  });
  const clusterCrd = obj('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, {
    group: 'example.com',
    names: { kind: 'Fleet' },
    scope: 'Cluster',
    versions: [{ name: 'v1' }],
  });
  it.each([
    { name: 'explicit wins', objects: [obj('v1', 'ConfigMap', 'a')], explicit: 'x', ns: 'x' },
    { name: 'all agree', objects: [obj('v1', 'ConfigMap', 'a'), obj('apps/v1', 'Deployment', 'a')], ns: 'a' },
    { name: 'one without', objects: [obj('v1', 'ConfigMap', 'a'), obj('v1', 'Secret')], ns: 'fallback' },
    {
      name: 'two namespaces',
      objects: [obj('v1', 'ConfigMap', 'a'), obj('v1', 'Secret', 'b')],
      ns: 'fallback',
    },
    {
      name: 'cluster-scoped kinds are skipped',
      objects: [
        obj('v1', 'Namespace'),
        obj('rbac.authorization.k8s.io/v1', 'ClusterRole'),
        obj('v1', 'ConfigMap', 'a'),
      ],
      ns: 'a',
    },
    {
      name: 'unknown kinds count as namespaced',
      objects: [obj('v1', 'ConfigMap', 'a'), obj('example.com/v1', 'Thing')],
      ns: 'fallback',
    },
    {
      name: 'custom resources of a cluster-scoped CRD are skipped',
      objects: [clusterCrd, obj('example.com/v1', 'Fleet'), obj('v1', 'ConfigMap', 'a')],
      ns: 'a',
    },
    { name: 'nothing namespaced', objects: [obj('v1', 'Namespace')], ns: 'fallback' },
  ])('$name → $ns', ({ objects, explicit, ns }) => {
    expect(inventoryNamespace(objects, explicit, 'fallback')).toBe(ns);
  });
});
