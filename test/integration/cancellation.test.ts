import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/common/kube-object.js';
import { ensureResourceGroupCrd } from '../../src/inventory/install-crd.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { actionEnv, cliEntry, distIndex } from '../support/front-ends.js';
import {
  configMap,
  controlPlane,
  deployment,
  inlinePackage,
  metadata,
  type Obj,
  useCluster,
} from '../support/harness/index.js';
import { runPkg } from '../support/run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const child = path.resolve(here, '../support/signal-child.ts');

/** How a CI runner cancels a job: SIGINT, SIGTERM ~7.5 s later, SIGKILL ~2.5 s after that. */
const TERM_AFTER_MS = 7500;
const KILL_AFTER_MS = 10_000;

interface CancelledRun {
  code: number | null;
  /** The signal that ended the process (SIGKILL when it ran past the budget). */
  killedBy: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  events: Obj[];
  sigintAt?: number;
  sigtermAt?: number;
  exitAt: number;
}

/** Spawns `argv`, sends SIGINT once `when` matches a stdout line, then SIGTERM and SIGKILL as a runner does. */
function runAndCancel(
  argv: string[],
  when: (line: string, event: Obj | undefined, seen: Obj[]) => boolean,
  env?: NodeJS.ProcessEnv,
): Promise<CancelledRun> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, argv, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: env ?? process.env,
    });
    const out: CancelledRun = { code: null, killedBy: null, stdout: '', stderr: '', events: [], exitAt: 0 };
    const timers: NodeJS.Timeout[] = [];
    let buf = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out.stdout += chunk.toString();
      buf += chunk.toString();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const text = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let event: Obj | undefined;
        try {
          event = JSON.parse(text) as Obj;
          out.events.push(event);
        } catch {
          event = undefined;
        }
        if (out.sigintAt === undefined && when(text, event, out.events)) {
          out.sigintAt = Date.now();
          proc.kill('SIGINT');
          timers.push(
            setTimeout(() => {
              out.sigtermAt = Date.now();
              proc.kill('SIGTERM');
            }, TERM_AFTER_MS),
            setTimeout(() => proc.kill('SIGKILL'), KILL_AFTER_MS),
          );
        }
      }
    });
    proc.stderr.on('data', (c: Buffer) => {
      out.stderr += c.toString();
    });
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      for (const t of timers) clearTimeout(t);
      out.code = code;
      out.killedBy = signal;
      out.exitAt = Date.now();
      resolve(out);
    });
  });
}

const owning = 'config.k8s.io/owning-inventory';
const cm = (name: string, dependsOn?: string) => configMap(name, { v: '1' }, { dependsOn });
const lease = (name: string, dependsOn: string): KubeObject => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: metadata(name, { dependsOn }),
  spec: { holderIdentity: 'nobody' },
});
/** Pods of this Deployment report Ready only after `delay`: its wait outlasts the cancellation budget. */
const slowDeployment = (dependsOn: string | undefined, delay: string) =>
  deployment('slow', {
    image: 'example/slow:1',
    dependsOn,
    podAnnotations: { 'sim.kpt-live-action.dev/delay': delay },
  });

