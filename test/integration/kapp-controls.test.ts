import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRunOptions } from '../../src/apply/run-options.js';
import { readHistory } from '../../src/inventory/deploy-history.js';
import type { Connection } from '../../src/kube/connect.js';
import { runPackage } from '../../src/pipeline/run-package.js';
import { adminClient, createNamespace } from '../support/cluster.js';
import { productClient } from '../support/engine.js';
import { git as gitIn } from '../support/git-repo.js';
import { inlinePackage } from '../support/packages.js';
import { actions, runPkg } from '../support/run.js';

// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from the API server
type Obj = Record<string, any>;

const service = (clusterIP: string, strategy?: string) => `apiVersion: v1
kind: Service
metadata:
  name: db
${strategy ? `  annotations: {kapp.k14s.io/update-strategy: ${strategy}}\n` : ''}spec:
  clusterIP: ${clusterIP}
  ports: [{port: 5432, protocol: TCP}]  # protocol spelled out: this also runs on Kubernetes 1.20, whose server-side apply rejects a port without it
`;
const job = (image: string, strategy?: string) => `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
${strategy ? `  annotations: {kapp.k14s.io/update-strategy: ${strategy}}\n` : ''}spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: migrate, image: "${image}"}]
`;
const cm = (name: string, value: string, annotations = '{}') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  annotations: ${annotations}\ndata: {v: "${value}"}\n`;

describe('kapp-style controls', () => {
  let conn: Connection;
  const api = adminClient();
  let ns: string;
  beforeAll(async () => {
    conn = await productClient();
    ns = await createNamespace(api, 'kapp');
  });
  afterAll(() => conn.client.close());
  const get = (path: string) => api.request<Obj>('GET', `/api/v1/namespaces/${ns}/${path}`);

  it('fails clearly on an immutable field change without fallback-on-replace, and replaces with it', async () => {
    const pkg = inlinePackage(ns, {
      'svc.yaml': service('10.96.0.201'),
      'job.yaml': job('example/migrate:1'),
    });
    expect((await runPkg(conn, pkg, 'apply', {}, ns)).result.exitCode).toBe(0);
    const svcUid = (await get('services/db')).body.metadata.uid;

    pkg.rewrite({ 'svc.yaml': service('10.96.0.202'), 'job.yaml': job('example/migrate:2') });
    const preview = (await runPkg(conn, pkg, 'preview', {}, ns)).result.preview!;
    expect(preview.objects.map((o) => o.action).sort()).toEqual(['error', 'error']);
    expect(
      preview.objects.find((o) => o.id.kind === 'Service')!.reason,
      JSON.stringify(preview.objects),
    ).toMatch(/immutable.*fallback-on-replace/);
    const refused = await runPkg(conn, pkg, 'apply', {}, ns);
    expect(refused.result.exitCode).toBe(1);
    expect(refused.result.error).toMatch(
      /spec.clusterIPs?\[?0?\]?: Invalid value.*may not change once set.*fallback-on-replace/s,
    );
    expect((await get('services/db')).body.spec.clusterIP).toBe('10.96.0.201');

    pkg.rewrite({
      'svc.yaml': service('10.96.0.202', 'fallback-on-replace'),
      'job.yaml': job('example/migrate:2', 'fallback-on-replace'),
    });
    const replacePreview = (await runPkg(conn, pkg, 'preview', {}, ns)).result.preview!;
    const svcPreview = replacePreview.objects.find((o) => o.id.kind === 'Service')!;
    expect(svcPreview.action).toBe('replace');
    expect(svcPreview.reason).toMatch(/^replace \(immutable field spec\.clusterIP/);
    expect(replacePreview.summary.replace).toBe(2);
    const replaced = await runPkg(conn, pkg, 'apply', {}, ns);
    expect(replaced.result.error).toBeUndefined();
    expect(replaced.result.exitCode).toBe(0);
    expect(replaced.events.filter((e) => e.type === 'apply' && e.operation === 'replaced')).toHaveLength(2);
    const svc = (await get('services/db')).body;
    expect(svc.spec.clusterIP).toBe('10.96.0.202');
    expect(svc.metadata.uid).not.toBe(svcUid);
    const migrate = await api.request<Obj>('GET', `/apis/batch/v1/namespaces/${ns}/jobs/migrate`);
    expect(migrate.body.spec.template.spec.containers[0].image).toBe('example/migrate:2');
  });

  it('always-replace gives the object a new UID on every apply; skip leaves a changed live field alone', async () => {
    const pkg = inlinePackage(ns, {
      'a.yaml': cm('always', '1', '{kapp.k14s.io/update-strategy: always-replace}'),
      's.yaml': cm('skipped', '1', '{kapp.k14s.io/update-strategy: skip}'),
    });
    expect((await runPkg(conn, pkg, 'apply', {}, ns)).result.exitCode).toBe(0);
    const uids = [(await get('configmaps/always')).body.metadata.uid];
    for (let i = 0; i < 2; i++) {
      expect((await runPkg(conn, pkg, 'apply', {}, ns)).result.exitCode).toBe(0);
      uids.push((await get('configmaps/always')).body.metadata.uid);
    }
    expect(new Set(uids).size).toBe(3);

    pkg.rewrite({
      'a.yaml': cm('always', '1', '{kapp.k14s.io/update-strategy: always-replace}'),
      's.yaml': cm('skipped', '2', '{kapp.k14s.io/update-strategy: skip}'),
    });
    const preview = (await runPkg(conn, pkg, 'preview', {}, ns)).result.preview!;
    expect(preview.objects.find((o) => o.id.name === 'skipped')!.action).toBe('skip');
    expect(preview.objects.find((o) => o.id.name === 'always')!.action).toBe('replace');
    const run = await runPkg(conn, pkg, 'apply', {}, ns);
    expect(run.result.exitCode).toBe(0);
    expect((await get('configmaps/skipped')).body.data.v).toBe('1');
  });

  it('an orphan (delete-strategy) object survives prune and leaves the inventory', async () => {
    const pkg = inlinePackage(ns, {
      'o.yaml': cm('orphan-me', '1', '{kapp.k14s.io/delete-strategy: orphan}'),
      'k.yaml': cm('keep', '1'),
    });
    expect((await runPkg(conn, pkg, 'apply', {}, ns)).result.exitCode).toBe(0);
    pkg.rewrite({ 'k.yaml': cm('keep', '1') });
    const preview = (await runPkg(conn, pkg, 'preview', {}, ns)).result.preview!;
    expect(preview.objects.find((o) => o.id.name === 'orphan-me')!.action).toBe('orphan');
    const run = await runPkg(conn, pkg, 'apply', {}, ns);
    expect(actions(run.events)).toContain('prune ConfigMap/orphan-me Skipped');
    const live = (await get('configmaps/orphan-me')).body;
    expect(live.metadata.annotations['config.k8s.io/owning-inventory']).toBeUndefined();
    const rg = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${pkg.inventory.name}`,
    );
    expect(rg.body.spec.resources.map((r: Obj) => r.name)).toEqual(['keep']);
  });

  it('exit-early stops after the first failed wave; the default applies independent waves and reports all', async () => {
    const files = {
      'bad.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: early-bad}
spec:
  progressDeadlineSeconds: 2
  selector: {matchLabels: {app: early-bad}}
  template:
    metadata: {labels: {app: early-bad}, annotations: {sim.kpt-live-action.dev/behavior: never-ready}}
    spec: {containers: [{name: x, image: x}]}
`,
      'later.yaml': cm(
        'early-later',
        '1',
        `{config.kubernetes.io/depends-on: /namespaces/${ns}/ConfigMap/early-first}`,
      ),
      'first.yaml': cm('early-first', '1'),
    };
    const stop = inlinePackage(ns, files);
    const early = await runPkg(conn, stop, 'apply', { exitEarly: true }, ns);
    expect(early.result.exitCode).toBe(3);
    expect((await get('configmaps/early-later')).status).toBe(404);
    const go = await runPkg(conn, stop, 'apply', { exitEarly: false }, ns);
    expect(go.result.exitCode).toBe(3);
    expect((await get('configmaps/early-later')).status).toBe(200);
  });

  it('records deploy history (bounded) and refuses an older commit after a newer one was applied', async () => {
    const pkg = inlinePackage(ns, { 'h.yaml': cm('hist', '1') });
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
      runPackage(conn.client, pkg.rel, 'apply', {
        repoRoot: pkg.repo,
        defaultNamespace: ns,
        options: defaultRunOptions(),
        history: { commit, trigger: 'test@host', keep: 3, allowStale },
      });
    for (const c of commits) expect((await apply(c, true)).exitCode).toBe(0);
    const history = await readHistory(conn.client, pkg.inventory);
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
    expect((await readHistory(conn.client, pkg.inventory))[0].commit).toBe(commits[3]);
    expect((await apply(commits[3])).exitCode).toBe(0);
    expect((await apply(older, true)).exitCode).toBe(0);
  });
});
