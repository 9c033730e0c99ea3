import { describe, expect, it } from 'vitest';
import { idOf, shortName } from '../../../src/common/object-id.js';
import { isLocalConfig, loadPackage } from '../../../src/package/load-package.js';
import { formatPackageError } from '../../../src/package/package-error.js';
import { expectActionable, fixtures, lineOf } from './helpers.js';

const load = (dir: string) => loadPackage(dir, { repoRoot: fixtures });
const names = (r: Awaited<ReturnType<typeof load>>) => r.objects.map((o) => shortName(idOf(o.object)));

describe('loadPackage on the wordpress packages', () => {
  it('reads wordpress with its mysql subpackage: 2 Services, 2 Deployments, 2 PVCs', async () => {
    const result = await load('wordpress');
    const kinds = result.objects.map((o) => o.object.kind).sort();
    expect(kinds).toEqual([
      'Deployment',
      'Deployment',
      'PersistentVolumeClaim',
      'PersistentVolumeClaim',
      'Service',
      'Service',
    ]);
    expect(names(result)).toContain('Deployment/wordpress-mysql');
    const mysql = result.objects.find((o) => o.object.metadata.name === 'mysql-pv-claim');
    expect(mysql?.source).toEqual({
      file: 'wordpress/mysql/deployment.yaml',
      line: lineOf(
        'wordpress/mysql/deployment.yaml',
        'apiVersion',
        lineOf('wordpress/mysql/deployment.yaml', '---'),
      ),
    });
    // the license header is skipped: the Service starts at its apiVersion line
    expect(result.objects.find((o) => o.source.file === 'wordpress/service.yaml')?.source.line).toBe(
      lineOf('wordpress/service.yaml', 'apiVersion'),
    );
  });

  it('gives one notice per Kptfile with a pipeline, and the uninitialised-package error', async () => {
    const result = await load('wordpress');
    expect(result.notices).toHaveLength(2);
    expect(result.notices[0]).toContain('wordpress/Kptfile');
    expect(result.notices[1]).toContain('wordpress/mysql/Kptfile');
    for (const n of result.notices)
      expect(n).toContain('the committed YAML is applied as is; run `kpt fn render');
    expect(result.inventory).toBeUndefined();
    expect(result.errors).toHaveLength(1);
    expectActionable(result.errors[0], { file: 'wordpress/Kptfile' });
    expect(result.errors[0].fix).toContain('kpt-live init wordpress');
    expect(result.errors[0].fix).toContain('kpt live init wordpress');
  });

  it('reads wordpress-with-dependencies: the StatefulSet replaces the mysql Deployment', async () => {
    const result = await load('wordpress-with-dependencies');
    expect(names(result).sort()).toEqual([
      'Deployment/wordpress',
      'Service/wordpress',
      'Service/wordpress-mysql',
      'StatefulSet/wordpress-mysql',
    ]);
  });
});

describe('loadPackage on a valid package', () => {
  it('reads every yaml/yml file, flattens List, skips Kptfile, ResourceGroup, local-config and hidden dirs', async () => {
    const result = await load('valid');
    expect(result.errors).toEqual([]);
    expect(names(result).sort()).toEqual([
      'ClusterRole/shop-reader',
      'ConfigMap/flags',
      'ConfigMap/kept',
      'ConfigMap/settings',
      'CustomResourceDefinition/widgets.example.com',
      'Deployment/web',
      'Namespace/shop',
      'ServiceAccount/runner',
      'Widget/blue',
    ]);
    expect(result.dir).toBe('valid');
  });

  it.each([
    { name: 'settings', file: 'valid/config.yaml', line: 2 }, // after the comment header
    { name: 'flags', file: 'valid/config.yaml', line: 14 }, // after `---` and a comment
    { name: 'runner', file: 'valid/list.yml', line: 4 }, // List items: the item's first line
    { name: 'shop-reader', file: 'valid/list.yml', line: 8 },
    { name: 'web', file: 'valid/sub/deployment.yaml', line: 1 }, // subpackage
  ])('keeps the source of $name: $file:$line', async ({ name, file, line }) => {
    const result = await load('valid');
    expect(result.objects.find((o) => o.object.metadata.name === name)?.source).toEqual({ file, line });
  });

  it('returns the inventory info from resourcegroup.yaml', async () => {
    const result = await load('valid');
    expect(result.inventory).toEqual({
      name: 'inventory-11111111',
      namespace: 'default',
      id: 'fixture-inventory-11111111',
      source: 'resourcegroup',
      file: 'valid/resourcegroup.yaml',
      line: 1,
    });
    expect(result.notices).toEqual([]);
  });

  it('makes source paths relative to the repository root, not the package', async () => {
    const result = await loadPackage('sub', { repoRoot: `${fixtures}/valid` });
    expect(result.objects.map((o) => o.source.file)).toEqual(['sub/deployment.yaml']);
  });
});

