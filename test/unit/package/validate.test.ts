import { describe, expect, it } from 'vitest';
import { idOf, shortName } from '../../../src/common/object-id.js';
import { loadPackage } from '../../../src/package/load-package.js';
import { formatPackageError } from '../../../src/package/package-error.js';
import { validatePackage } from '../../../src/package/validate.js';
import { expectActionable, fixtures, lineOf, scopeFromTable, wellKnownKinds } from './helpers.js';

async function validate(dir: string, defaultNamespace = 'default', table = wellKnownKinds) {
  const loaded = await loadPackage(dir, { repoRoot: fixtures });
  return validatePackage(loaded, { scope: scopeFromTable(table), defaultNamespace });
}

const nsOf = (r: Awaited<ReturnType<typeof validate>>) =>
  Object.fromEntries(r.objects.map((o) => [shortName(idOf(o.object)), o.object.metadata.namespace ?? '']));

describe('validatePackage on valid packages', () => {
  it('accepts wordpress-with-dependencies (depends-on a StatefulSet in the package)', async () => {
    const result = await validate('wordpress-with-dependencies');
    // the only error is the missing inventory, carried over from loading
    expect(result.errors.map((e) => e.message)).toEqual([
      expect.stringContaining('package has no inventory info'),
    ]);
    expect(nsOf(result)).toEqual({
      'Deployment/wordpress': 'default',
      'Service/wordpress': 'default',
      'Service/wordpress-mysql': 'default',
      'StatefulSet/wordpress-mysql': 'default',
    });
  });

  it('defaults namespaces of namespaced objects only, CRs through the CRD in the package', async () => {
    const result = await validate('valid', 'shop-ns');
    expect(result.errors).toEqual([]);
    expect(nsOf(result)).toEqual({
      'ClusterRole/shop-reader': '',
      'ConfigMap/flags': 'shop',
      'ConfigMap/kept': 'shop-ns',
      'ConfigMap/settings': 'shop-ns',
      'CustomResourceDefinition/widgets.example.com': '',
      'Deployment/web': 'shop',
      'Namespace/shop': '',
      'ServiceAccount/runner': 'shop-ns',
      'Widget/blue': 'shop-ns',
    });
  });

  it('does not change the loaded objects', async () => {
    const loaded = await loadPackage('valid', { repoRoot: fixtures });
    validatePackage(loaded, { scope: scopeFromTable(), defaultNamespace: 'x' });
    expect(
      loaded.objects.find((o) => o.object.metadata.name === 'settings')?.object.metadata.namespace,
    ).toBeUndefined();
  });

  it('a served type wins over the CRD in the package (as cli-utils asks the RESTMapper first)', async () => {
    const result = await validate('valid', 'default', {
      ...wellKnownKinds,
      'example.com/v1/Widget': 'Cluster',
    });
    expect(result.errors).toEqual([]);
    expect(nsOf(result)['Widget/blue']).toBe('');
  });

  it('keeps the load errors in the result, so callers read one list', async () => {
    const result = await validate('bad-shape');
    expect(result.errors.length).toBe((await loadPackage('bad-shape', { repoRoot: fixtures })).errors.length);
  });
});

