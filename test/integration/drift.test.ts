import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIFT_LABEL } from '../../src/action/github/drift-issue.js';
import type { DriftDocument } from '../../src/drift/types.js';
import { driftMarker } from '../../src/report/drift-markdown.js';
import {
  type AuditEvent,
  auditOffset,
  describeRequest,
  flushAudit,
  mutatingRequests,
} from '../support/audit-log.js';
import { type GitHubServer, startGitHubServer } from '../support/github-server.js';
import { controlPlane, eventually, type Obj, useCluster } from '../support/harness/index.js';
import { impersonatingKubeconfig } from '../support/impersonation.js';
import { runAction } from '../support/run-action.js';
import { packageIn, runCli } from './cli-helpers.js';

/**
 * `kpt-live drift` and the action's drift mode against the test server. The package (test/fixtures/cli/basic:
 * ConfigMap, Deployment, Service) is applied as the admin; then, through the API, a field is edited, an
 * object deleted, an object the package does not have added to the inventory, and the Deployment's Pod
 * turned not-Ready (spec untouched). Drift runs as an impersonated user of its own with only get, list,
 * watch, patch and create (README: what drift needs), so the audit log shows its requests apart: it must
 * send no write but dry-runs.
 */
const reader = 'kpt-drift-reader';
const cluster = useCluster({ namespace: 'drift' });
const { api } = cluster;
const audit = controlPlane().auditLogPath;
const timeout = '3s';

let readerKubeconfig: string;
/** The same verbs without `create`: a missing object's dry-run is authorised as its creation. */
let patchOnlyKubeconfig: string;

/** A kubeconfig acting as `user`, who gets exactly `verbs` on every resource. */
const identity = (user: string, verbs: string[]) =>
  impersonatingKubeconfig(api, user, [{ apiGroups: ['*'], resources: ['*'], verbs }]);

beforeAll(async () => {
  readerKubeconfig = await identity(reader, ['get', 'list', 'watch', 'patch', 'create']);
  patchOnlyKubeconfig = await identity(`${reader}-patch-only`, ['get', 'list', 'watch', 'patch']);
});

/** Requests the reader sent while `body` ran: all of them, and the writes (dry-runs are not writes). */
async function readerRequests(
  body: () => Promise<void>,
): Promise<{ seen: AuditEvent[]; writes: AuditEvent[] }> {
  const offset = auditOffset(audit);
  await body();
  const seen = (await flushAudit(api, audit, offset)).filter((e) => e.impersonatedUser?.username === reader);
  return { seen, writes: mutatingRequests(seen, reader) };
}

const drift = (work: string, ...args: string[]) =>
  runCli(
    [
      'drift',
      'basic',
      '-n',
      cluster.ns,
      '--kubeconfig',
      readerKubeconfig,
      '--reconcile-timeout',
      timeout,
      ...args,
    ],
    {
      cwd: work,
    },
  );

/** The Deployment's Pods, turned Ready or not through their status subresource (the simulator set them once). */
async function setPodsReady(ready: boolean) {
  const pods = await api.request<Obj>('GET', `/api/v1/namespaces/${cluster.ns}/pods?labelSelector=app%3Dweb`);
  expect(pods.body.items.length).toBeGreaterThan(0);
  for (const pod of pods.body.items) {
    const now = new Date().toISOString();
    const cond = (type: string, status: boolean) => ({
      type,
      status: status ? 'True' : 'False',
      lastTransitionTime: now,
    });
    const res = await api.request(
      'PATCH',
      `/api/v1/namespaces/${cluster.ns}/pods/${pod.metadata.name}/status`,
      {
        status: {
          conditions: [
            cond('Initialized', true),
            cond('Ready', ready),
            cond('ContainersReady', ready),
            cond('PodScheduled', true),
          ],
          containerStatuses: pod.status.containerStatuses.map((c: Obj) => ({ ...c, ready })),
        },
      },
      'application/merge-patch+json',
    );
    expect(res.status).toBe(200);
  }
  await eventually(
    async () => {
      const d = await api.request<Obj>('GET', `/apis/apps/v1/namespaces/${cluster.ns}/deployments/web`);
      return (d.body.status?.availableReplicas ?? 0) === (ready ? 1 : 0) ? true : undefined;
    },
    60_000,
    `Deployment web ${ready ? 'available' : 'unavailable'}`,
  );
}

