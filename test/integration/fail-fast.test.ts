import { describe, expect, it } from 'vitest';
import { createRestClient } from '../../scripts/control-plane/rest.js';
import type { RunEvent } from '../../src/apply/events.js';
import { defaultRunOptions } from '../../src/apply/run-options.js';
import { ensureResourceGroupCrd } from '../../src/inventory/install-crd.js';
import { runPackage } from '../../src/pipeline/run-package.js';
import {
  controlPlane,
  deployment,
  eventually,
  inlinePackage,
  type Obj,
  productClient,
  role,
  roleBinding,
  useCluster,
} from '../support/harness/index.js';
import { runPkg } from '../support/run.js';
import { runCli } from './cli-helpers.js';

/**
 * Fail-fast on the real server: the real Deployment controller rolls out, the kubelet simulator's pods
 * crash-loop with a growing restartCount (1 s back-off, so the third restart comes about 3 s after the pod
 * starts). The bounds on elapsed time only prove a run did not sit out its whole timeout; the order of
 * events and the messages are what is asserted.
 */
const app = (
  name: string,
  o: {
    behavior?: string;
    image?: string;
    replicas?: number;
    deadline?: number;
    failFast?: boolean;
    delay?: string;
  } = {},
) =>
  deployment(name, {
    annotations: o.failFast === false ? { 'kpt-live-action.dev/fail-fast': 'false' } : undefined,
    replicas: o.replicas ?? 2,
    image: o.image ?? 'example/app:1',
    containerName: 'app',
    podAnnotations: {
      'sim.kpt-live-action.dev/behavior': o.behavior ?? 'ready',
      'sim.kpt-live-action.dev/delay': o.delay ?? '0',
    },
    spec: {
      ...(o.deadline ? { progressDeadlineSeconds: o.deadline } : {}),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    },
  });

const five = (o: Parameters<typeof app>[1]) =>
  Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`web-${i}.yaml`, app(`web-${i}`, o)]));

const crashMessage =
  /^Failed: new pods fail: (\S+) container app CrashLoopBackOff \((\d+) restarts, last exit 1 Error\): back-off \d+s restarting failed container=app$/;

