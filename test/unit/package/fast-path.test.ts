import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readFastYaml, topLevelKeyLine } from '../../../src/package/fast-yaml.js';
import { parseKptfile, parseKptfileFast } from '../../../src/package/kptfile.js';
import { shapeObject } from '../../../src/package/object-shape.js';
import { parseYamlFile } from '../../../src/package/read-yaml.js';
import { shapeFast } from '../../../src/package/shape-file.js';

/** The fast paths that spare the `yaml` import give exactly what the `yaml` package gives, or decline. */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function filesUnder(dir: string, name: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p, name));
    else if (e.isFile() && name.test(e.name)) out.push(p);
  }
  return out;
}
const roots = ['test/fixtures', 'examples', '../shared/packages'].map((r) => path.join(repo, r));

const kptfiles: string[] = [
  'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: a\ninventory:\n  name: x\n  namespace: n\n',
  '# header\n---\n# more\ninventory: {name: x, inventoryID: "1"}\nkind: Kptfile\n',
  '---\nkind: Kptfile\ninfo:\n  inventory: no\ninventory:\n  labels: {a: 1, b: true}\n  annotations:\n    c: null\n',
  '"inventory": {name: x}\nkind: Kptfile\n',
  "'inventory' : {name: x}\nkind: Kptfile\n",
  'kind: Kptfile\r\nmetadata:\r\n  name: crlf\r\ninventory:\r\n  name: x\r\n',
  'kind: Kptfile\ninventory:\n  name: x\n---\ninventory:\n  name: y\n',
  'kind: Kptfile\n---\ninventory:\n  name: y\n',
  'kind: Kptfile\ninventory:\n',
  'kind: Kptfile\ninventory: {}\npipeline: {}\n',
  'kind: Kptfile\nmetadata: {name: 12}\npipeline:\n  mutators:\n    - image: x\n',
  'kind: Kptfile\npipeline:\n  validators: [{image: x}]\n  mutators: []\n',
  'kind: Kptfile\ninventory:\n  name: 1.0\n  namespace: 0o17\n  inventoryID: 2001-12-14\n',
  'kind: Kptfile\n---\n',
  // declined: only the yaml package reads these exactly
  '---\n---\nkind: Kptfile\n',
  'null\n---\nkind: Kptfile\n',
  '? inventory\n: {name: x}\nkind: Kptfile\n',
  'kind: Kptfile\ninventory: &a {name: x}\n',
  '- kind\n',
  '',
  '# only a comment\n',
  'kind: Kptfile\nmetadata: {name: a\n',
  'just text\n',
];

describe('parseKptfileFast', () => {
  it('gives what parseKptfile gives, or declines', () => {
    const texts = [
      ...kptfiles,
      ...roots.flatMap((r) => filesUnder(r, /^Kptfile$/)).map((f) => fs.readFileSync(f, 'utf8')),
    ];
    expect(texts.length).toBeGreaterThan(kptfiles.length + 10);
    let taken = 0;
    for (const text of texts) {
      const fast = parseKptfileFast(text, 'p/Kptfile');
      if (!fast) continue;
      taken++;
      expect(fast, JSON.stringify(text)).toEqual(parseKptfile(text, 'p/Kptfile'));
    }
    expect(taken).toBeGreaterThan(texts.length / 2);
  });

  it('declines what it cannot place exactly, errors included', () => {
    for (const text of kptfiles.slice(kptfiles.indexOf('---\n---\nkind: Kptfile\n')))
      expect(parseKptfileFast(text, 'p/Kptfile'), JSON.stringify(text)).toBeUndefined();
  });

  it('finds the inventory line of the first document only', () => {
    const info = parseKptfileFast('kind: Kptfile\n\ninventory:\n  name: x\n---\ninventory: {}\n', 'K');
    expect(info?.inventoryLine).toBe(3);
  });
});

describe('topLevelKeyLine', () => {
  const line = (text: string, key = 'inventory') => {
    const doc = readFastYaml(text)?.[0];
    return doc && topLevelKeyLine(text, doc, key);
  };
  it('finds a key at column 0, plain or quoted, in the document', () => {
    expect(line('a: 1\n# inventory:\ninventory:\n  x: 1\n')).toBe(3);
    expect(line('a:\n  inventory: 1\n"inventory": 2\n')).toBe(3);
    expect(line('---\na: 1\n---\ninventory: 2\n')).toBeUndefined();
    expect(line('inventoryID: 1\ninventory2: 3\n')).toBeUndefined();
  });
});

describe('shapeFast', () => {
  it('gives each fixture object as the yaml package and shapeObject do, or declines', () => {
    const files = roots.flatMap((r) => filesUnder(r, /\.ya?ml$/));
    let taken = 0;
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      const fast = shapeFast(text, 'f.yaml');
      if (!fast) continue;
      taken++;
      const full = parseYamlFile(text, 'f.yaml')
        .docs.filter((d) => d.doc.contents !== null && d.doc.toJS() !== null)
        .map((d) => shapeObject(d.doc.toJS(), d.doc.contents ?? undefined, d));
      expect(fast, f).toEqual(full);
    }
    expect(taken / files.length).toBeGreaterThan(0.5);
  }, 60_000);

  it('declines a List, a shape error and a syntax error', () => {
    expect(shapeFast('apiVersion: v1\nkind: List\nitems: []\n', 'f')).toBeUndefined();
    expect(shapeFast('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 1\n', 'f')).toBeUndefined();
    expect(shapeFast('kind: ConfigMap\nmetadata:\n  name: a\n', 'f')).toBeUndefined();
    expect(shapeFast('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a\n', 'f')).toBeUndefined();
    expect(shapeFast('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n', 'f')).toHaveLength(1);
  });
});
