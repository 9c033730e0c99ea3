import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const script = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../scripts/check-import-cycles.mjs',
);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A throwaway src/ tree: file path → content. */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cycles-'));
  dirs.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

const check = (root: string) => spawnSync(process.execPath, [script, root], { encoding: 'utf8' });

describe('scripts/check-import-cycles.mjs (a step of npm run lint)', () => {
  it('passes when folders import one way', () => {
    const root = tree({
      'low/id.ts': 'export type Id = string;\n',
      'high/use.ts': "import type { Id } from '../low/id.js';\nexport const x: Id = '';\n",
    });
    const r = check(root);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('no import cycles between the 2 folders and 2 files');
  });

  it('fails on a cycle between folders, through a multi-line type import, naming the files', () => {
    const root = tree({
      'a/a.ts': "import type { B } from '../b/b.js';\nexport type A = B;\n",
      'a/c.ts': 'export const c = 1;\n',
      'b/b.ts': "import {\n  c,\n} from '../a/c.js';\nexport type B = typeof c;\n",
    });
    const r = check(root);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('import cycle between folders');
    expect(r.stderr).toContain('a -> b: ');
    expect(r.stderr).toContain('b.ts imports ../a/c.js');
  });

  it('fails on files that import each other inside one folder (re-exports and dynamic imports count)', () => {
    const root = tree({
      'cli/one.ts': "export { two } from './two.js';\nexport const one = 1;\n",
      'cli/two.ts': "export const two = () => import('./one.js');\n",
    });
    const r = check(root);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('import cycle between files');
    expect(r.stderr).not.toContain('between folders');
  });
});
