import { describe, expect, it } from 'vitest';
import { defaultRunOptions } from '../../src/apply/run-options.js';
import type { KubeObject } from '../../src/common/kube-object.js';
import { readHistory } from '../../src/inventory/deploy-history.js';
import { runPackage } from '../../src/pipeline/run-package.js';
import { git as gitIn } from '../support/git-repo.js';
import {
  configMap,
  deployment,
  inlinePackage,
  metadata,
  type Obj,
  useCluster,
} from '../support/harness/index.js';
import { actions, runPkg } from '../support/run.js';

const strategyOf = (strategy?: string): Record<string, string> =>
  strategy ? { 'kapp.k14s.io/update-strategy': strategy } : {};
/** A Service without selector at a fixed clusterIP (immutable: changing it needs a replace). */
const service = (clusterIP: string, strategy?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: metadata('db', { annotations: strategyOf(strategy) }),
  // protocol spelled out: server-side apply on 1.20 rejects a port without it
  spec: { clusterIP, ports: [{ port: 5432, protocol: 'TCP' }] },
});
/** A Job (its template is immutable: changing the image needs a replace). */
const job = (image: string, strategy?: string): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: metadata('migrate', { annotations: strategyOf(strategy) }),
  spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'migrate', image }] } } },
});
const cm = (name: string, value: string, annotations: Record<string, string> = {}) =>
  configMap(name, { v: value }, { annotations });

