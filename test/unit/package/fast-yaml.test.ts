import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LineCounter, parseAllDocuments } from 'yaml';
import { readFastYaml } from '../../../src/package/fast-yaml.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** What read-yaml.ts makes of a file: each non-empty document's value and first content line. */
function slow(text: string): { value: unknown; line: number }[] | 'error' {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter });
  const out: { value: unknown; line: number }[] = [];
  for (const doc of Array.isArray(docs) ? docs : []) {
    if (doc.errors.length > 0) return 'error';
    if (doc.contents === null) continue;
    const value = doc.toJS();
    if (value === null) continue;
    out.push({ value, line: lineCounter.linePos(doc.contents.range[0]).line });
  }
  return out;
}

function yamlFilesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...yamlFilesUnder(p));
    else if (e.isFile() && /\.ya?ml$/.test(e.name)) out.push(p);
  }
  return out;
}

describe('readFastYaml', () => {
  it('reads every fixture, example and seed package exactly as the yaml package does, or declines', () => {
    const files = [
      ...yamlFilesUnder(path.join(repo, 'test/fixtures')),
      ...yamlFilesUnder(path.join(repo, 'examples')),
      ...yamlFilesUnder(path.join(repo, '../shared/packages')),
    ];
    expect(files.length).toBeGreaterThan(20);
    let taken = 0;
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      const fast = readFastYaml(text);
      if (!fast) continue;
      taken++;
      expect(fast, f).toEqual(slow(text));
    }
    // most manifests are plain: the fast path must actually be the common one
    expect(taken / files.length).toBeGreaterThan(0.5);
  }, 60_000); // includes the platform fixture's generated CRDs (megabytes): slow under a loaded machine

  it('types plain scalars by the YAML 1.2 core schema, like the yaml package', () => {
    const scalars = [
      'yes',
      'no',
      'on',
      'off',
      'y',
      'n',
      'true',
      'True',
      'TRUE',
      'tRue',
      'false',
      'FALSE',
      '~',
      'null',
      'Null',
      'NULL',
      'nULL',
      '',
      '0',
      '-0',
      '+12',
      '007',
      '0o17',
      '0o18',
      '0x1F',
      '0X1F',
      '0b101',
      '1_000',
      '1,000',
      '1.0',
      '1.',
      '.5',
      '-.5',
      '1e3',
      '1E-3',
      '1.5e+3',
      '.inf',
      '-.Inf',
      '+.INF',
      '.nan',
      '.NaN',
      '2001-12-14',
      '2001-12-14t21:59:43.10-05:00',
      '12:30:00',
      '1:20',
      '=',
      '<<',
      'v1',
      '1.20',
      '0.0.1',
      '99999999999999999999',
      '-',
      '0x',
      '0o',
      'NaN',
      'Infinity',
    ];
    let declined = 0;
    for (const s of scalars) {
      const text = `k: ${s}\n`;
      const fast = readFastYaml(text);
      if (!fast)
        declined++; // js-yaml reads a lone `-` as a sequence entry: the full reader takes it
      else expect(fast, JSON.stringify(s)).toEqual(slow(text));
    }
    expect(declined).toBeLessThanOrEqual(1);
  });

  it('reads quoted scalars, block scalars, flow collections, comments and CRLF the same way', () => {
    const texts = [
      'a: "1"\nb: \'true\'\nc: "x\\ty"\n',
      'a: |\n  line one\n  ---\n  two\nb: >-\n  folded\n  text\n',
      'a: [1, "2", x, {b: null}]\nc: {d: 0o7}\n',
      '# head\n\n---\n# only a comment\n---\napiVersion: v1 # trailing\nkind: ConfigMap\n',
      'apiVersion: v1\r\nkind: ConfigMap\r\ndata:\r\n  k: "v"\r\n---\r\nkind: x\r\n',
      'x: 1\n---\n---\ny: 2\n',
      'key with spaces: 1\n"quoted key": 2\n',
      '"quoted key": {a: "x"} # "y\nb:\n  - "x"\n  - [y] # [\n  - {z: 1}\nc: # c\n  # c\n  "q"\n',
    ];
    for (const t of texts) {
      const fast = readFastYaml(t);
      expect(fast, JSON.stringify(t)).toBeDefined();
      expect(fast, JSON.stringify(t)).toEqual(slow(t));
    }
  });

  it('reads quotes that open and close on one line without its per-node check, the same as with it', () => {
    const texts = [
      'a: "x"\nb: \'y\'\nc:\n  - ""\n  - "it\'s"\n',
      'rules:\n  - apiGroups:\n      - ""\n    verbs:\n      - get\n',
      "a: 'say \"hi\"'\nb: x # it's a comment\n",
    ];
    for (const t of texts) expect(readFastYaml(t), JSON.stringify(t)).toEqual(slow(t));
  });

  it('declines what only the full reader reads exactly, and syntax errors', () => {
    const declined = [
      'a: &x 1\nb: *x\n', // anchors and aliases
      'a: !!str 1\n', // tags
      '%YAML 1.2\n---\na: 1\n', // directives
      'a: 1\n...\n', // document end
      '--- {a: 1}\n', // content on the marker line
      '- a\n- b\n', // a document that does not start with a key
      '  a: 1\n', // indented root
      'a: 1\na: 2\n', // duplicate key
      'a: [1, 2\n', // unclosed flow
      'a:\n\t- 1\n', // tab
      '\ufeffa: 1\n', // byte order mark
      // continuation lines js-yaml takes at any indentation: the yaml package rejects these
      'a: "foo\nb: x"\n',
      'm:\n  n:\n    a: "foo\n  bar"\n',
      "m:\n  a: 'x\n  y'\n",
      'm:\n  a: [1,\n  2]\n',
      'm:\n  a: {b: 1,\n c: 2}\n',
      // and, so as not to tell them apart, every quoted scalar or flow collection over several lines
      'm:\n  a: "foo\n    bar"\n',
      'm:\n  a: [1,\n    2]\n',
      // even quote counts on every line, yet one scalar over two: escapes, a quote in the other kind
      'm:\n  a: "x \\"\n    y \\" z"\n',
      "m:\n  a: 'it''s\n    ok'\n",
      "m:\n  a: \"it's\n    'ok'\"\n",
    ];
    for (const t of declined) expect(readFastYaml(t), JSON.stringify(t)).toBeUndefined();
  });
});
