import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  adminClient,
  configMap,
  deployment,
  type Obj,
  useCluster,
  yamlOf,
} from '../support/harness/index.js';
import { runCli } from './cli-helpers.js';

const api = adminClient();

/**
 * Packages `<prefix>1..3` in one work directory, all in namespace `ns`, each with its own inventory and a
 * ConfigMap; the first also has a Deployment whose Pod the kubelet simulator reports Ready only after
 * `delay`, so its apply waits that long.
 */
async function packages(ns: string, prefix: string, delay: string): Promise<string> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'kpt-live-cc-'));
  onTestFinished(() => rm(work, { recursive: true, force: true }));
  for (const i of [1, 2, 3]) {
    const name = `${prefix}${i}`;
    const dir = path.join(work, name);
    await mkdir(dir);
    await writeFile(
      path.join(dir, 'Kptfile'),
      `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n  annotations:\n    config.kubernetes.io/local-config: "true"\n`,
    );
    await writeFile(
      path.join(dir, 'resourcegroup.yaml'),
      `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: inventory-${name}\n  namespace: ${ns}\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${ns}-${name}\n`,
    );
    await writeFile(
      path.join(dir, 'configmap.yaml'),
      yamlOf(configMap(`cm-${name}`, { n: `${i}` }, { namespace: ns })),
    );
    if (i === 1) {
      const podAnnotations = { 'sim.kpt-live-action.dev/delay': delay };
      const slow = deployment(`slow-${name}`, { namespace: ns, image: 'example/web:1', podAnnotations });
      await writeFile(path.join(dir, 'deployment.yaml'), yamlOf(slow));
    }
  }
  return work;
}

/** Seconds between the creation of the first and the second package's ConfigMaps. */
async function secondsBetweenPackages(ns: string, prefix: string): Promise<number> {
  const created = async (name: string) => {
    const cm = await api.request<Obj>('GET', `/api/v1/namespaces/${ns}/configmaps/cm-${name}`);
    expect(cm.status).toBe(200);
    return Date.parse(cm.body.metadata.creationTimestamp) / 1000;
  };
  return (await created(`${prefix}2`)) - (await created(`${prefix}1`));
}

describe('kpt-live --package-concurrency', () => {
  const cluster = useCluster({ namespace: false });

  it('applies several DIRs at once, prints each package whole in the DIRs order; by default one after another', async () => {
    const ns = await cluster.namespace('cli-cc');
    const delay = '8s';

    const parallel = await packages(ns, 'par', delay);
    const run = await runCli(
      ['apply', 'par1', 'par2', 'par3', '--package-concurrency', '3', '--reconcile-timeout', '90s'],
      { cwd: parallel },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('kpt-live: applying 3 packages, up to 3 at once\n');
    const headers = [...run.stderr.matchAll(/kpt-live: applying (par\d) \((\d)\/3\)/g)].map((m) => m[1]);
    expect(headers).toEqual(['par1', 'par2', 'par3']);
    // each package's events together: the first package's last line comes before the second's first
    const results = [...run.stdout.matchAll(/^apply result: .*$/gm)];
    expect(results).toHaveLength(3);
    expect(run.stdout.indexOf('deployment.apps/slow-par1 reconcile successful')).toBeLessThan(
      run.stdout.indexOf('configmap/cm-par2 apply successful'),
    );
    // the second package did not wait for the first one's 8 s rollout
    expect(await secondsBetweenPackages(ns, 'par')).toBeLessThan(5);

    const sequential = await packages(ns, 'seq', delay);
    const inOrder = await runCli(['apply', 'seq1', 'seq2', 'seq3', '--reconcile-timeout', '90s'], {
      cwd: sequential,
    });
    expect(inOrder.code, inOrder.stderr).toBe(0);
    expect(inOrder.stderr).not.toContain('at once');
    expect(await secondsBetweenPackages(ns, 'seq')).toBeGreaterThanOrEqual(7);

    // a preview of several DIRs at once: the JSON array keeps the DIRs' order
    const preview = await runCli(
      ['preview', 'par3', 'par1', 'par2', '--package-concurrency', '3', '--output', 'json'],
      { cwd: parallel },
    );
    expect(preview.code, preview.stderr).toBe(0);
    const docs = JSON.parse(preview.stdout) as { package: string; summary: { unchanged: number } }[];
    expect(docs.map((d) => d.package)).toEqual(['par3', 'par1', 'par2']);
    expect(docs.map((d) => d.summary.unchanged)).toEqual([1, 2, 1]);
  }, 240_000);

  it('refuses a package concurrency that is not a whole number of at least 1 (usage, exit 2)', async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'kpt-live-cc-'));
    onTestFinished(() => rm(work, { recursive: true, force: true }));
    const run = await runCli(['apply', 'x', '--package-concurrency', '0'], { cwd: work });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"0" is not a whole number of at least 1');
  });
});