describe('cancellation (SIGINT, then SIGTERM 7.5 s later)', () => {
  const cluster = useCluster({ namespace: false, connect: true });
  const { api } = cluster;
  let slowProxy: FaultProxy;
  beforeAll(async () => {
    await ensureResourceGroupCrd(cluster.conn.client, { install: true });
    // every request held back 250-600 ms: an apply wave is still in flight when the signal comes
    slowProxy = await startFaultProxy({
      target: controlPlane().server,
      seed: 7,
      rate: 1,
      kinds: ['slow'],
      slowMs: [250, 600],
    });
  });
  afterAll(async () => {
    await slowProxy.close();
  });

  /** Every object in `ns` that carries our owning-inventory annotation is listed in the ResourceGroup. */
  async function expectInventoryCoversOwned(ns: string, inv: { name: string; id: string }) {
    const rg = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${inv.name}`,
    );
    expect(rg.status).toBe(200);
    const listed = new Set((rg.body.spec?.resources ?? []).map((r: Obj) => `${r.kind}/${r.name}`));
    const owned: string[] = [];
    for (const [kind, p] of [
      ['ConfigMap', `/api/v1/namespaces/${ns}/configmaps`],
      ['Lease', `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`],
      ['Deployment', `/apis/apps/v1/namespaces/${ns}/deployments`],
    ]) {
      const list = await api.request<Obj>('GET', p);
      for (const o of list.body.items)
        if (o.metadata.annotations?.[owning] === inv.id) owned.push(`${kind}/${o.metadata.name}`);
    }
    for (const o of owned) expect(listed, o).toContain(o);
    return { listed, owned };
  }

  /** The cancelled run stopped in budget, said so, and exited non-zero; then a re-run converges. */
  async function expectCleanCancel(
    run: CancelledRun,
    ns: string,
    pkg: ReturnType<typeof inlinePackage>,
    exitCode = 1,
    said = /cancelled/,
  ) {
    expect(run.sigintAt, 'the trigger never came').toBeDefined();
    const tookMs = run.exitAt - run.sigintAt!;
    console.info(`SIGINT → exit ${tookMs} ms, code ${run.code}, killed by ${run.killedBy ?? 'nothing'}`);
    expect(run.killedBy, run.stderr).toBeNull();
    expect(run.sigtermAt, `still running ${TERM_AFTER_MS} ms after SIGINT`).toBeUndefined();
    expect(tookMs).toBeLessThan(TERM_AFTER_MS);
    expect(run.code).toBe(exitCode);
    expect(run.stderr + run.stdout).toMatch(said);
    expect(run.stderr + run.stdout).not.toMatch(/^\s+at /m);
    const partial = await expectInventoryCoversOwned(ns, pkg.inventory);
    const rerun = await runPkg(cluster.conn, pkg, 'apply', {}, ns);
    expect(rerun.result.error).toBeUndefined();
    expect(rerun.result.exitCode).toBe(0);
    const after = await expectInventoryCoversOwned(ns, pkg.inventory);
    return { partial, after };
  }

  it('mid-wave: finishes the requests in flight, starts no new ones, saves the inventory and exits 1', async () => {
    const ns = await cluster.namespace('cancelwave');
    const base = `/namespaces/${ns}/ConfigMap/base`;
    const files: Record<string, KubeObject> = {
      'base.yaml': cm('base'),
      'slow.yaml': slowDeployment(base, '15s'),
      'after.yaml': cm('after', `coordination.k8s.io/namespaces/${ns}/Lease/lease-11`),
    };
    for (let i = 0; i < 12; i++) files[`lease-${i}.yaml`] = lease(`lease-${i}`, base);
    const pkg = inlinePackage(ns, files);
    const kubeconfig = slowProxy.kubeconfig(controlPlane().adminToken, { namespace: ns });
    const run = await runAndCancel(
      ['--import', 'tsx', child, kubeconfig, pkg.repo, pkg.rel, ns],
      (_l, e) => e?.type === 'apply' && e.id?.name === 'lease-2',
    );
    const applies = run.events.filter((e) => e.type === 'apply');
    const skipped = applies.filter((e) => e.status === 'Skipped').map((e) => e.id.name);
    expect(skipped.length, JSON.stringify(applies)).toBeGreaterThan(0);
    for (const e of applies.filter((x) => x.status === 'Skipped'))
      expect(e.error).toBe('not started: the run was cancelled');
    // nothing of the next wave was started
    expect(applies.map((e) => e.id.name)).not.toContain('after');
    const { partial, after } = await expectCleanCancel(run, ns, pkg);
    expect(partial.owned).not.toContain('ConfigMap/after');
    expect(after.owned.length).toBe(15);
  });

  it('mid-wait: stops waiting at once, saves the inventory and exits 1', async () => {
    const ns = await cluster.namespace('cancelwait');
    const files = {
      'slow.yaml': slowDeployment(undefined, '12s'),
      'next.yaml': cm('next', `apps/namespaces/${ns}/Deployment/slow`),
    };
    const pkg = inlinePackage(ns, files);
    const run = await runAndCancel(
      ['--import', 'tsx', child, controlPlane().kubeconfigPath, pkg.repo, pkg.rel, ns],
      (_l, e) => e?.type === 'wait' && e.status === 'Pending' && e.id?.name === 'slow',
    );
    expect(run.events.filter((e) => e.type === 'apply').map((e) => e.id.name)).toEqual(['slow']);
    const { partial } = await expectCleanCancel(run, ns, pkg);
    expect(partial.listed).toContain('Deployment/slow');
  });

  it('the CLI (kpt-live apply) handles SIGINT the same way, exiting 130', async () => {
    const ns = await cluster.namespace('cancelcli');
    const base = `/namespaces/${ns}/ConfigMap/base`;
    const files: Record<string, KubeObject> = {
      'base.yaml': cm('base'),
      'slow.yaml': slowDeployment(base, '15s'),
    };
    for (let i = 0; i < 12; i++) files[`lease-${i}.yaml`] = lease(`lease-${i}`, base);
    const pkg = inlinePackage(ns, files);
    const kubeconfig = slowProxy.kubeconfig(controlPlane().adminToken, { namespace: ns });
    const run = await runAndCancel(
      [
        '--import',
        'tsx',
        cliEntry,
        'apply',
        path.join(pkg.repo, pkg.rel),
        '--kubeconfig',
        kubeconfig,
        '-n',
        ns,
      ],
      (l) => /lease\.coordination\.k8s\.io\/lease-2 apply/.test(l),
    );
    const { after } = await expectCleanCancel(run, ns, pkg, 130, /SIGINT: stopping/);
    expect(after.owned.length).toBe(14);
  });

  it('the bundled action (node dist/index.js) handles SIGINT the same way', async () => {
    const ns = await cluster.namespace('cancelaction');
    const base = `/namespaces/${ns}/ConfigMap/base`;
    const files: Record<string, KubeObject> = {
      'base.yaml': cm('base'),
      'slow.yaml': slowDeployment(base, '15s'),
    };
    for (let i = 0; i < 12; i++) files[`lease-${i}.yaml`] = lease(`lease-${i}`, base);
    const pkg = inlinePackage(ns, files);
    const env = actionEnv({
      workspace: pkg.repo,
      packages: pkg.rel,
      kubeconfig: fs.readFileSync(slowProxy.kubeconfig(controlPlane().adminToken, { namespace: ns }), 'utf8'),
      namespace: ns,
      inputs: { 'reconcile-timeout': '2m' },
    });
    const run = await runAndCancel(
      [distIndex],
      (l) => /lease\.coordination\.k8s\.io\/lease-2 apply/.test(l),
      env,
    );
    const annotations = run.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations.join('\n')).toMatch(/::warning::received SIGINT/);
    expect(annotations.join('\n')).toMatch(/::error[^:]*::.*cancelled/);
    const { after } = await expectCleanCancel(run, ns, pkg);
    expect(after.owned.length).toBe(14);
  });
});
