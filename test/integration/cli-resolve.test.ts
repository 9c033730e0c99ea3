import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './cli-helpers.js';

/** `kpt-live resolve` in a throwaway git repository with three deployable packages. */
describe('kpt-live resolve', () => {
  let repo: string;
  let base: string;
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } }).trim();

  beforeAll(async () => {
    repo = await mkdtemp(path.join(os.tmpdir(), 'kpt-live-resolve-'));
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'test');
    for (const app of ['app1', 'app2', 'app3']) {
      const dir = path.join(repo, 'deploy', app);
      await mkdir(path.dirname(dir), { recursive: true });
      await cp(path.join(repoRoot, 'test/fixtures/cli/basic'), dir, { recursive: true });
      const rg = path.join(dir, 'resourcegroup.yaml');
      await writeFile(rg, (await readFile(rg, 'utf8')).replaceAll('NAMESPACE', `ns-${app}`));
    }
    await writeFile(path.join(repo, 'README.md'), '# deployments\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'three packages');
    base = git('rev-parse', 'HEAD');

    const cm = path.join(repo, 'deploy/app1/configmap.yaml');
    await writeFile(cm, (await readFile(cm, 'utf8')).replace('hello', 'bye'));
    await rename(path.join(repo, 'deploy/app2/service.yaml'), path.join(repo, 'deploy/app2/svc.yaml'));
    await rm(path.join(repo, 'deploy/app3'), { recursive: true });
    await writeFile(path.join(repo, 'README.md'), '# deployments, changed\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'change app1, rename in app2, delete app3');
  });
  afterAll(() => rm(repo, { recursive: true, force: true }));

  it('lists the changed units, the deleted one with "removed": true and its base commit', async () => {
    const run = await runCli(['resolve', '--base', 'HEAD~1', '--head', 'HEAD'], {
      cwd: path.join(repo, 'deploy'),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `${JSON.stringify([
        { path: 'deploy/app1', removed: false },
        { path: 'deploy/app2', removed: false },
        { path: 'deploy/app3', removed: true, baseCommit: base },
      ])}\n`,
    );
  });

  it('lists every unit without --base, and nothing for an empty change', async () => {
    const all = await runCli(['resolve'], { cwd: repo });
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual([
      { path: 'deploy/app1', removed: false },
      { path: 'deploy/app2', removed: false },
    ]);
    const none = await runCli(['resolve', '--base', 'HEAD'], { cwd: repo });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('[]\n');
  });

  it('exits 2 for an unknown revision and 1 outside a git repository', async () => {
    const bad = await runCli(['resolve', '--base', 'no-such-branch'], { cwd: repo });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`error: --base no-such-branch: no such commit in ${await realpath(repo)}\n`);
    const outside = await mkdtemp(path.join(os.tmpdir(), 'kpt-live-nogit-'));
    const run = await runCli(['resolve', '--base', 'HEAD'], { cwd: outside });
    await rm(outside, { recursive: true });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is not inside a git repository');
  });
});
