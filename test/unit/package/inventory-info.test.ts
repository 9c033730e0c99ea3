import { describe, expect, it } from 'vitest';
import { readInventoryInfo } from '../../../src/package/inventory-info.js';
import { parseKptfile } from '../../../src/package/kptfile.js';
import { loadPackage } from '../../../src/package/load-package.js';
import { expectActionable, fixtures, lineOf } from './helpers.js';

const load = (dir: string) => loadPackage(dir, { repoRoot: fixtures });

describe('inventory info', () => {
  it("reads the Kptfile inventory section with labels and annotations, with kpt's migration notice", async () => {
    const result = await load('inventory/kptfile');
    expect(result.errors).toEqual([]);
    expect(result.inventory).toEqual({
      name: 'inventory-kptfile',
      namespace: 'shop',
      id: 'kptfile-id',
      source: 'kptfile',
      file: 'inventory/kptfile/Kptfile',
      line: lineOf('inventory/kptfile/Kptfile', 'inventory:'),
      labels: { team: 'web' },
      annotations: { 'example.com/owner': 'web-team' },
    });
    expect(result.notices).toEqual([expect.stringContaining('kpt live migrate')]);
  });

  it('reads a ResourceGroup from any file of the package, as kpt does', async () => {
    const result = await load('inventory/other-file');
    expect(result.inventory).toMatchObject({
      name: 'inventory-other',
      id: 'other-id',
      file: 'inventory/other-file/inventory.yaml',
    });
    expect(result.objects.map((o) => o.object.kind)).toEqual(['ConfigMap']);
  });

  it.each([
    {
      dir: 'inventory/both',
      file: 'inventory/both/Kptfile',
      line: lineOf('inventory/both/Kptfile', 'inventory:'),
      message:
        'inventory was found in both Kptfile and ResourceGroup object (inventory/both/resourcegroup.yaml:1)',
      fix: 'keep one',
    },
    {
      dir: 'inventory/multiple',
      file: 'inventory/multiple/resourcegroup.yaml',
      line: 1,
      object: 'ResourceGroup/inventory-one',
      message:
        'multiple ResourceGroup objects found in package (the first is at inventory/multiple/extra-inventory.yaml:1)',
      fix: 'keep exactly one ResourceGroup',
    },
    {
      dir: 'inventory/none',
      file: 'inventory/none/Kptfile',
      message: 'package has no inventory info',
      fix: 'run "kpt-live init inventory/none" (or "kpt live init inventory/none")',
    },
    {
      dir: 'inventory/invalid',
      file: 'inventory/invalid/resourcegroup.yaml',
      line: 1,
      object: 'ResourceGroup/inventory-invalid',
      message: 'the inventory information is not valid: "inventory.namespace" must not be empty',
      fix: 'set metadata.namespace',
    },
    {
      dir: 'inventory/invalid',
      file: 'inventory/invalid/resourcegroup.yaml',
      line: 1,
      object: 'ResourceGroup/inventory-invalid',
      message: 'the inventory information is not valid: "inventory.inventoryID" must not be empty',
      fix: 'add the label "cli-utils.sigs.k8s.io/inventory-id: <id>"',
    },
  ])('$dir: $message', async ({ dir, file, line, object, message, fix }) => {
    const result = await load(dir);
    expect(result.inventory).toBeUndefined();
    const err = result.errors.find((e) => e.message === message || e.message.startsWith(message));
    expectActionable(err, { file, line, object });
    expect(err?.fix).toContain(fix);
  });

  it('reports inventory info inside subpackages of the unit, Kptfile and ResourceGroup alike', async () => {
    const result = await load('inventory/nested');
    expect(result.inventory?.name).toBe('inventory-outer');
    expect(result.errors.map((e) => [e.file, e.line, e.object])).toEqual([
      [
        'inventory/nested/inner-kptfile/Kptfile',
        lineOf('inventory/nested/inner-kptfile/Kptfile', 'inventory:'),
        undefined,
      ],
      ['inventory/nested/inner-rg/resourcegroup.yaml', 1, 'ResourceGroup/inventory-inner'],
    ]);
    for (const e of result.errors) {
      expect(e.message).toContain(
        'of the deployable unit "inventory/nested": two inventories would own the same objects',
      );
      expect(e.fix).toContain('remove it');
    }
    // the subpackages' objects are still loaded (they are applied with the unit)
    expect(result.objects.map((o) => o.object.metadata.name).sort()).toEqual([
      'inner',
      'inner-kptfile',
      'outer',
    ]);
  });

  it('readInventoryInfo looks only at the package itself, not its subpackages', async () => {
    const nested = await readInventoryInfo('inventory/nested', { repoRoot: fixtures });
    expect(nested.errors).toEqual([]);
    expect(nested.inventory?.name).toBe('inventory-outer');
    const none = await readInventoryInfo('wordpress', { repoRoot: fixtures });
    expect(none.inventory).toBeUndefined();
    expect(none.errors[0].fix).toContain('kpt-live init wordpress');
  });
});

describe('parseKptfile', () => {
  it.each([
    {
      name: 'no pipeline',
      text: 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: a\n',
      pipeline: false,
    },
    { name: 'empty pipeline', text: 'kind: Kptfile\nmetadata: {name: a}\npipeline: {}\n', pipeline: false },
    {
      name: 'mutators',
      text: 'kind: Kptfile\nmetadata: {name: a}\npipeline:\n  mutators:\n    - image: x\n',
      pipeline: true,
    },
    { name: 'validators', text: 'kind: Kptfile\npipeline:\n  validators: [{image: x}]\n', pipeline: true },
  ])('$name → pipeline $pipeline', ({ text, pipeline }) => {
    const info = parseKptfile(text, 'p/Kptfile');
    expect(info.errors).toEqual([]);
    expect(info.pipeline).toBe(pipeline);
  });

  it('treats `inventory:` without a value as absent and reports broken YAML with its line', () => {
    expect(parseKptfile('kind: Kptfile\ninventory:\n', 'p/Kptfile').inventory).toBeUndefined();
    const broken = parseKptfile('kind: Kptfile\nmetadata: {name: a\n', 'p/Kptfile');
    expect(broken.errors).toHaveLength(1);
    expectActionable(broken.errors[0], { file: 'p/Kptfile' });
    expect(broken.errors[0].line).toBeGreaterThan(0);
  });
});
