import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlPlane, useCluster } from '../support/harness/index.js';
import { RUNTIMES } from '../support/node24.js';
import { packageIn, repoRoot } from './cli-helpers.js';

/**
 * The CLI as a user installs it: `npm pack` of this repository (the bundle `npm run package` built),
 * installed into an empty folder with npm, run through its `kpt-live` bin under Node 20 and Node 24.
 */
describe('the CLI installed from npm pack', () => {
  const cluster = useCluster({ namespace: false });
  let work: string;
  let installed: string;
  const version = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version;

  beforeAll(() => {
    const bundle = path.join(repoRoot, 'dist/cli/index.js');
    if (!fs.existsSync(bundle))
      throw new Error(`${bundle} is missing: run \`npm run package\` first (the tarball ships the bundle)`);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-pack-'));
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [{ filename, files }] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
    const paths = files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining(['bin/kpt-live.js', 'dist/cli/index.js', 'LICENSE', 'NOTICE']),
    );
    // the tarball holds the bundle, not the sources or the tests
    expect(paths.some((p) => p.startsWith('src/') || p.startsWith('test/'))).toBe(false);
    installed = path.join(work, 'install');
    fs.mkdirSync(installed);
    fs.writeFileSync(path.join(installed, 'package.json'), '{"name":"user-project","private":true}\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', path.join(work, filename)], {
      cwd: installed,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  });
  afterAll(() => {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('installs the kpt-live bin and nothing else (the bundle needs no dependencies)', () => {
    const bin = path.join(installed, 'node_modules/.bin/kpt-live');
    expect(fs.existsSync(bin)).toBe(true);
    const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(version);
    expect(fs.readdirSync(path.join(installed, 'node_modules')).filter((d) => !d.startsWith('.'))).toEqual([
      'kpt-live-action',
    ]);
  });

  it.each(RUNTIMES)('runs --version and a preview under $name', async ({ binary }) => {
    const node = binary();
    const script = path.join(installed, 'node_modules/kpt-live-action/bin/kpt-live.js');
    const v = spawnSync(node, [script, '--version'], { encoding: 'utf8' });
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout.trim()).toBe(version);

    const ns = await cluster.namespace('pack');
    const dir = await packageIn('basic', ns);
    const r = spawnSync(node, [script, 'preview', 'basic', '-n', ns, '--output', 'json'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, KUBECONFIG: controlPlane().kubeconfigPath, NO_COLOR: '1' },
    });
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.package).toBe('basic');
    expect(doc.summary).toMatchObject({ create: 3, error: 0 });
  });
});
