import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriftDocument, DriftPackage } from '../../src/drift/types.js';
import {
  type AuditEvent,
  auditOffset,
  describeRequest,
  flushAudit,
  mutatingRequests,
} from '../support/audit-log.js';
import { adminClient, controlPlane, createNamespace, uniqueName } from '../support/cluster.js';
import { createOriginAndClone, git } from '../support/git-repo.js';
import { type GitHubServer, type ServerIssue, startGitHubServer } from '../support/github-server.js';
import { impersonatingKubeconfig } from '../support/impersonation.js';
import { kubectl, kubectlGet } from '../support/kubectl.js';
import { runAction } from '../support/run-action.js';
import { runCli } from './cli-helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: objects as the API server returns them
type Obj = Record<string, any>;

/**
 * Drift correction end to end, from the states real tools leave: packages applied by `kpt-live apply` in a
 * git checkout, then edited by hand with real kubectl (`patch`, `set image`, `label`) or taken over by
 * another server-side applier. `kpt-live drift --correct` (as an identity of its own, so the audit log shows
 * what it sent) and the bundled action (`drift-correct: true`, drift issues on the local GitHub API) re-apply
 * what drifted through the normal apply: the field is back, a deploy record is written, the issue is closed
 * with what was reverted. A package whose last apply failed is held, not re-applied; a co-owner's field is
 * neither drift nor corrected; with nothing drifted, nothing is locked or written.
 */
describe('drift correction', () => {
  const api = adminClient();
  const audit = controlPlane().auditLogPath;
  const fixer = 'kpt-drift-fixer';
  const secretInPackage = 'package-secret-value-7d1e';
  const secretByHand = 'hand-edited-secret-4b2a';
  let ns: string;
  let fixerKubeconfig: string;
  let repo: ReturnType<typeof createOriginAndClone>;
  let commit: string;
  let gh: GitHubServer;

  const kptfile = (name: string) => `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n`;
  const rg = (name: string) =>
    `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${name}-id\n`;
  const inventories = { app: uniqueName('inventory-app'), held: uniqueName('inventory-held') };
  const web = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: example/web:1}]}
