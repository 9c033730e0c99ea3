import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlPlane, type Obj, useCluster } from '../support/harness/index.js';
import { hasStackTrace, packageIn, runCli } from './cli-helpers.js';

describe('kpt-live exit codes', () => {
  const cluster = useCluster({ namespace: false });
  const { api } = cluster;

  it('exits 3 and names the Deployment that never becomes ready', async () => {
    const ns = await cluster.namespace('cli-exit3');
    const cwd = await packageIn('never-ready', ns);
    const run = await runCli(['apply', 'never-ready', '-n', ns, '--reconcile-timeout', '60s'], { cwd });
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('deployment.apps/stuck reconcile failed\n');
    expect(run.stdout).toContain(
      'reconcile result: 2 attempted, 1 successful, 0 skipped, 1 failed, 0 timed out\n',
    );
    expect(run.stderr).toContain(
      'deployment.apps/stuck (never-ready/deployment.yaml:1) failed to reconcile: Failed: Progress deadline exceeded',
    );
    expect(hasStackTrace(run.stderr)).toBe(false);

    const status = await runCli(['status', 'never-ready'], { cwd });
    expect(status.code).toBe(3);
    expect(status.stdout).toContain(
      `inventory-never-ready/deployment.apps/${ns}/stuck is Failed: Progress deadline exceeded\n`,
    );
  });

  it('exits 1 on an invalid package, naming file and line, with no stack trace and nothing applied', async () => {
    const ns = await cluster.namespace('cli-exit1');
    const cwd = await packageIn('invalid', ns);
    const run = await runCli(['apply', 'invalid', '-n', ns], { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'error: invalid/configmap.yaml:13: ConfigMap/typed-label: label "example.com/enabled" value must be a string (got boolean true); quote it: "true"\n',
    );
    expect(hasStackTrace(run.stderr)).toBe(false);
    const cm = await api.request('GET', `/api/v1/namespaces/${ns}/configmaps/fine`);
    expect(cm.status).toBe(404);
  });

  // the in-process cases are in test/unit/cli/main.test.ts; these check the real process's exit code
  it.each([
    [['apply', '--bogus'], "error: unknown option '--bogus'"],
    [['apply', '--reconcile-timeout', '5x'], '"5x" is not a duration'],
    [['apply', '--output=yaml'], 'Allowed choices are events, json, table'],
    [['apply', '--server-side=maybe'], 'invalid argument "maybe" for "--server-side" flag'],
    [['frobnicate'], "error: unknown command 'frobnicate'"],
  ])('exits 2 with one line on stderr for %j', async (args, message) => {
    const run = await runCli(args, { cwd: os.tmpdir() });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('exits 1 with a clear message when the cluster cannot be reached', async () => {
    const cwd = await packageIn('basic', 'unreachable');
    const kubeconfig = (await readFile(controlPlane().kubeconfigPath, 'utf8')).replace(
      /server: https:\/\/127\.0\.0\.1:\d+/,
      'server: https://127.0.0.1:1',
    );
    await writeFile(path.join(cwd, 'down.kubeconfig'), kubeconfig);
    const run = await runCli(['apply', 'basic', '--kubeconfig', 'down.kubeconfig'], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error: cannot reach the cluster at https:\/\/127\.0\.0\.1:1 \(kubeconfig context "[^"]+"\): .*ECONNREFUSED/,
    );
    expect(hasStackTrace(run.stderr)).toBe(false);

    const missing = await runCli(['apply', 'basic', '--kubeconfig', 'nowhere.kubeconfig'], { cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `error: cannot use the kubeconfig: kubeconfig not found: ${path.join(cwd, 'nowhere.kubeconfig')}\n`,
    );
  }, 90_000);

  it('--progress always draws the live view: what is pending, why, and for how long', async () => {
    const ns = await cluster.namespace('cli-progress');
    const cwd = await packageIn('never-ready', ns);
    const run = await runCli(['apply', 'never-ready', '-n', ns, '--progress', 'always'], { cwd });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /… waiting for 1 of 2 object\(s\) to reconcile \(\d+(\.\d)?m?s; run \d+(\.\d)?m?s\)\n {4}deployment\.apps\/stuck +InProgress +\S/,
    );
    expect(run.stderr).toContain('\u001b[2A\u001b[0J');
    // the view never reaches stdout, which stays kpt's event lines
    expect(run.stdout).not.toContain('waiting for');
    expect(run.stdout).not.toContain('\u001b[');

    const never = await runCli(['apply', 'never-ready', '-n', ns, '--progress', 'never'], { cwd });
    expect(never.stderr).not.toContain('\u001b[');
  });

  it('SIGINT stops the run, saves the inventory and exits 130', async () => {
    const ns = await cluster.namespace('cli-sigint');
    const cwd = await packageIn('never-ready', ns);
    const deployment = path.join(cwd, 'never-ready/deployment.yaml');
    await writeFile(
      deployment,
      (await readFile(deployment, 'utf8')).replace(
        'progressDeadlineSeconds: 2',
        'progressDeadlineSeconds: 600',
      ),
    );
    let sent = false;
    const run = await runCli(['apply', 'never-ready', '-n', ns], {
      cwd,
      onStdout: (out, child) => {
        if (!sent && out.includes('deployment.apps/stuck reconcile pending')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(sent).toBe(true);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain(
      'kpt-live: SIGINT: stopping after the current step and saving the inventory',
    );
    expect(run.stderr).toContain('kpt-live: interrupted by SIGINT');
    expect(hasStackTrace(run.stderr)).toBe(false);
    const inv = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/inventory-never-ready`,
    );
    expect(inv.body.spec.resources.map((r: Obj) => `${r.kind}/${r.name}`).sort()).toEqual([
      'ConfigMap/settings',
      'Deployment/stuck',
    ]);
  });
});