describe('validatePackage rules', () => {
  const scopeFile = 'scope-errors/objects.yaml';
  it.each([
    {
      rule: 'namespace on a cluster-scoped kind',
      object: 'Namespace/shop',
      line: 1,
      message: 'resource is cluster-scoped but has a non-empty namespace "default"',
      fix: 'remove metadata.namespace',
    },
    {
      rule: 'namespace on a cluster-scoped custom resource (scope from the CRD)',
      object: 'Cluster/cluster-scoped-cr',
      line: lineOf(scopeFile, 'apiVersion', lineOf(scopeFile, 'right-version')),
      message: 'resource is cluster-scoped but has a non-empty namespace "default"',
      fix: 'Cluster is cluster-scoped',
    },
    {
      rule: 'unknown kind',
      object: 'Gadget/unknown-kind',
      line: lineOf(scopeFile, 'apiVersion', 6),
      message: 'unknown resource type: apiVersion "example.com/v1", kind "Gadget"',
      fix: 'install its CRD first or add the CRD to the package',
    },
    {
      rule: 'custom resource in a version its CRD does not define',
      object: 'Widget/wrong-version',
      line: lineOf(scopeFile, 'example.com/v2'),
      message: 'unknown resource type: apiVersion "example.com/v2", kind "Widget"',
      fix: `the CRD at scope-errors/crds.yaml:1 defines Widget in version(s) v1`,
    },
  ])('$rule', async ({ object, line, message, fix }) => {
    const result = await validate('scope-errors');
    const err = result.errors.find((e) => e.object === object);
    expectActionable(err, { file: scopeFile, line, object });
    expect(err?.message).toContain(message);
    expect(err?.fix).toContain(fix);
  });

  it('accepts the custom resource in the CRD version and reports nothing else', async () => {
    const result = await validate('scope-errors');
    expect(result.errors.map((e) => e.object).sort()).toEqual([
      'Cluster/cluster-scoped-cr',
      'Gadget/unknown-kind',
      'Namespace/shop',
      'Widget/wrong-version',
    ]);
  });

  it('reports duplicates after namespace defaulting, naming both places', async () => {
    const result = await validate('duplicates');
    expect(result.errors).toHaveLength(1);
    const [err] = result.errors;
    expectActionable(err, { file: 'duplicates/b.yaml', line: 2, object: 'ConfigMap/settings' });
    expect(err.message).toBe(
      'duplicate object: ConfigMap/settings in namespace "default" is also defined at duplicates/a.yaml:1',
    );
  });

  it('sees no duplicate when the default namespace separates them', async () => {
    const result = await validate('duplicates', 'other');
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0].message).toContain('in namespace "other" is also defined at duplicates/a.yaml:1');
    expect(result.errors[0].line).toBe(lineOf('duplicates/b.yaml', 'apiVersion', 8));
  });

  it("reports an object carrying the inventory label with kpt's message", async () => {
    const result = await validate('inventory-label');
    expect(result.errors).toHaveLength(1);
    expectActionable(result.errors[0], {
      file: 'inventory-label/cm.yaml',
      line: 1,
      object: 'ConfigMap/legacy-inventory',
    });
    expect(result.errors[0].message).toContain('Package has multiple inventory object templates.');
    expect(result.errors[0].fix).toContain('remove the "cli-utils.sigs.k8s.io/inventory-id" label');
  });
});