describe('isLocalConfig', () => {
  it.each<{ annotations: Record<string, string> | undefined; local: boolean }>([
    { annotations: undefined, local: false },
    { annotations: {}, local: false },
    { annotations: { 'config.kubernetes.io/local-config': 'true' }, local: true },
    { annotations: { 'config.kubernetes.io/local-config': '' }, local: true },
    { annotations: { 'config.kubernetes.io/local-config': 'false' }, local: false },
  ])('$annotations → $local', ({ annotations, local }) => {
    expect(isLocalConfig(annotations)).toBe(local);
  });
});

describe('loadPackage errors', () => {
  it('reports invalid YAML at the line the parser points to and still loads the other documents', async () => {
    const result = await load('invalid-yaml');
    expect(names(result).sort()).toEqual(['ConfigMap/fine', 'ConfigMap/good']);
    expect(result.errors).toHaveLength(1);
    const [err] = result.errors;
    expectActionable(err, { file: 'invalid-yaml/broken.yaml' });
    expect(err.message).toMatch(/^invalid YAML: /);
    // the flow mapping opened at `metadata: {name: unclosed` is never closed
    expect(err.line).toBeGreaterThanOrEqual(lineOf('invalid-yaml/broken.yaml', 'unclosed'));
    expect(formatPackageError(err)).toMatch(/^invalid-yaml\/broken\.yaml:\d+: invalid YAML: /);
  });

  const shapeFile = 'bad-shape/objects.yaml';
  it.each([
    { what: 'missing apiVersion', line: 1, object: 'ConfigMap/no-api-version', fix: 'apiVersion:' },
    {
      what: 'missing kind',
      line: lineOf(shapeFile, 'apiVersion', 4),
      object: '<no kind>/no-kind',
      fix: 'kind:',
    },
    {
      what: 'missing metadata.name',
      line: lineOf(shapeFile, 'metadata:', lineOf(shapeFile, 'no-kind') + 1),
      object: 'ConfigMap/<no name>',
      fix: 'name:',
    },
    {
      what: 'label "example.com/enabled" value must be a string (got boolean true)',
      line: lineOf(shapeFile, 'example.com/enabled'),
      object: 'ConfigMap/typed-values',
      fix: 'quote it: "true"',
    },
    {
      what: 'label "example.com/version" value must be a string (got number 1)',
      line: lineOf(shapeFile, 'example.com/version'),
      object: 'ConfigMap/typed-values',
      fix: 'quote it: "1.0"',
    },
    {
      what: 'label "example.com/empty" value must be a string (got null)',
      line: lineOf(shapeFile, 'example.com/empty'),
      object: 'ConfigMap/typed-values',
      fix: '""',
    },
    {
      what: 'annotation "example.com/replicas" value must be a string (got number 3)',
      line: lineOf(shapeFile, 'example.com/replicas'),
      object: 'ConfigMap/typed-values',
      fix: 'quote it: "3"',
    },
  ])('$what at its line, with the fix', async ({ what, line, object, fix }) => {
    const result = await load('bad-shape');
    const err = result.errors.find((e) => e.message.includes(what));
    expectActionable(err, { file: shapeFile, line, object });
    expect(err?.fix).toContain(fix);
  });

  it('reports a document that is not a mapping, and keeps only the object with an identity', async () => {
    const result = await load('bad-shape');
    const err = result.errors.find((e) => e.message.startsWith('not a Kubernetes object'));
    expectActionable(err, { file: shapeFile, line: lineOf(shapeFile, '- just') });
    expect(names(result)).toEqual(['ConfigMap/typed-values']);
    // coerced to the text as written, so later rules see strings
    expect(result.objects[0].object.metadata.labels).toEqual({
      'example.com/enabled': 'true',
      'example.com/version': '1.0',
      'example.com/empty': '',
    });
    expect(result.errors).toHaveLength(8);
  });

  it('formats a label error as one compiler-style line', async () => {
    const result = await load('bad-shape');
    const err = result.errors.find((e) => e.message.includes('example.com/enabled'));
    expect(err && formatPackageError(err)).toBe(
      `bad-shape/objects.yaml:${lineOf(shapeFile, 'example.com/enabled')}: ConfigMap/typed-values: label "example.com/enabled" value must be a string (got boolean true); quote it: "true"`,
    );
  });

  it('refuses a directory without a Kptfile, and a missing one', async () => {
    const notPkg = await load('repo/docs');
    expect(notPkg.objects).toEqual([]);
    expectActionable(notPkg.errors[0], { file: 'repo/docs' });
    expect(notPkg.errors[0].message).toContain('has no Kptfile');
    const missing = await load('does-not-exist');
    expect(missing.errors[0].message).toContain('does not exist');
    const file = await load('valid/config.yaml');
    expect(file.errors[0].message).toBe('package path "valid/config.yaml" is a file, not a directory');
  });

  it('throws a PackageFailure for a path outside the repository', async () => {
    await expect(load('../../unit')).rejects.toThrow(/resolves outside the repository root/);
  });
});