`;
  const stuck = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: stuck
spec:
  replicas: 1
  progressDeadlineSeconds: 2
  selector: {matchLabels: {app: stuck}}
  template:
    metadata:
      labels: {app: stuck}
      annotations: {sim.kpt-live-action.dev/behavior: never-ready}
    spec: {containers: [{name: main, image: example/stuck:1}]}
`;
  const configMap = (name: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  color: blue\n  mode: solo\n`;
  const secret = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-secret\nstringData:\n  password: ${secretInPackage}\n`;

  beforeAll(async () => {
    ns = await createNamespace(api, 'drift-fix');
    fixerKubeconfig = await impersonatingKubeconfig(api, fixer, [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
    ]);
    repo = createOriginAndClone();
    commit = repo.commit({
      'deploy/app/Kptfile': kptfile('app'),
      'deploy/app/resourcegroup.yaml': rg(inventories.app),
      'deploy/app/config.yaml': configMap('app-config'),
      'deploy/app/secret.yaml': secret,
      'deploy/app/web.yaml': web,
      'deploy/held/Kptfile': kptfile('held'),
      'deploy/held/resourcegroup.yaml': rg(inventories.held),
      'deploy/held/config.yaml': configMap('held-config'),
      'deploy/held/stuck.yaml': stuck,
    });
    gh = await startGitHubServer({ owner: 'acme', repo: 'platform', gitDir: repo.origin });
  });
  afterAll(async () => {
    await gh?.close();
  });

  const cli = (args: string[]) => runCli([...args, '-n', ns], { cwd: repo.work });
  const drift = (pkg: string, ...args: string[]) =>
    cli(['drift', pkg, '--correct', '--kubeconfig', fixerKubeconfig, '--reconcile-timeout', '60s', ...args]);
  const pkgOf = (stdout: string): DriftPackage => (JSON.parse(stdout) as DriftDocument).packages[0];
  const cm = async (name: string) => (await kubectlGet<Obj>(['configmap', name, '-n', ns])) as Obj;
  const patchColor = (name: string, color: string) =>
    kubectl(['patch', 'configmap', name, '-n', ns, '-p', JSON.stringify({ data: { color } })]);
  /** The deploy records of an inventory, newest first. */
  const history = async (inventory: string) => {
    const list = await api.request<Obj>(
      'GET',
      `/api/v1/namespaces/${ns}/configmaps?labelSelector=${encodeURIComponent(`kpt-live-action.dev/history-of=${inventory}`)}`,
    );
    return (list.body.items as Obj[])
      .map((c) => JSON.parse(c.data.record) as Obj)
      .sort((a, b) => (a.startedAt < b.startedAt ? 1 : -1));
  };
  /** What the fixer identity sent while `body` ran: its writes (not dry-runs) and its Lease requests. */
  const fixerRequests = async (body: () => Promise<void>) => {
    const offset = auditOffset(audit);
    await body();
    const seen: AuditEvent[] = (await flushAudit(api, audit, offset)).filter(
      (e) => e.impersonatedUser?.username === fixer,
    );
    return {
      seen,
      writes: mutatingRequests(seen, fixer).map(describeRequest),
      leases: seen.filter((e) => e.objectRef?.resource === 'leases'),
    };
  };

  it('kpt-live drift --correct: nothing drifted does nothing; hand edits are reverted and recorded; a co-owner is left; a failed correction exits 3', async () => {
    const applied = await cli(['apply', 'deploy/app', '--reconcile-timeout', '90s']);
    expect(applied.code, applied.stderr).toBe(0);
    const records = (await history(inventories.app)).length;

    // nothing drifted: no lock, no write, no correction in the document
    const quiet = await fixerRequests(async () => {
      const r = await drift('deploy/app', '--output', 'json');
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        packages: [{ path: 'deploy/app', drifted: false, objects: [] }],
      });
    });
    expect(quiet.seen.some((e) => /dryRun=All/.test(e.requestURI))).toBe(true);
    expect(quiet.leases).toEqual([]);
    expect(quiet.writes).toEqual([]);
    expect(await history(inventories.app)).toHaveLength(records);

    // the hotfix by hand: two fields the package sets, and a label it does not
    await patchColor('app-config', 'red');
    await kubectl(['set', 'image', 'deployment/web', 'app=example/web:hotfix', '-n', ns]);
    await kubectl(['label', 'configmap', 'app-config', '-n', ns, 'hotfix=yes']);
    const fixed = await fixerRequests(async () => {
      const r = await drift('deploy/app');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        /^Drift of deploy\/app: 2 object\(s\) differ from the package \(2 configure\)/,
      );
      expect(r.stdout).toContain('data.color red → blue');
      expect(r.stdout).toContain('Correcting deploy/app: re-applying the package');
      expect(r.stdout).toContain('configmap/app-config apply successful');
      expect(r.stdout).toContain('deploy/app: corrected: re-applied (2 configured');
    });
    expect(fixed.leases.length).toBeGreaterThan(0);
    expect(fixed.writes).toEqual(
      expect.arrayContaining([expect.stringMatching(/^patch configmaps\/app-config /)]),
    );
    const live = await cm('app-config');
    expect(live.data).toEqual({ color: 'blue', mode: 'solo' });
    expect(live.metadata.labels).toMatchObject({ hotfix: 'yes' });
    const deployment = await kubectlGet<Obj>(['deployment', 'web', '-n', ns]);
    expect(deployment.spec.template.spec.containers[0].image).toBe('example/web:1');
    const after = await history(inventories.app);
    expect(after).toHaveLength(records + 1);
    expect(after[0]).toMatchObject({ mode: 'apply', result: 'success', commit, package: 'deploy/app' });

    // another server-side applier takes a field the package sets: its field, not drift, not corrected
    await kubectl(
      ['apply', '--server-side', '--force-conflicts', '--field-manager=other-tool', '-n', ns, '-f', '-'],
      {
        input: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\ndata:\n  mode: shared\n',
      },
    );
    const coOwned = await fixerRequests(async () => {
      const r = await drift('deploy/app', '--output', 'json');
      expect(r.code, r.stderr).toBe(0);
      expect(pkgOf(r.stdout)).toEqual({ path: 'deploy/app', drifted: false, objects: [] });
    });
    expect(coOwned.leases).toEqual([]);
    expect(coOwned.writes).toEqual([]);
    expect((await cm('app-config')).data.mode).toBe('shared');

    // a hand edit beside it: drift, but apply's rule refuses to take the co-owner's field: its pre-flight
    // refuses the object (nothing changed, so no deploy record): exit 3, naming the co-owner and the fix
    await patchColor('app-config', 'red');
    const before = (await history(inventories.app)).length;
    const r = await drift('deploy/app', '--output', 'json');
    expect(r.code, r.stderr).toBe(3);
    const failed = pkgOf(r.stdout);
    expect(failed.objects.map((o) => `${o.drift} ${o.id.kind}/${o.id.name}`)).toEqual([
      'configure ConfigMap/app-config',
    ]);
    expect(failed.correction).toMatchObject({
      result: 'failed',
      reason: expect.stringMatching(
        /^pre-flight server-side dry-run rejected 1 object\(s\); nothing was changed/,
      ),
    });
    expect(failed.correction?.reason).toContain('.data.mode is owned by field manager "other-tool"');
    expect(r.stderr).toContain('deploy/app: correction failed: pre-flight');
    expect(await history(inventories.app)).toHaveLength(before);
    expect((await cm('app-config')).data).toEqual({ color: 'red', mode: 'shared' });
  }, 300_000);

  it('a package whose last apply failed is held: reported, not re-applied (exit 4), nothing locked or written', async () => {
    const failedApply = await cli(['apply', 'deploy/held', '--reconcile-timeout', '20s']);
    expect(failedApply.code, failedApply.stderr).toBe(3);
    const records = await history(inventories.held);
    expect(records[0]).toMatchObject({ mode: 'apply', result: 'failed', commit });
    await patchColor('held-config', 'red');

    const held = await fixerRequests(async () => {
      const r = await drift('deploy/held', '--output', 'json');
      expect(r.code, r.stderr).toBe(4);
      const pkg = pkgOf(r.stdout);
      expect(pkg.drifted).toBe(true);
      expect(pkg.objects.map((o) => `${o.drift} ${o.id.kind}/${o.id.name}`).sort()).toEqual([
        'configure ConfigMap/held-config',
        'status Deployment/stuck',
      ]);
      expect(pkg.correction).toEqual({
        result: 'held',
        reason: `tree of ${commit.slice(0, 7)} failed; not corrected until deploy/held changes or \`kpt-live apply deploy/held\` succeeds`,
      });
      const text = await drift('deploy/held');
      expect(text.code, text.stderr).toBe(4);
      expect(text.stdout).toContain(`deploy/held: held, not corrected: tree of ${commit.slice(0, 7)} failed`);
      expect(text.stdout).not.toContain('Correcting deploy/held');
    });
    expect(held.leases).toEqual([]);
    expect(held.writes).toEqual([]);
    expect((await cm('held-config')).data.color).toBe('red');
    expect(await history(inventories.held)).toHaveLength(records.length);
  }, 300_000);

  it('drift-correct: true in the action: a failed correction keeps the issue open with why; a corrected one closes it with what was reverted', async () => {
    const runUrl = 'https://github.example/acme/platform/actions/runs/4242';
    const action = (inputs: Record<string, string>) =>
      runAction({
        event: 'schedule',
        payload: { schedule: '0 6 * * *' },
        inputs: {
          mode: 'drift',
          kubeconfig: fs.readFileSync(controlPlane().kubeconfigPath, 'utf8'),
          'reconcile-timeout': '60s',
          namespace: ns,
          'github-token': gh.writeToken,
          'drift-issue': 'true',
          ...inputs,
        },
        workspace: repo.shallowCheckout('main'),
        apiUrl: gh.url,
        sha: git(repo.work, 'rev-parse', 'main'),
        ref: 'refs/heads/main',
      });
    const issueOf = (pkg: string) =>
      [...gh.state.issues.values()].find((i) => i.title === `Drift: ${pkg}`) as ServerIssue;
    const comments = (i: ServerIssue) => (gh.state.comments.get(i.number) ?? []).map((c) => c.body);
    const byPath = (result: string) =>
      Object.fromEntries((JSON.parse(result) as DriftDocument).packages.map((p) => [p.path, p]));

    // the check alone opens an issue per drifted package (deploy/app still has the hand edit beside the co-owner)
    const found = await action({});
    expect(found.code, found.stdout).toBe(0);
    expect(JSON.parse(found.outputs.drifted)).toEqual(['deploy/app', 'deploy/held']);
    expect(JSON.parse(found.outputs.corrected)).toEqual([]);
    expect(issueOf('deploy/app').state).toBe('open');
    expect(issueOf('deploy/held').state).toBe('open');

    // correction: deploy/app's apply is refused by the co-owner's field, deploy/held is held
    const refused = await action({ 'drift-correct': 'true' });
    expect(refused.code, refused.stdout).toBe(1);
    expect(refused.stdout).toMatch(/::error::.*deploy\/app: correction failed: .*other-tool/);
    expect(refused.stdout).toMatch(
      /::warning title=drift%3A deploy\/held held::held, not corrected: tree of/,
    );
    const refusedDoc = byPath(refused.outputs.result);
    expect(refusedDoc['deploy/app'].correction).toMatchObject({ result: 'failed' });
    expect(refusedDoc['deploy/held'].correction).toMatchObject({ result: 'held' });
    expect(JSON.parse(refused.outputs.corrected)).toEqual([]);
    expect(issueOf('deploy/app').state).toBe('open');
    expect(issueOf('deploy/app').body).toContain(':x: **Correction failed**: pre-flight server-side dry-run');
    expect(issueOf('deploy/app').body).toContain('.data.mode is owned by field manager "other-tool"');
    expect(issueOf('deploy/held').body).toContain('**Held, not corrected**: tree of');
    expect(refused.summary).toContain('### Drift · `deploy/app`');

    // the co-owner's field is taken back on purpose; then a new hotfix, of a Secret too
    const forced = await cli(['apply', 'deploy/app', '--conflicts', 'force', '--reconcile-timeout', '90s']);
    expect(forced.code, forced.stderr).toBe(0);
    await patchColor('app-config', 'red');
    await kubectl([
      'patch',
      'secret',
      'app-secret',
      '-n',
      ns,
      '-p',
      JSON.stringify({ stringData: { password: secretByHand } }),
    ]);
    const records = (await history(inventories.app)).length;

    const fixed = await action({ 'drift-correct': 'true', 'fail-on-drift': 'true' });
    // deploy/held's drift remains (held): fail-on-drift fails the step, naming it
    expect(fixed.code, fixed.stdout).toBe(1);
    expect(fixed.stdout).toContain('drift remains in deploy/held (held) (fail-on-drift: true)');
    expect(fixed.stdout).not.toMatch(/::error::.*deploy\/app/);
    expect(JSON.parse(fixed.outputs.corrected)).toEqual(['deploy/app']);
    expect(fixed.stdout).toContain(
      '::notice title=drift%3A deploy/app corrected::corrected: re-applied (2 configured, 1 unchanged)',
    );
    // the correction's apply section follows the drift section, as its own block
    expect(fixed.summary).toContain(':wrench: **Corrected**: re-applied (2 configured, 1 unchanged)');
    expect(fixed.summary).toMatch(/<\/details>\n\n### ✅ `deploy\/app` applied in /);
    const doc = byPath(fixed.outputs.result);
    expect(doc['deploy/app']).toMatchObject({ drifted: true, correction: { result: 'corrected' } });
    expect((await cm('app-config')).data.color).toBe('blue');
    const secretNow = await kubectlGet<Obj>(['secret', 'app-secret', '-n', ns]);
    expect(Buffer.from(secretNow.data.password, 'base64').toString()).toBe(secretInPackage);
    const after = await history(inventories.app);
    expect(after).toHaveLength(records + 1);
    expect(after[0]).toMatchObject({ mode: 'apply', result: 'success', trigger: runUrl, commit });
    expect(after[0].tree).toMatch(/^[0-9a-f]{40}$/);

    const closed = issueOf('deploy/app');
    expect(closed.state).toBe('closed');
    const closing = comments(closed).at(-1) ?? '';
    expect(closing).toMatch(
      /^Corrected: drift correction re-applied `deploy\/app` in https:\/\/github\.example\/acme\/platform\/actions\/runs\/4242 /,
    );
    expect(closing).toContain(
      '- `ConfigMap/app-config`: `data.color` red → blue (an edit by `kubectl-patch`)',
    );
    expect(closing).toContain('- `Secret/app-secret`: `password` changed (value hidden)');
    expect(issueOf('deploy/held').state).toBe('open');
    // never a Secret value, in any form, anywhere the run wrote
    const everything = [
      fixed.stdout,
      fixed.stderr,
      fixed.summary,
      JSON.stringify(fixed.outputs),
      ...[...gh.state.issues.values()].map((i) => i.body ?? ''),
      ...[...gh.state.comments.values()].flat().map((c) => c.body),
    ].join('\n');
    for (const value of [secretInPackage, secretByHand])
      for (const form of [value, Buffer.from(value).toString('base64')])
        expect(everything).not.toContain(form);
  }, 420_000);
});