/** Edits a field, deletes an object, adds a leftover to the inventory and makes the Pods not Ready. */
async function makeDrift() {
  const cm = await api.request(
    'PATCH',
    `/api/v1/namespaces/${cluster.ns}/configmaps/config-map-1?fieldManager=kubectl-edit`,
    { data: { greeting: 'edited by hand' } },
    'application/merge-patch+json',
  );
  expect(cm.status).toBe(200);
  expect((await api.request('DELETE', `/api/v1/namespaces/${cluster.ns}/services/web`)).status).toBe(200);
  const rgPath = `/apis/kpt.dev/v1alpha1/namespaces/${cluster.ns}/resourcegroups/inventory-basic`;
  const rg = await api.request<Obj>('GET', rgPath);
  const created = await api.request('POST', `/api/v1/namespaces/${cluster.ns}/configmaps`, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'leftover',
      annotations: {
        'config.k8s.io/owning-inventory': rg.body.metadata.labels['cli-utils.sigs.k8s.io/inventory-id'],
      },
    },
    data: { from: 'an older version of the package' },
  });
  expect(created.status).toBe(201);
  const resources = [
    ...rg.body.spec.resources,
    { group: '', kind: 'ConfigMap', namespace: cluster.ns, name: 'leftover' },
  ];
  const patched = await api.request('PATCH', rgPath, { spec: { resources } }, 'application/merge-patch+json');
  expect(patched.status).toBe(200);
  await setPodsReady(false);
}

const sorted = (doc: DriftDocument) =>
  doc.packages[0].objects.map((o) => `${o.drift} ${o.id.kind}/${o.id.name}`).sort();