describe('fail-fast', () => {
  const cluster = useCluster({ namespace: false, connect: true });
  const { api } = cluster;

  /** The name of the Deployment's ReplicaSet of its current revision. */
  async function currentReplicaSet(ns: string, name: string): Promise<string> {
    const dep = (await api.request<Obj>('GET', `/apis/apps/v1/namespaces/${ns}/deployments/${name}`)).body;
    const revision = dep.metadata.annotations['deployment.kubernetes.io/revision'];
    const list = await api.request<Obj>(
      'GET',
      `/apis/apps/v1/namespaces/${ns}/replicasets?labelSelector=app%3D${name}`,
    );
    return list.body.items.find(
      (rs: Obj) => rs.metadata.annotations['deployment.kubernetes.io/revision'] === revision,
    ).metadata.name;
  }

  it("fails a 5-Deployment rollout whose new image crash-loops with each new pod's reason, long before the reconcile timeout", async () => {
    const ns = await cluster.namespace('ff-crash');
    const pkg = inlinePackage(ns, five({ image: 'example/app:1' }));
    expect((await runPkg(cluster.conn, pkg, 'apply', {}, ns)).result.exitCode).toBe(0);

    pkg.rewrite(five({ image: 'example/app:2', behavior: 'crashloop' }));
    const started = Date.now();
    const { result, events } = await runPkg(cluster.conn, pkg, 'apply', { reconcileTimeoutMs: 90_000 }, ns);
    const elapsed = Date.now() - started;
    expect(result.exitCode).toBe(3);
    const deployments = result.run!.objects.filter((o) => o.id.kind === 'Deployment');
    expect(deployments).toHaveLength(5);
    for (const d of deployments) {
      expect(d.reconcile, d.message).toBe('Failed');
      const m = crashMessage.exec(d.message ?? '');
      expect(m, d.message).not.toBeNull();
      expect(Number(m![2])).toBeGreaterThanOrEqual(3);
      // the pod named is one of the new ReplicaSet's, not of the old one (whose pods run)
      expect(m![1].startsWith(`${await currentReplicaSet(ns, d.id.name)}-`), m![1]).toBe(true);
    }
    // each was InProgress first (the rollout began), then Failed: no timeout was involved
    const statuses = events.flatMap((e) => (e.type === 'status' && e.id.name === 'web-0' ? [e.status] : []));
    expect(statuses.indexOf('InProgress')).toBeGreaterThanOrEqual(0);
    expect(statuses.at(-1)).toBe('Failed');
    expect(events.some((e) => e.type === 'wait' && e.status === 'Timeout')).toBe(false);
    expect(elapsed).toBeLessThan(60_000);
  });

  it('does not fail a Deployment that never becomes ready early: its pods show no fault, so the progress deadline decides', async () => {
    const ns = await cluster.namespace('ff-never');
    const pkg = inlinePackage(ns, {
      'stuck.yaml': app('stuck', { behavior: 'never-ready', deadline: 10 }),
    });
    const started = Date.now();
    const { result } = await runPkg(cluster.conn, pkg, 'apply', { reconcileTimeoutMs: 120_000 }, ns);
    const elapsed = Date.now() - started;
    expect(result.exitCode).toBe(3);
    expect(result.run!.objects[0]).toMatchObject({
      reconcile: 'Failed',
      message: 'Failed: Progress deadline exceeded',
    });
    expect(elapsed).toBeGreaterThanOrEqual(10_000);
  });

  it("does not count the old ReplicaSet's crash-looping pods: a rollout to a good image succeeds", async () => {
    const ns = await cluster.namespace('ff-oldrs');
    const pkg = inlinePackage(ns, { 'web.yaml': app('web', { behavior: 'crashloop' }) });
    expect((await runPkg(cluster.conn, pkg, 'apply', { wait: false }, ns)).result.exitCode).toBe(0);
    // the old pods crash-loop past the threshold before the new rollout starts
    await eventually(async () => {
      const pods = await api.request<Obj>('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=app%3Dweb`);
      const restarts = pods.body.items.map((p: Obj) => p.status.containerStatuses?.[0]?.restartCount ?? 0);
      return restarts.length === 2 && restarts.every((r: number) => r >= 3) ? true : undefined;
    });
    // the new pods turn Ready after 3 s; meanwhile (maxUnavailable 0) the old ones keep crash-looping
    pkg.rewrite({ 'web.yaml': app('web', { image: 'example/app:2', delay: '3s' }) });
    const { result, events } = await runPkg(cluster.conn, pkg, 'apply', { reconcileTimeoutMs: 60_000 }, ns);
    expect(result.exitCode, JSON.stringify(result.run?.objects)).toBe(0);
    expect(result.run!.objects[0]).toMatchObject({ reconcile: 'Successful' });
    const statuses = events.flatMap((e) => (e.type === 'status' ? [e.status] : []));
    expect(statuses).toContain('InProgress');
    expect(statuses).not.toContain('Failed');
  });

  it('leaves an object annotated kpt-live-action.dev/fail-fast: "false" to the timeout, and fails its neighbour', async () => {
    const ns = await cluster.namespace('ff-annot');
    const pkg = inlinePackage(ns, {
      'optout.yaml': app('optout', { behavior: 'crashloop', failFast: false }),
      'judged.yaml': app('judged', { behavior: 'crashloop' }),
    });
    const { result } = await runPkg(cluster.conn, pkg, 'apply', { reconcileTimeoutMs: 15_000 }, ns);
    expect(result.exitCode).toBe(3);
    const by = (n: string) => result.run!.objects.find((o) => o.id.name === n)!;
    expect(by('judged').message).toMatch(crashMessage);
    expect(by('optout').reconcile).toBe('Timeout');
    expect(by('optout').message).toMatch(/^timed out after 15\.0s waiting for Current: InProgress: /);
  });

  it('--no-fail-fast waits for the timeout as kpt does; without it the same package fails at once, naming the pod', async () => {
    const ns = await cluster.namespace('ff-cli');
    const pkg = inlinePackage(ns, { 'web.yaml': app('web', { behavior: 'crashloop' }) });
    const args = ['apply', 'pkg', '-n', ns, '--reconcile-timeout', '15s'];
    const kpt = await runCli([...args, '--no-fail-fast'], { cwd: pkg.repo });
    expect(kpt.code).toBe(3);
    expect(kpt.stdout).toContain('deployment.apps/web reconcile timeout\n');
    expect(kpt.stderr).toMatch(
      /deployment\.apps\/web \(pkg\/web\.yaml:1\) .*timed out after 15\.0s waiting for Current: InProgress: /,
    );
    expect(kpt.stderr).not.toContain('CrashLoopBackOff');

    const fast = await runCli(args, { cwd: pkg.repo });
    expect(fast.code).toBe(3);
    expect(fast.stdout).toContain('deployment.apps/web reconcile failed\n');
    expect(fast.stderr).toMatch(
      /deployment\.apps\/web \(pkg\/web\.yaml:1\) failed to reconcile: Failed: new pods fail: web-\S+ container app CrashLoopBackOff \(\d+ restarts, last exit 1 Error\)/,
    );
  });

  it("without permission to list pods: kpt's wait (the timeout) and one notice", async () => {
    const ns = await cluster.namespace('ff-rbac');
    const all = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
    const rules = [
      { apiGroups: ['apps'], resources: ['deployments'], verbs: all },
      { apiGroups: ['kpt.dev'], resources: ['resourcegroups', 'resourcegroups/status'], verbs: all },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: all },
      // the legacy ConfigMap inventory lookup and the deploy history; no pods, no ReplicaSets
      { apiGroups: [''], resources: ['configmaps'], verbs: all },
    ];
    await api.request(
      'POST',
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`,
      role('deployer', rules),
    );
    await api.request(
      'POST',
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
      roleBinding('deployer', 'deployer', { kind: 'User', name: controlPlane().restrictedUser }),
    );
    // a namespace-scoped user cannot install the ResourceGroup CRD: the admin does
    await ensureResourceGroupCrd(cluster.conn.client, { install: true });
    const asUser = createRestClient(controlPlane().server, controlPlane().restrictedToken);
    await eventually(async () =>
      (await asUser.request('GET', `/apis/apps/v1/namespaces/${ns}/deployments`)).status === 200
        ? true
        : undefined,
    );
    const restricted = await productClient(controlPlane().restrictedKubeconfigPath);
    try {
      const pkg = inlinePackage(ns, { 'web.yaml': app('web', { behavior: 'crashloop' }) });
      const lines: string[] = [];
      const events: RunEvent[] = [];
      const result = await runPackage(restricted.client, pkg.rel, 'apply', {
        repoRoot: pkg.repo,
        defaultNamespace: ns,
        options: defaultRunOptions({ reconcileTimeoutMs: 12_000 }),
        emit: (e) => events.push(e),
        onProgress: (line) => lines.push(line),
      });
      expect(result.error).toBeUndefined();
      expect(result.exitCode).toBe(3);
      expect(result.run!.objects[0]).toMatchObject({ reconcile: 'Timeout' });
      const notes = lines.filter((l) => l.startsWith('note: fail-fast'));
      expect(notes).toEqual([
        `note: fail-fast is off in namespace ${ns}: the credentials may not list and watch pods there, so rollouts there are waited for as kpt does (until Current, the progress deadline or the timeout)`,
      ]);
    } finally {
      restricted.client.close();
    }
  });
});
