#!/usr/bin/env node
// `npm run package`: the two ncc bundles the runner and `kpt-live` execute (dist/ and dist/cli/), built from a
// clean dist/ so a renamed chunk never lingers. ncc minifies each entry file but not the chunks it splits off
// for dynamic imports (Octokit, the auth providers), so those are minified here with esbuild (deterministic,
// so `npm run check-dist` still compares byte for byte).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { transformSync } from 'esbuild';

const ncc = (entry, out) =>
  execFileSync('npx', ['ncc', 'build', entry, '-o', out, '--license', 'licenses.txt', '--minify'], {
    stdio: 'inherit',
  });

rmSync('dist', { recursive: true, force: true });
ncc('src/index.ts', 'dist');
ncc('src/cli/index.ts', 'dist/cli');
for (const dir of ['dist', 'dist/cli']) {
  for (const name of readdirSync(dir)) {
    if (!/^\d+\.index\.js$/.test(name)) continue;
    const file = path.join(dir, name);
    const { code } = transformSync(readFileSync(file, 'utf8'), {
      minify: true,
      format: 'esm',
      target: 'node20',
      legalComments: 'none',
    });
    writeFileSync(file, code);
  }
}
