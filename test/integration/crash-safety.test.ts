import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/common/kube-object.js';
import { configMap, controlPlane, inlinePackage, type Obj, useCluster } from '../support/harness/index.js';
import { runPkg } from '../support/run.js';

const child = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../support/apply-child.ts');

/** Runs the apply in a child process and SIGKILLs it once `killWhen` matches an event. */
function applyAndKill(
  pkg: { repo: string; rel: string },
  ns: string,
  killWhen: (e: Obj, seen: Obj[]) => boolean,
) {
  return new Promise<{ killed: boolean; seen: Obj[] }>((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', child, controlPlane().kubeconfigPath, pkg.repo, pkg.rel, ns],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const seen: Obj[] = [];
    let buf = '';
    let killed = false;
    proc.stdout.on('data', (chunk: Buffer) => {
      buf += chunk.toString();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const e = JSON.parse(buf.slice(0, nl)) as Obj;
        buf = buf.slice(nl + 1);
        seen.push(e);
        if (!killed && killWhen(e, seen)) {
          killed = true;
          proc.kill('SIGKILL');
        }
      }
    });
    proc.on('error', reject);
    proc.on('exit', () => resolve({ killed, seen }));
  });
}

const cm = (name: string, dependsOn?: string) => configMap(name, { v: '1' }, { dependsOn });

describe('crash safety (SIGKILL mid-run)', () => {
  const cluster = useCluster({ namespace: false, connect: true });
  const { api } = cluster;

  /** Every object carrying our owning-inventory annotation is listed in the ResourceGroup. */
  async function assertInventoryCoversOwned(ns: string, inv: { name: string; id: string }) {
    const rg = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${inv.name}`,
    );
    const listed = new Set((rg.body.spec?.resources ?? []).map((r: Obj) => `${r.kind}/${r.name}`));
    const cms = await api.request<Obj>('GET', `/api/v1/namespaces/${ns}/configmaps`);
    const owned = cms.body.items.filter(
      (c: Obj) => c.metadata.annotations?.['config.k8s.io/owning-inventory'] === inv.id,
    );
    for (const c of owned) expect(listed.has(`ConfigMap/${c.metadata.name}`)).toBe(true);
    return { listed, owned: owned.map((c: Obj) => c.metadata.name as string) };
  }

  it('after a kill part-way through wave 2, a re-run leaves the cluster equal to the package and the inventory complete', async () => {
    const ns = await cluster.namespace('crash');
    await api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'not-ours' },
    });
    const files: Record<string, KubeObject> = { 'base.yaml': cm('base') };
    for (let i = 0; i < 12; i++) files[`w2-${i}.yaml`] = cm(`w2-${i}`, `/namespaces/${ns}/ConfigMap/base`);
    const pkg = inlinePackage(ns, files);

    const run = await applyAndKill(
      pkg,
      ns,
      (e) => e.type === 'apply' && e.group === 'apply-1' && e.id.name === 'w2-4',
    );
    expect(run.killed).toBe(true);
    const partial = await assertInventoryCoversOwned(ns, pkg.inventory);
    expect(partial.owned.length).toBeGreaterThanOrEqual(6);
    expect(partial.listed.size).toBe(13); // the union was written before the first create

    const rerun = await runPkg(cluster.conn, pkg, 'apply', {}, ns);
    expect(rerun.result.exitCode).toBe(0);
    const after = await assertInventoryCoversOwned(ns, pkg.inventory);
    expect(after.owned.sort()).toEqual(['base', ...Array.from({ length: 12 }, (_, i) => `w2-${i}`)].sort());
    expect((await api.request('GET', `/api/v1/namespaces/${ns}/configmaps/not-ours`)).status).toBe(200);
  });

  it('after a kill right after the first prune DELETE, a re-run finishes the prune and deletes nothing else', async () => {
    const ns = await cluster.namespace('crashprune');
    await api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'not-ours' },
    });
    const files: Record<string, KubeObject> = {};
    for (let i = 0; i < 8; i++) files[`cm-${i}.yaml`] = cm(`cm-${i}`);
    const pkg = inlinePackage(ns, files);
    expect((await runPkg(cluster.conn, pkg, 'apply', {}, ns)).result.exitCode).toBe(0);
    pkg.rewrite({ 'cm-0.yaml': cm('cm-0'), 'cm-1.yaml': cm('cm-1') });

    const run = await applyAndKill(pkg, ns, (e) => e.type === 'prune');
    expect(run.killed).toBe(true);
    await assertInventoryCoversOwned(ns, pkg.inventory);

    const rerun = await runPkg(cluster.conn, pkg, 'apply', {}, ns);
    expect(rerun.result.exitCode).toBe(0);
    const after = await assertInventoryCoversOwned(ns, pkg.inventory);
    expect(after.owned.sort()).toEqual(['cm-0', 'cm-1']);
    expect([...after.listed].sort()).toEqual(['ConfigMap/cm-0', 'ConfigMap/cm-1']);
    expect((await api.request('GET', `/api/v1/namespaces/${ns}/configmaps/not-ours`)).status).toBe(200);
  });
});
