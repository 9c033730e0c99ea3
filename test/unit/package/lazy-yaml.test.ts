import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKptfile } from '../../../src/package/kptfile.js';
import { parseYamlFile } from '../../../src/package/read-yaml.js';
import { runNode, tsxLoader } from '../../support/front-ends.js';

/**
 * Loading an ordinary package must not import the `yaml` package (~110 KB, tens of ms on a cold process);
 * any error must still be reported at the line the `yaml` package gives. Checked in fresh processes, since
 * the unit tests' setup preloads `yaml`.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const probe = path.join(repo, 'test/support/yaml-probe.ts');

const deployment = `# Copyright header
# second line

apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
  annotations:
    example.com/note: "1"
spec:
  replicas: 2
  template:
    spec:
      containers:
        - name: web
          image: nginx:1.27
          args: ["--port", '8080']
          command:
            - sh
            - -c
            - |
              echo hi
---
# the settings
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
data:
  enabled: "true"
  count: "3"
`;
const resourceGroup = (name: string, extra = '') => `apiVersion: kpt.dev/v1alpha1
kind: ResourceGroup
metadata:
  name: ${name}
  namespace: shop
  labels:
    cli-utils.sigs.k8s.io/inventory-id: ${name}-id${extra}
`;
const kptfile = (name: string, rest = '') =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n${rest}`;
const brokenManifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: unclosed\ndata:\n  a: b\n';
const brokenKptfile = 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: [x\n';

const files: Record<string, string> = {
  'plain/shop/Kptfile': kptfile('shop', 'info:\n  description: a shop\n'),
  'plain/shop/resourcegroup.yaml': resourceGroup('inventory-shop'),
  'plain/shop/app.yaml': deployment,
  'plain/shop/db/Kptfile': kptfile('db'),
  'plain/shop/db/db.yaml':
    'apiVersion: v1\nkind: Service\nmetadata:\n  name: db\nspec:\n  ports: [{port: 5432}]\n',
  'plain/legacy/Kptfile': kptfile(
    'legacy',
    '# the deprecated location\ninventory:\n  namespace: shop\n  name: inv-legacy\n  inventoryID: legacy-id\n',
  ),
  'plain/legacy/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: legacy\n',
  'errors/broken/Kptfile': kptfile('broken'),
  'errors/broken/resourcegroup.yaml': resourceGroup('inventory-broken'),
  'errors/broken/good.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: good\n',
  'errors/broken/bad.yaml': brokenManifest,
  'errors/badkptfile/Kptfile': brokenKptfile,
  'errors/badkptfile/resourcegroup.yaml': resourceGroup('inventory-badkptfile'),
  // an anchor: the fast reader declines the file
  'errors/anchored/Kptfile': kptfile('anchored'),
  'errors/anchored/resourcegroup.yaml': resourceGroup('inventory-anchored', '\n  annotations: &a {x: y}'),
};

let root = '';
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-yaml-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

interface Step {
  step: string;
  yamlLoaded: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: the probe's JSON, checked field by field
  result: any;
}

async function runProbe(repoRoot: string, ...steps: string[]): Promise<Step[]> {
  const r = await runNode(['--import', tsxLoader, probe, repoRoot, ...steps], { cwd: repo });
  expect(r.code, r.out).toBe(0);
  return r.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Step);
}

describe('the yaml package is imported only when a file needs it', () => {
  it('loads plain packages, their inventory and the units without importing yaml', async () => {
    const [shop, legacy, shopInv, legacyInv, units] = await runProbe(
      path.join(root, 'plain'),
      'load:shop',
      'load:legacy',
      'inventory:shop',
      'inventory:legacy',
      'units',
    );
    for (const s of [shop, legacy, shopInv, legacyInv, units]) expect(s.yamlLoaded, s.step).toBe(false);

    expect(shop.result.errors).toEqual([]);
    expect(shop.result.notices).toEqual([]);
    // the lines and values the yaml package gives (it is preloaded in this process)
    const yamlDocs = parseYamlFile(deployment, 'shop/app.yaml').docs;
    expect(yamlDocs.map((d) => d.line)).toEqual([4, 27]);
    expect(shop.result.objects.map((o: { object: unknown }) => o.object)).toEqual([
      ...yamlDocs.map((d) => d.doc.toJS()),
      parseYamlFile(files['plain/shop/db/db.yaml'], 'x').docs[0].doc.toJS(),
    ]);
    expect(shop.result.objects.map((o: { source: unknown }) => o.source)).toEqual([
      { file: 'shop/app.yaml', line: 4 },
      { file: 'shop/app.yaml', line: 27 },
      { file: 'shop/db/db.yaml', line: 1 },
    ]);
    expect(shop.result.objects[0].object.spec.template.spec.containers[0]).toEqual({
      name: 'web',
      image: 'nginx:1.27',
      args: ['--port', '8080'],
      command: ['sh', '-c', 'echo hi\n'],
    });
    const rg = {
      name: 'inventory-shop',
      namespace: 'shop',
      id: 'inventory-shop-id',
      source: 'resourcegroup',
    };
    expect(shop.result.inventory).toEqual({ ...rg, file: 'shop/resourcegroup.yaml', line: 1 });
    expect(shopInv.result.inventory).toEqual(shop.result.inventory);

    const kf = { name: 'inv-legacy', namespace: 'shop', id: 'legacy-id', source: 'kptfile' };
    expect(legacy.result.errors).toEqual([]);
    const inventoryLine = parseKptfile(files['plain/legacy/Kptfile'], 'legacy/Kptfile').inventoryLine;
    expect(inventoryLine).toBe(6);
    expect(legacy.result.inventory).toEqual({ ...kf, file: 'legacy/Kptfile', line: inventoryLine });
    expect(legacy.result.notices).toHaveLength(1);
    expect(legacyInv.result.inventory).toEqual(legacy.result.inventory);
    expect(units.result.map((u: { dir: string }) => u.dir)).toEqual(['legacy', 'shop']);
  }, 60_000);

  it('imports it for a syntax error in a manifest, reported at the line the yaml package gives', async () => {
    const [broken] = await runProbe(path.join(root, 'errors'), 'load:broken');
    expect(broken.yamlLoaded).toBe(true);
    const expected = parseYamlFile(brokenManifest, 'broken/bad.yaml').errors;
    expect(expected).toHaveLength(1);
    expect(broken.result.errors).toEqual(expected);
    expect(
      broken.result.objects.map((o: { object: { metadata: { name: string } } }) => o.object.metadata.name),
    ).toEqual(['good']);
  }, 60_000);

  it('imports it for a syntax error in a Kptfile, reported at the line the yaml package gives', async () => {
    const [bad] = await runProbe(path.join(root, 'errors'), 'load:badkptfile');
    expect(bad.yamlLoaded).toBe(true);
    const expected = parseKptfile(brokenKptfile, 'badkptfile/Kptfile').errors;
    expect(expected).toHaveLength(1);
    expect(expected[0].line).toBeGreaterThan(1);
    expect(bad.result.errors).toEqual(expected);
  }, 60_000);

  it('imports it for a ResourceGroup file the fast reader declines, and still finds the inventory', async () => {
    const [inv] = await runProbe(path.join(root, 'errors'), 'inventory:anchored');
    expect(inv.yamlLoaded).toBe(true);
    expect(inv.result.errors).toEqual([]);
    expect(inv.result.inventory).toMatchObject({ name: 'inventory-anchored', line: 1 });
  }, 60_000);
});