describe('kpt-live drift and mode: drift', () => {
  let work: string;
  let github: GitHubServer;
  const allWrites: AuditEvent[] = [];
  const allSeen: AuditEvent[] = [];

  beforeAll(async () => {
    github = await startGitHubServer({ owner: 'acme', repo: 'platform' });
  });
  afterAll(() => github?.close());

  const action = (inputs: Record<string, string>) =>
    runAction({
      event: 'schedule',
      payload: { schedule: '0 6 * * *' },
      inputs: {
        mode: 'drift',
        kubeconfig: fs.readFileSync(readerKubeconfig, 'utf8'),
        'reconcile-timeout': timeout,
        namespace: cluster.ns,
        'github-token': github.writeToken,
        ...inputs,
      },
      workspace: work,
      apiUrl: github.url,
      sha: 'b'.repeat(40),
      ref: 'refs/heads/main',
    });

  it('reports exactly the four drifts (exit 4), then in sync after a re-apply (exit 0); issues follow', async () => {
    work = await packageIn('basic', cluster.ns);
    const applied = await runCli(['apply', 'basic', '-n', cluster.ns, '--reconcile-timeout', '90s'], {
      cwd: work,
    });
    expect(applied.code, applied.stderr).toBe(0);

    const inSync = await readerRequests(async () => {
      const r = await drift(work, '--output', 'json');
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ packages: [{ path: 'basic', drifted: false, objects: [] }] });
    });
    allWrites.push(...inSync.writes);

    await makeDrift();
    const drifted = await readerRequests(async () => {
      const r = await drift(work, '--output', 'json');
      expect(r.code, r.stderr).toBe(4);
      const doc = JSON.parse(r.stdout) as DriftDocument;
      expect(doc.packages).toHaveLength(1);
      expect(doc.packages[0]).toMatchObject({ path: 'basic', drifted: true });
      expect(sorted(doc)).toEqual([
        'configure ConfigMap/config-map-1',
        'create Service/web',
        'prune ConfigMap/leftover',
        'status Deployment/web',
      ]);
      const byKind = Object.fromEntries(doc.packages[0].objects.map((o) => [o.drift, o]));
      expect(byKind.configure.changes).toEqual([
        { path: 'data.greeting', op: 'change', before: 'edited by hand', after: 'hello' },
      ]);
      expect(byKind.status).toMatchObject({ status: 'InProgress' });
      expect(byKind.status.message).toMatch(/not Current after 3(\.0)?s: Available: 0\/1/);
      expect(byKind.create.id).toEqual({ group: '', kind: 'Service', namespace: cluster.ns, name: 'web' });

      // without create, the dry-run of the deleted Service is refused: the check fails, naming it
      const patchOnly = await runCli(
        [
          'drift',
          'basic',
          '-n',
          cluster.ns,
          '--kubeconfig',
          patchOnlyKubeconfig,
          '--reconcile-timeout',
          timeout,
        ],
        { cwd: work },
      );
      expect(patchOnly.code, patchOnly.stderr).toBe(1);
      expect(patchOnly.stderr).toMatch(/Service\/web: .*forbidden/i);

      const text = await drift(work);
      expect(text.code, text.stderr).toBe(4);
      expect(text.stdout).toMatch(/^Drift of basic: 4 object\(s\) differ from the package/);
      expect(text.stdout).toContain('data.greeting edited by hand → hello');
      expect(text.stdout).toMatch(/^! Deployment\/web +status: InProgress/m);

      const first = await action({ 'drift-issue': 'true' });
      expect(first.code, first.stdout).toBe(0);
      expect(JSON.parse(first.outputs.drifted)).toEqual(['basic']);
      expect(sorted(JSON.parse(first.outputs.result))).toEqual(sorted(doc));
      expect(first.summary).toContain('Drift · `basic`');
      expect(first.summary).toContain('| `Deployment/web` | status |');
      expect(github.state.issues.size).toBe(1);
      const issue = [...github.state.issues.values()][0];
      expect(issue).toMatchObject({ state: 'open', title: 'Drift: basic' });
      expect(issue.body?.startsWith(`${driftMarker('basic')}\n`)).toBe(true);
      expect(issue.labels.map((l) => l.name)).toEqual([DRIFT_LABEL]);
      expect(github.state.labels.get(DRIFT_LABEL)?.description).toMatch(/kpt-live-action drift/);

      // 150 newer labelled issues push ours to the second page; fail-on-drift fails the step
      for (let i = 0; i < 150; i++)
        github.addIssue({ title: `other ${i}`, body: driftMarker(`other/${i}`), labels: [DRIFT_LABEL] });
      const second = await action({ 'drift-issue': 'true', 'fail-on-drift': 'true' });
      expect(second.code, second.stdout).toBe(1);
      expect(second.stdout).toMatch(/::error::drift found in basic \(fail-on-drift: true\)/);
      expect(github.state.issues.size).toBe(151);
      expect(github.state.issues.get(issue.number)?.state).toBe('open');
      const lists = github.requests.filter(
        (q) => q.method === 'GET' && q.path === '/repos/acme/platform/issues',
      );
      expect(lists.at(-1)?.query).toMatchObject({ labels: DRIFT_LABEL, state: 'all', page: '2' });
      expect(
        github.requests.filter((q) => q.method === 'PATCH' && q.path.endsWith(`/issues/${issue.number}`)),
      ).toHaveLength(1);

      // a read-only token: a notice, the step does not fail
      const readOnly = await action({ 'drift-issue': 'true', 'github-token': github.readToken });
      expect(readOnly.code, readOnly.stdout).toBe(0);
      expect(readOnly.stdout).toMatch(/::notice.*drift issue not written: GitHub answered 403/);
    });
    allWrites.push(...drifted.writes);
    allSeen.push(...drifted.seen);

    await setPodsReady(true);
    const reapplied = await runCli(
      ['apply', 'basic', '-n', cluster.ns, '--reconcile-timeout', '90s', '--force-conflicts'],
      { cwd: work },
    );
    expect(reapplied.code, reapplied.stderr).toBe(0);
    expect(reapplied.stdout).toContain('configmap/leftover prune successful');

    const after = await readerRequests(async () => {
      const r = await drift(work, '--output', 'json');
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ packages: [{ path: 'basic', drifted: false, objects: [] }] });
      const third = await action({ 'drift-issue': 'true' });
      expect(third.code, third.stdout).toBe(0);
      expect(JSON.parse(third.outputs.drifted)).toEqual([]);
      const issue = [...github.state.issues.values()][0];
      expect(issue.state).toBe('closed');
      expect(github.state.comments.get(issue.number)?.map((c) => c.body)).toEqual([
        expect.stringMatching(/^In sync again/),
      ]);
    });
    allWrites.push(...after.writes);

    // a rollout in progress does not flap: Pods not Ready when the check starts, Ready again while it waits
    await setPodsReady(false);
    const settling = await readerRequests(async () => {
      // drift says on stderr, every 10 s, that it is waiting for objects still reconciling: the first such
      // line means it read the Deployment as not Current and now watches it; then the Pods turn Ready.
      // (Not the audit log's watch event: 1.20 writes it only once the watch sends its first bytes.)
      let waiting: () => void = () => {};
      const seenWaiting = new Promise<void>((resolve) => {
        waiting = resolve;
      });
      const run = runCli(
        ['drift', 'basic', '-n', cluster.ns, '--kubeconfig', readerKubeconfig, '--reconcile-timeout', '90s'],
        {
          cwd: work,
          onStderr: (stderr) => {
            if (/waiting .* for 1 object\(s\) to reconcile before judging drift/.test(stderr)) waiting();
          },
        },
      );
      const early = await Promise.race([seenWaiting.then(() => undefined), run]);
      expect(early, 'drift finished before it waited for the Deployment').toBeUndefined();
      await setPodsReady(true);
      const r = await run;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('Drift of basic: in sync\n');
    });
    allWrites.push(...settling.writes);

    expect(allWrites.map(describeRequest)).toEqual([]);
    // positive control: the audit filter does see the reader's dry-runs and reads
    expect(allSeen.some((e) => e.verb === 'patch' && /dryRun=All/.test(e.requestURI))).toBe(true);
    expect(allSeen.some((e) => e.objectRef?.resource === 'leases')).toBe(false);
  }, 480_000);

  it('a package never applied cannot be checked: exit 1, no write', async () => {
    const fresh = await packageIn('basic', cluster.ns, 'basic');
    const rgFile = path.join(fresh, 'basic', 'resourcegroup.yaml');
    fs.writeFileSync(rgFile, fs.readFileSync(rgFile, 'utf8').replace('inventory-basic', 'inventory-never'));
    const { writes } = await readerRequests(async () => {
      const r = await drift(fresh, '--output', 'json');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/no inventory .*inventory-never in the cluster: basic was never applied/);
      expect(JSON.parse(r.stdout).packages[0]).toMatchObject({ path: 'basic', drifted: false, objects: [] });
    });
    expect(writes.map(describeRequest)).toEqual([]);
  });
});