describe('depends-on rules', () => {
  const file = 'depends-on/objects.yaml';
  const start = (name: string) => lineOf(file, 'apiVersion', lineOf(file, `name: ${name}`) - 3);
  it.each([
    {
      object: 'ConfigMap/malformed',
      message:
        'invalid "config.kubernetes.io/depends-on" annotation: failed to parse object reference (index: 0): expected 3 or 5 fields, found 2: "ConfigMap/base"',
      fix: '<group>/namespaces/<namespace>/<Kind>/<name>',
    },
    {
      object: 'ConfigMap/no-namespaces-keyword',
      message:
        'invalid "config.kubernetes.io/depends-on" annotation: failed to parse object reference (index: 0): missing "namespaces" field: "/default/x/ConfigMap/base"',
      fix: '<group>/<Kind>/<name>',
    },
    {
      object: 'ConfigMap/twice',
      message:
        'invalid "config.kubernetes.io/depends-on" annotation: duplicate dependency: /namespaces/default/ConfigMap/twice -> /namespaces/default/ConfigMap/base',
      fix: 'list /namespaces/default/ConfigMap/base only once',
    },
    {
      object: 'ConfigMap/forgot-namespace',
      message:
        'invalid "config.kubernetes.io/depends-on" annotation: external dependency: /namespaces/default/ConfigMap/forgot-namespace -> /ConfigMap/base',
      fix: 'did you mean "/namespaces/default/ConfigMap/base"?',
    },
    {
      object: 'ConfigMap/outside',
      message:
        'invalid "config.kubernetes.io/depends-on" annotation: external dependency: /namespaces/default/ConfigMap/outside -> apps/namespaces/default/Deployment/elsewhere',
      fix: 'add Deployment/elsewhere to the package',
    },
  ])('$object: kpt message and fix', async ({ object, message, fix }) => {
    const result = await validate('depends-on');
    const err = result.errors.find((e) => e.object === object);
    expectActionable(err, { file, line: start(object.split('/')[1]), object });
    expect(err?.message).toBe(message);
    expect(err?.fix).toContain(fix);
  });

  it('reports nothing for a valid reference', async () => {
    const result = await validate('depends-on');
    expect(result.errors.map((e) => e.object)).not.toContain('ConfigMap/fine');
    expect(result.errors).toHaveLength(5);
  });

  it('is not external when the dependency is about to be pruned (extraIds)', async () => {
    const loaded = await loadPackage('depends-on', { repoRoot: fixtures });
    const result = validatePackage(loaded, {
      scope: scopeFromTable(),
      defaultNamespace: 'default',
      extraIds: [{ group: 'apps', kind: 'Deployment', namespace: 'default', name: 'elsewhere' }],
    });
    expect(result.errors.map((e) => e.object)).not.toContain('ConfigMap/outside');
  });

  it("reports a cycle with kpt's text on each object in it, not on bystanders", async () => {
    const result = await validate('cycle');
    const cycle = [
      'cyclic dependency:',
      '- apps/namespaces/default/Deployment/a -> apps/namespaces/default/Deployment/b',
      '- apps/namespaces/default/Deployment/b -> apps/namespaces/default/Deployment/a',
    ].join('\n');
    expect(result.errors.map((e) => [e.object, e.line, e.message])).toEqual([
      ['Deployment/a', 1, cycle],
      ['Deployment/b', lineOf('cycle/objects.yaml', 'apiVersion', 3), cycle],
    ]);
    for (const e of result.errors) expectActionable(e, { file: 'cycle/objects.yaml' });
  });

  it('includes the implicit Namespace edge in cycles', async () => {
    const result = await validate('implicit-cycle');
    expect(result.errors.map((e) => e.object)).toEqual(['Namespace/shop', 'ConfigMap/settings']);
    expect(result.errors[0].message).toBe(
      [
        'cyclic dependency:',
        '- /namespaces/shop/ConfigMap/settings -> /Namespace/shop',
        '- /Namespace/shop -> /namespaces/shop/ConfigMap/settings',
      ].join('\n'),
    );
    expect(formatPackageError(result.errors[0])).toMatch(
      /^implicit-cycle\/objects\.yaml:1: Namespace\/shop: cyclic dependency:/,
    );
  });
});

describe('the kpt-live-action.dev/conflicts annotation', () => {
  const cm = (value: string, line: number) => ({
    object: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm${line}`, annotations: { 'kpt-live-action.dev/conflicts': value } },
    },
    source: { file: 'pkg/cms.yaml', line },
  });

  it('reports an unknown mode or class, or a manager both taken and kept, on the object, with the fix', () => {
    const loaded = {
      objects: [cm('keep=kubectl-label', 1), cm('always', 8), cm('drop=helm', 15), cm('take=x keep=x', 22)],
      errors: [],
    };
    const result = validatePackage(loaded, { scope: scopeFromTable(), defaultNamespace: 'default' });
    expect(result.errors.map((e) => `${e.file}:${e.line} ${e.object}: ${e.message}`)).toEqual([
      'pkg/cms.yaml:8 ConfigMap/cm8: kpt-live-action.dev/conflicts: unknown mode "always" (accepted: take-hand-edits, fail, force, take=MANAGER, keep=MANAGER)',
      'pkg/cms.yaml:15 ConfigMap/cm15: kpt-live-action.dev/conflicts: unknown class "drop" in "drop=helm" (accepted: take-hand-edits, fail, force, take=MANAGER, keep=MANAGER)',
      'pkg/cms.yaml:22 ConfigMap/cm22: kpt-live-action.dev/conflicts: field manager "x" listed in both: a manager\'s fields are either taken over or kept, not both',
    ]);
    expect(result.errors[0].fix).toBe(
      'write a mode (take-hand-edits, fail, force) and/or take=MANAGER, keep=MANAGER, separated by commas or spaces, e.g. "kpt-live-action.dev/conflicts: keep=kubectl-label"',
    );
  });
});
