import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { adminClient, createNamespace, uniqueName } from '../support/cluster.js';
import { git } from '../support/git-repo.js';
import { getObject } from '../support/rollback.js';
import { runCli } from './cli-helpers.js';

/**
 * `kpt-live rollback` and `kpt-live apply --rollback-on-failure` as a user runs them: a git checkout whose
 * commits were applied one after another, the deploy history read back with `kpt-live history`.
 */
function checkout(ns: string) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-rbcli-'));
  onTestFinished(() => fs.rmSync(work, { recursive: true, force: true }));
  const dir = path.join(work, 'app');
  fs.mkdirSync(dir);
  const inv = uniqueName('inventory');
  fs.writeFileSync(
    path.join(dir, 'Kptfile'),
    'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\n',
  );
  fs.writeFileSync(
    path.join(dir, 'resourcegroup.yaml'),
    `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: ${inv}\n  namespace: ${ns}\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${inv}-id\n`,
  );
  git(work, 'init', '-q');
  return {
    work,
    /** Writes (null: deletes) files of the package, commits, and returns the SHA. */
    commit(files: Record<string, string | null>) {
      for (const [f, text] of Object.entries(files)) {
        if (text === null) fs.rmSync(path.join(dir, f));
        else fs.writeFileSync(path.join(dir, f), text);
      }
      git(work, 'add', '-A');
      git(work, 'commit', '-q', '-m', 'change');
      return git(work, 'rev-parse', 'HEAD');
    },
    cli: (...args: string[]) => runCli(args, { cwd: work }),
  };
}

const cm = (name: string, color: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  color: ${color}\n`;

describe('kpt-live rollback', () => {
  it('returns to the deploy before the last (--dry-run first), to a commit (--to), or N deploys back (--steps), and records each as a rollback', async () => {
    const ns = await createNamespace(adminClient(), 'rbcli');
    const repo = checkout(ns);
    const color = async () => (await getObject(`/api/v1/namespaces/${ns}/configmaps/cm`))?.data.color;
    const c1 = repo.commit({ 'cm.yaml': cm('cm', 'one') });
    expect((await repo.cli('apply', 'app', '-n', ns)).code).toBe(0);
    const c2 = repo.commit({ 'cm.yaml': cm('cm', 'two') });
    expect((await repo.cli('apply', 'app', '-n', ns)).code).toBe(0);
    const c3 = repo.commit({ 'cm.yaml': cm('cm', 'three'), 'added.yaml': cm('added', 'new') });
    expect((await repo.cli('apply', 'app', '-n', ns)).code).toBe(0);

    const dry = await repo.cli('rollback', 'app', '-n', ns, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`Rollback of app to ${c2.slice(0, 7)} (last deployed: ${c3.slice(0, 7)})`);
    expect(dry.stdout).toMatch(/~ ConfigMap\/cm\s+configure/);
    expect(dry.stdout).toContain('data.color three → two');
    expect(dry.stderr).toContain(
      `dry run, nothing was changed: would roll back to ${c2.slice(0, 7)}; not in the package at ${c2.slice(0, 7)}, would be kept: ConfigMap/added`,
    );
    expect(await color()).toBe('three');

    // the checkout stays at the newest commit: the stale-commit guard does not stand in the way
    const back = await repo.cli('rollback', 'app', '-n', ns);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toContain(`Rollback of app to ${c2.slice(0, 7)}`);
    expect(back.stdout).toContain('configmap/cm apply successful');
    expect(back.stderr).toMatch(
      new RegExp(
        `kpt-live: app: rolled back to ${c2.slice(0, 7)}, Current in [\\d.]+m?s; not in the package at ${c2.slice(0, 7)}, kept: ConfigMap/added`,
      ),
    );
    expect(await color()).toBe('two');
    expect(await getObject(`/api/v1/namespaces/${ns}/configmaps/added`)).toBeDefined();

    expect((await repo.cli('rollback', 'app', '-n', ns, '--to', c1.slice(0, 10))).code).toBe(0);
    expect(await color()).toBe('one');
    // newest first: the rollback to c1, the rollback to c2, then c3, c2 and c1 as applied; two back from c1 is c3
    const steps = await repo.cli('rollback', 'app', '-n', ns, '--steps', '2', '--rollback-prune');
    expect(steps.code, steps.stderr).toBe(0);
    expect(await color()).toBe('three');

    const history = await repo.cli('history', 'app');
    const lines = history.stdout.split('\n').filter((l) => /^\d{4}-/.test(l));
    expect(lines.map((l) => l.split(/\s+/).slice(1, 4).join(' '))).toEqual([
      `rollback success ${c3.slice(0, 12)}`,
      `rollback success ${c1.slice(0, 12)}`,
      `rollback success ${c2.slice(0, 12)}`,
      `apply success ${c3.slice(0, 12)}`,
      `apply success ${c2.slice(0, 12)}`,
      `apply success ${c1.slice(0, 12)}`,
    ]);
    expect(history.stdout).toContain(`rolled back from ${c3.slice(0, 12)}`);

    const both = await repo.cli('rollback', 'app', '-n', ns, '--to', c1, '--steps', '1');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--to and --steps both choose the deploy to return to');
    const unknown = await repo.cli('rollback', 'app', '-n', ns, '--to', 'deadbeef');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'no successful deploy of commit deadbeef in the deploy history; successful deploys:',
    );
    expect(await color()).toBe('three');
  });

  it('apply --rollback-on-failure: a failed apply is rolled back and exits 3; preview --rollback-on-failure names the commit', async () => {
    const ns = await createNamespace(adminClient(), 'rbcli2');
    const repo = checkout(ns);
    const good = repo.commit({ 'cm.yaml': cm('cm', 'good') });
    expect((await repo.cli('apply', 'app', '-n', ns)).code).toBe(0);
    repo.commit({
      'cm.yaml': cm('cm', 'bad'),
      'web.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}, annotations: {sim.kpt-live-action.dev/behavior: invalid-image}}
    spec: {containers: [{name: app, image: "Example/App:1"}]}
`,
    });
    const preview = await repo.cli('preview', 'app', '-n', ns, '--rollback-on-failure');
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toContain(`on failure: rolls back to ${good.slice(0, 7)}`);
    const markdown = await repo.cli(
      'preview',
      'app',
      '-n',
      ns,
      '--rollback-on-failure',
      '--output',
      'markdown',
    );
    expect(markdown.stdout).toContain(`on failure: rolls back to \`${good.slice(0, 7)}\``);
    expect((await repo.cli('preview', 'app', '-n', ns)).stdout).not.toContain('on failure');

    const run = await repo.cli('apply', 'app', '-n', ns, '--rollback-on-failure');
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(
      `kpt-live: the apply failed: rolling back to ${good.slice(0, 7)}, the last successful deploy`,
    );
    expect(run.stderr).toMatch(/deployment\.apps\/web .*InvalidImageName/);
    expect(run.stderr).toMatch(
      new RegExp(
        `kpt-live: app: rolled back to ${good.slice(0, 7)}, Current in [\\d.]+m?s; added by the failed deploy, kept: Deployment/web`,
      ),
    );
    // the failed apply's summary, then the rollback's
    expect(run.stdout.match(/^apply result: /gm)).toHaveLength(2);
    expect((await getObject(`/api/v1/namespaces/${ns}/configmaps/cm`))?.data.color).toBe('good');
  });
});
