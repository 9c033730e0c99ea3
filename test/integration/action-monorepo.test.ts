import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHubServer, startGitHubServer } from '../support/github-server.js';
import { configMap, controlPlane, uniqueName, useCluster, yamlOf } from '../support/harness/index.js';
import { runAction } from '../support/run-action.js';

/**
 * Monorepo scale: many packages in one action run (dist/index.js as a runner runs it). Previews
 * run several packages at once and keep each package's log lines together; `package-concurrency` lets
 * independent packages apply at once; the PR comments of many packages go out at once, and GitHub's
 * secondary rate limit is waited out (the local GitHub server answers 403 with retry-after).
 */
describe('many packages in one action run', () => {
  const cluster = useCluster({ namespace: 'monorepo' });
  const { api } = cluster;
  const packages = Array.from({ length: 6 }, (_, i) => `deploy/pkg-${i}`);
  const perPackage = 5;
  let workspace: string;
  let kubeconfig: string;
  let gh: GitHubServer;

  beforeAll(async () => {
    kubeconfig = fs.readFileSync(controlPlane().kubeconfigPath, 'utf8');
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-monorepo-'));
    for (const [i, pkg] of packages.entries()) {
      const dir = path.join(workspace, pkg);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, 'Kptfile'),
        `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg-${i}\n`,
      );
      const inv = uniqueName(`pkg-${i}`);
      fs.writeFileSync(
        path.join(dir, 'resourcegroup.yaml'),
        `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: ${inv}\n  namespace: ${cluster.ns}\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${inv}-id\n`,
      );
      fs.writeFileSync(
        path.join(dir, 'configmaps.yaml'),
        yamlOf(...Array.from({ length: perPackage }, (_, j) => configMap(`p${i}-cm-${j}`, { k: `${j}` }))),
      );
    }
    gh = await startGitHubServer({
      owner: 'acme',
      repo: 'platform',
      pulls: { 9: { files: [] } },
      secondaryRateLimit: { writes: 2, retryAfterSeconds: 1 },
    });
  });
  afterAll(async () => {
    await gh?.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  const dispatch = (inputs: Record<string, string>) =>
    runAction({
      event: 'workflow_dispatch',
      payload: {},
      inputs: {
        kubeconfig,
        namespace: cluster.ns,
        packages: packages.join('\n'),
        comment: 'false',
        ...inputs,
      },
      workspace,
      apiUrl: gh.url,
      sha: '1'.repeat(40),
      ref: 'refs/heads/main',
    });

  /**
   * Each package's lines stay together: its `::group::` (apply events) or its preview text (printed after
   * the group, up to the next package's group) names only its own objects.
   */
  function expectGroupsApart(stdout: string, mode: string) {
    for (const [i, pkg] of packages.entries()) {
      const start =
        mode === 'preview'
          ? stdout.indexOf(`Preview of ${pkg} `)
          : stdout.indexOf(`::group::${mode} ${pkg}\n`);
      expect(start, `${pkg}'s lines`).toBeGreaterThanOrEqual(0);
      const end = stdout.indexOf(mode === 'preview' ? '::group::' : '::endgroup::', start);
      const body = stdout.slice(start, end < 0 ? undefined : end);
      expect(body).toContain(`p${i}-cm-0`);
      expect(body.match(/p(\d+)-cm-/g)?.every((m) => m === `p${i}-cm-`)).toBe(true);
    }
  }

  it('previews many packages at once, then applies them package-concurrency at a time', async () => {
    const preview = await dispatch({ mode: 'preview' });
    expect(preview.code, preview.stdout).toBe(0);
    expect(preview.stdout).toContain('preview: 6 packages, up to 6 at once');
    expectGroupsApart(preview.stdout, 'preview');
    expect(JSON.parse(preview.outputs.packages)).toEqual(packages);
    // the results in the packages' order, whichever finished first
    expect(
      (JSON.parse(preview.outputs.result) as { packages: { path: string }[] }).packages.map((p) => p.path),
    ).toEqual(packages);

    const apply = await dispatch({ mode: 'apply', 'package-concurrency': '3' });
    expect(apply.code, apply.stdout).toBe(0);
    expect(apply.stdout).toContain('apply: 6 packages, up to 3 at once');
    expectGroupsApart(apply.stdout, 'apply');
    expect(apply.outputs.created).toBe(String(packages.length * perPackage));
    const live = await api.request<{ items: { metadata: { name: string } }[] }>(
      'GET',
      `/api/v1/namespaces/${cluster.ns}/configmaps`,
    );
    expect(live.body.items.filter((c) => /^p\d-cm-/.test(c.metadata.name))).toHaveLength(30);

    // one after another by default: no "at once" line
    const again = await dispatch({ mode: 'apply' });
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).not.toContain('at once');
    expect(again.outputs.unchanged).toBe('30');
  });

  it("posts every package's PR comment, one write at a time, waiting out GitHub's secondary rate limit", async () => {
    const run = await runAction({
      event: 'pull_request',
      payload: {
        number: 9,
        pull_request: {
          number: 9,
          base: { sha: '1'.repeat(40), ref: 'main', repo: { full_name: 'acme/platform' } },
          head: { sha: '2'.repeat(40), ref: 'feature', repo: { full_name: 'acme/platform' } },
        },
        repository: { full_name: 'acme/platform', default_branch: 'main' },
      },
      inputs: {
        kubeconfig,
        namespace: cluster.ns,
        packages: packages.join('\n'),
        comment: 'always',
        'github-token': gh.writeToken,
      },
      workspace,
      apiUrl: gh.url,
      sha: '2'.repeat(40),
      ref: 'refs/pull/9/merge',
    });
    expect(run.code, run.stdout).toBe(0);
    expect(gh.state.comments.get(9)).toHaveLength(packages.length);
    expect(gh.requests.some((q) => q.status === 403)).toBe(true);
    expect(run.stdout).toContain('GitHub secondary rate limit: waiting 1 s before retrying');
    expect(run.stdout).not.toMatch(/could not write the PR comment/);
  });
});