describe('kapp-style controls', () => {
  const cluster = useCluster({ namespace: 'kapp', connect: true });
  const { api } = cluster;
  const get = (path: string) => api.request<Obj>('GET', `/api/v1/namespaces/${cluster.ns}/${path}`);

  it('fails clearly on an immutable field change without fallback-on-replace, and replaces with it', async () => {
    const pkg = inlinePackage(cluster.ns, {
      'svc.yaml': service('10.96.0.201'),
      'job.yaml': job('example/migrate:1'),
    });
    expect((await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
    const svcUid = (await get('services/db')).body.metadata.uid;

    pkg.rewrite({ 'svc.yaml': service('10.96.0.202'), 'job.yaml': job('example/migrate:2') });
    const preview = (await runPkg(cluster.conn, pkg, 'preview', {}, cluster.ns)).result.preview!;
    expect(preview.objects.map((o) => o.action).sort()).toEqual(['error', 'error']);
    expect(
      preview.objects.find((o) => o.id.kind === 'Service')!.reason,
      JSON.stringify(preview.objects),
    ).toMatch(/immutable.*fallback-on-replace/);
    const refused = await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns);
    expect(refused.result.exitCode).toBe(1);
    expect(refused.result.error).toMatch(
      /spec.clusterIPs?\[?0?\]?: Invalid value.*may not change once set.*fallback-on-replace/s,
    );
    expect((await get('services/db')).body.spec.clusterIP).toBe('10.96.0.201');

    pkg.rewrite({
      'svc.yaml': service('10.96.0.202', 'fallback-on-replace'),
      'job.yaml': job('example/migrate:2', 'fallback-on-replace'),
    });
    const replacePreview = (await runPkg(cluster.conn, pkg, 'preview', {}, cluster.ns)).result.preview!;
    const svcPreview = replacePreview.objects.find((o) => o.id.kind === 'Service')!;
    expect(svcPreview.action).toBe('replace');
    expect(svcPreview.reason).toMatch(/^replace \(immutable field spec\.clusterIP/);
    expect(replacePreview.summary.replace).toBe(2);
    const replaced = await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns);
    expect(replaced.result.error).toBeUndefined();
    expect(replaced.result.exitCode).toBe(0);
    expect(replaced.events.filter((e) => e.type === 'apply' && e.operation === 'replaced')).toHaveLength(2);
    const svc = (await get('services/db')).body;
    expect(svc.spec.clusterIP).toBe('10.96.0.202');
    expect(svc.metadata.uid).not.toBe(svcUid);
    const migrate = await api.request<Obj>('GET', `/apis/batch/v1/namespaces/${cluster.ns}/jobs/migrate`);
    expect(migrate.body.spec.template.spec.containers[0].image).toBe('example/migrate:2');
  });

  it('always-replace gives the object a new UID on every apply; skip leaves a changed live field alone', async () => {
    const pkg = inlinePackage(cluster.ns, {
      'a.yaml': cm('always', '1', { 'kapp.k14s.io/update-strategy': 'always-replace' }),
      's.yaml': cm('skipped', '1', { 'kapp.k14s.io/update-strategy': 'skip' }),
    });
    expect((await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
    const uids = [(await get('configmaps/always')).body.metadata.uid];
    for (let i = 0; i < 2; i++) {
      expect((await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
      uids.push((await get('configmaps/always')).body.metadata.uid);
    }
    expect(new Set(uids).size).toBe(3);

    pkg.rewrite({
      'a.yaml': cm('always', '1', { 'kapp.k14s.io/update-strategy': 'always-replace' }),
      's.yaml': cm('skipped', '2', { 'kapp.k14s.io/update-strategy': 'skip' }),
    });
    const preview = (await runPkg(cluster.conn, pkg, 'preview', {}, cluster.ns)).result.preview!;
    expect(preview.objects.find((o) => o.id.name === 'skipped')!.action).toBe('skip');
    expect(preview.objects.find((o) => o.id.name === 'always')!.action).toBe('replace');
    const run = await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns);
    expect(run.result.exitCode).toBe(0);
    expect((await get('configmaps/skipped')).body.data.v).toBe('1');
  });

  it('an orphan (delete-strategy) object survives prune and leaves the inventory', async () => {
    const pkg = inlinePackage(cluster.ns, {
      'o.yaml': cm('orphan-me', '1', { 'kapp.k14s.io/delete-strategy': 'orphan' }),
      'k.yaml': cm('keep', '1'),
    });
    expect((await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
    pkg.rewrite({ 'k.yaml': cm('keep', '1') });
    const preview = (await runPkg(cluster.conn, pkg, 'preview', {}, cluster.ns)).result.preview!;
    expect(preview.objects.find((o) => o.id.name === 'orphan-me')!.action).toBe('orphan');
    const run = await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns);
    expect(actions(run.events)).toContain('prune ConfigMap/orphan-me Skipped');
    const live = (await get('configmaps/orphan-me')).body;
    expect(live.metadata.annotations['config.k8s.io/owning-inventory']).toBeUndefined();
    const rg = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${cluster.ns}/resourcegroups/${pkg.inventory.name}`,
    );
    expect(rg.body.spec.resources.map((r: Obj) => r.name)).toEqual(['keep']);
  });

  it('exit-early stops after the first failed wave; the default applies independent waves and reports all', async () => {
    const files = {
      'bad.yaml': deployment('early-bad', {
        podAnnotations: { 'sim.kpt-live-action.dev/behavior': 'never-ready' },
        spec: { progressDeadlineSeconds: 2 },
      }),
      'later.yaml': cm('early-later', '1', {
        'config.kubernetes.io/depends-on': `/namespaces/${cluster.ns}/ConfigMap/early-first`,
      }),
      'first.yaml': cm('early-first', '1'),
    };
    const stop = inlinePackage(cluster.ns, files);
    const early = await runPkg(cluster.conn, stop, 'apply', { exitEarly: true }, cluster.ns);
    expect(early.result.exitCode).toBe(3);
    expect((await get('configmaps/early-later')).status).toBe(404);
    const go = await runPkg(cluster.conn, stop, 'apply', { exitEarly: false }, cluster.ns);
    expect(go.result.exitCode).toBe(3);
    expect((await get('configmaps/early-later')).status).toBe(200);
  });

  it('records deploy history (bounded) and refuses an older commit after a newer one was applied', async () => {
    const pkg = inlinePackage(cluster.ns, { 'h.yaml': cm('hist', '1') });
    const g = (...args: string[]) => gitIn(pkg.repo, ...args);
    g('init', '-q');
    g('add', '-A');
    g('commit', '-q', '-m', 'one');
    const older = g('rev-parse', 'HEAD');
    const commits = [older];
    for (let i = 2; i <= 4; i++) {
      pkg.rewrite({ 'h.yaml': cm('hist', String(i)) });
      g('commit', '-q', '-am', `v${i}`);
      commits.push(g('rev-parse', 'HEAD'));
    }
    const apply = (commit: string, allowStale = false) =>
      runPackage(cluster.conn.client, pkg.rel, 'apply', {
        repoRoot: pkg.repo,
        defaultNamespace: cluster.ns,
        options: defaultRunOptions(),
        history: { commit, trigger: 'test@host', keep: 3, allowStale },
      });
    for (const c of commits) expect((await apply(c, true)).exitCode).toBe(0);
    const history = await readHistory(cluster.conn.client, pkg.inventory);
    expect(history).toHaveLength(3);
    expect(history[0].commit).toBe(commits[3]);
    expect(history[0]).toMatchObject({
      package: 'pkg',
      mode: 'apply',
      result: 'success',
      trigger: 'test@host',
    });

    const versionOf = async () =>
      ((await get('configmaps/hist')).body as { metadata: { resourceVersion: string } }).metadata
        .resourceVersion;
    const before = await versionOf();
    const stale = await apply(older);
    expect(stale.exitCode).toBe(1);
    expect(stale.error).toMatch(
      new RegExp(`commit ${older.slice(0, 12)} is older than ${commits[3].slice(0, 12)}.*allow-stale`),
    );
    // refused before the first write: the object, the history and the lock are as they were
    expect(await versionOf()).toBe(before);
    expect((await readHistory(cluster.conn.client, pkg.inventory))[0].commit).toBe(commits[3]);
    expect((await apply(commits[3])).exitCode).toBe(0);
    expect((await apply(older, true)).exitCode).toBe(0);
  });
});
