import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/common/kube-object.js';
import {
  crd,
  customResource,
  deployment,
  eventually,
  inlinePackage,
  type Obj,
  uniqueName,
  useCluster,
} from '../support/harness/index.js';
import { runPkg } from '../support/run.js';

const app = (
  name: string,
  opts: {
    replicas?: number;
    behavior?: string;
    delay?: string;
    deadline?: number;
    image?: string;
    annotations?: Record<string, string>;
  } = {},
) =>
  deployment(name, {
    annotations: opts.annotations,
    replicas: opts.replicas,
    image: opts.image,
    podAnnotations: {
      'sim.kpt-live-action.dev/behavior': opts.behavior ?? 'ready',
      'sim.kpt-live-action.dev/delay': opts.delay ?? '0',
    },
    spec: opts.deadline ? { progressDeadlineSeconds: opts.deadline } : {},
  });

describe('reconcile status and waits', () => {
  const cluster = useCluster({ namespace: 'status', connect: true });
  const { api } = cluster;

  it('fails a Deployment that exceeds its progress deadline well before the reconcile timeout, naming it', async () => {
    const pkg = inlinePackage(cluster.ns, {
      'stuck.yaml': app('stuck', { behavior: 'never-ready', deadline: 10 }),
      'ok.yaml': app('fine'),
    });
    const started = Date.now();
    const { result } = await runPkg(cluster.conn, pkg, 'apply', { reconcileTimeoutMs: 120_000 }, cluster.ns);
    const elapsed = Date.now() - started;
    expect(result.exitCode).toBe(3);
    expect(result.outcome).toBe('failed');
    const stuck = result.run!.objects.find((o) => o.id.name === 'stuck')!;
    expect(stuck.reconcile).toBe('Failed');
    expect(stuck.message).toBe('Failed: Progress deadline exceeded');
    expect(result.run!.objects.find((o) => o.id.name === 'fine')!.reconcile).toBe('Successful');
    expect(elapsed).toBeLessThan(60_000);
  });

  it('does not call a changed Deployment reconciled before the new generation is observed and its new pods are ready', async () => {
    const pkg = inlinePackage(cluster.ns, { 'roll.yaml': app('roll', { replicas: 2 }) });
    expect((await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
    pkg.rewrite({ 'roll.yaml': app('roll', { replicas: 2, image: 'example/app:2', delay: '3s' }) });
    const started = Date.now();
    const { result, events } = await runPkg(
      cluster.conn,
      pkg,
      'apply',
      { reconcileTimeoutMs: 40_000 },
      cluster.ns,
    );
    expect(result.run?.objects, JSON.stringify(result.run?.objects)).toBeDefined();
    expect(result.exitCode, JSON.stringify(result.run?.objects)).toBe(0);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(3000); // the new pods only turn ready after 3 s
    const live = await api.request<Obj>('GET', `/apis/apps/v1/namespaces/${cluster.ns}/deployments/roll`);
    expect(live.body.status.observedGeneration).toBe(live.body.metadata.generation);
    expect(live.body.status.updatedReplicas).toBe(2);
    // statuses seen while waiting include a not-yet-current one
    const seen = events
      .filter((e) => e.type === 'status' && e.id.name === 'roll')
      .map((e) => (e.type === 'status' ? e.status : ''));
    expect(seen).toContain('InProgress');
    expect(seen.at(-1)).toBe('Current');
  });

  it('custom resources: Stalled fails, Ready succeeds, Reconciling times out (and only it)', async () => {
    const group = `${uniqueName('st')}.example.com`;
    const widgets = crd({ group, kind: 'Widget', status: true });
    const widget = (name: string) => customResource(`${group}/v1`, 'Widget', name, { size: 1 });
    // the test plays the controller: it writes each widget's status as soon as it exists
    const conditions: Record<string, Obj[]> = {
      stalled: [{ type: 'Stalled', status: 'True', reason: 'Broken', message: 'cannot reconcile' }],
      ready: [{ type: 'Ready', status: 'True', reason: 'Done', message: 'ok' }],
      slow: [{ type: 'Reconciling', status: 'True', reason: 'Working', message: 'still working' }],
    };
    let stop = false;
    const controller = (async () => {
      while (!stop) {
        for (const [name, conds] of Object.entries(conditions)) {
          const path = `/apis/${group}/v1/namespaces/${cluster.ns}/widgets/${name}`;
          const cur = await api.request<Obj>('GET', path).catch(() => undefined);
          if (cur?.status === 200 && !cur.body.status) {
            await api.request('PUT', `${path}/status`, { ...cur.body, status: { conditions: conds } });
          }
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const pkg = inlinePackage(cluster.ns, {
      'crd.yaml': widgets,
      'a.yaml': widget('stalled'),
      'b.yaml': widget('ready'),
      'c.yaml': widget('slow'),
    });
    const started = Date.now();
    // wait-for-controller: without it kstatus calls a CR with no status Current before our controller acts
    const { result } = await runPkg(
      cluster.conn,
      pkg,
      'apply',
      { reconcileTimeoutMs: 10_000, waitForControllerMs: 8_000 },
      cluster.ns,
    );
    const elapsed = Date.now() - started;
    stop = true;
    await controller;
    expect(result.error).toBeUndefined();
    expect(result.exitCode).toBe(3);
    const by = (n: string) => result.run!.objects.find((o) => o.id.name === n)!;
    expect(by('stalled').reconcile, JSON.stringify(result.run!.objects)).toBe('Failed');
    expect(by('stalled').message).toBe('Failed: cannot reconcile');
    expect(by('ready').reconcile).toBe('Successful');
    expect(by('slow').reconcile).toBe('Timeout');
    expect(result.run!.objects.filter((o) => o.reconcile === 'Timeout')).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(10_000);
    expect(elapsed).toBeLessThan(25_000);
  });

  it('wait-for-jobs waits for Complete and fails on Failed; disable-wait skips an object', async () => {
    const job = (name: string, behavior: string): KubeObject => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name },
      spec: {
        backoffLimit: 0,
        template: {
          metadata: {
            annotations: {
              'sim.kpt-live-action.dev/behavior': behavior,
              'sim.kpt-live-action.dev/delay': '1s',
            },
          },
          spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'example/job:1' }] },
        },
      },
    });
    const ok = inlinePackage(cluster.ns, { 'job.yaml': job('migrate-ok', 'succeed') });
    const good = await runPkg(cluster.conn, ok, 'apply', { waitForJobs: true }, cluster.ns);
    expect(good.result.exitCode).toBe(0);
    const live = await api.request<Obj>('GET', `/apis/batch/v1/namespaces/${cluster.ns}/jobs/migrate-ok`);
    expect(live.body.status.succeeded).toBe(1);
    expect(good.result.run!.objects[0].message).toMatch(/^Job Completed/);

    const bad = inlinePackage(cluster.ns, { 'job.yaml': job('migrate-bad', 'fail') });
    const failed = await runPkg(cluster.conn, bad, 'apply', { waitForJobs: true }, cluster.ns);
    expect(failed.result.exitCode).toBe(3);
    expect(failed.result.run!.objects[0].reconcile).toBe('Failed');

    const skip = inlinePackage(cluster.ns, {
      'never.yaml': app('never', {
        behavior: 'never-ready',
        annotations: { 'kapp.k14s.io/disable-wait': '' },
      }),
    });
    const skipped = await runPkg(cluster.conn, skip, 'apply', { reconcileTimeoutMs: 5_000 }, cluster.ns);
    expect(skipped.result.exitCode).toBe(0);
    expect(skipped.result.run!.objects[0].reconcile).toBe('Skipped');
  });

  it('wait-for-controller holds a new custom resource without status until its controller writes one', async () => {
    const group = `${uniqueName('wc')}.example.com`;
    const pkg = inlinePackage(cluster.ns, {
      'crd.yaml': crd({ group, kind: 'Gadget', status: true }),
      'g.yaml': customResource(`${group}/v1`, 'Gadget', 'g', {}),
    });
    const path = `/apis/${group}/v1/namespaces/${cluster.ns}/gadgets/g`;
    // the "controller" writes a Ready status 3 s after the gadget appears
    const controller = eventually(
      async () => ((await api.request('GET', path)).status === 200 ? true : undefined),
      60_000,
    ).then(async () => {
      await new Promise((r) => setTimeout(r, 3000));
      const cur = await api.request<Obj>('GET', path);
      await api.request('PUT', `${path}/status`, {
        ...cur.body,
        status: { conditions: [{ type: 'Ready', status: 'True' }] },
      });
      return Date.now();
    });
    const { result } = await runPkg(cluster.conn, pkg, 'apply', { waitForControllerMs: 30_000 }, cluster.ns);
    const statusWrittenAt = await controller;
    expect(result.exitCode).toBe(0);
    const g = result.run!.objects.find((o) => o.id.name === 'g')!;
    expect(g.message).toBe('Resource is Ready');
    expect(result.run!.durationMs + 0).toBeGreaterThan(3000);
    expect(Date.now()).toBeGreaterThanOrEqual(statusWrittenAt);
  });
});
