import { describe, expect, it } from 'vitest';
import { isBlockedOutcome } from '../../src/apply/run-result.js';
import { renderPreviewMarkdown } from '../../src/report/preview-markdown.js';
import {
  configMap,
  inlinePackage,
  namespace,
  type Obj,
  uniqueName,
  useCluster,
} from '../support/harness/index.js';
import { actions, runPkg } from '../support/run.js';
import { runCli } from './cli-helpers.js';

const owning = 'config.k8s.io/owning-inventory';
const cm = (name: string, ns: string, annotations: Record<string, string> = {}, data = 'v') =>
  configMap(name, { k: data }, { namespace: ns, annotations });

/**
 * Skips the user did not choose (another inventory owns the object, or a dependency was skipped) fail the
 * run with exit 3, naming owner and fix; `allow-skipped` restores kpt's exit 0; chosen skips still pass.
 * Destroy takes the inventory's own Namespace when nothing else is left in it.
 */
describe('blocked objects fail the run', () => {
  const cluster = useCluster({ namespace: 'blocked', connect: true });
  const { api } = cluster;

  it('a Namespace owned by another inventory: preview shows two blocked objects, apply exits 3 naming the owner, allow-skipped exits 0', async () => {
    const team = uniqueName('team');
    const other = inlinePackage(cluster.ns, { 'ns.yaml': namespace(team) });
    expect((await runPkg(cluster.conn, other, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);

    const mine = inlinePackage(cluster.ns, { 'ns.yaml': namespace(team), 'cm.yaml': cm('app', team) });
    const preview = await runPkg(cluster.conn, mine, 'preview', {}, cluster.ns);
    const doc = preview.result.preview!;
    expect(doc.summary).toMatchObject({ error: 2, blocked: 2, create: 0 });
    expect(doc.objects.map((o) => `${o.action} ${o.id.kind}/${o.id.name} ${o.blocked?.cause}`)).toEqual([
      `error Namespace/${team} inventory-policy`,
      'error ConfigMap/app dependency',
    ]);
    const nsObj = doc.objects[0];
    expect(nsObj.blocked?.owner).toEqual({
      id: other.inventory.id,
      resourceGroup: { namespace: cluster.ns, name: other.inventory.name },
    });
    expect(nsObj.blocked?.fix).toMatch(/force-adopt/);
    const md = renderPreviewMarkdown(doc);
    expect(md).toContain('**2 blocked**');
    expect(md).toContain(`(ResourceGroup ${cluster.ns}/${other.inventory.name})`);

    const applied = await runPkg(cluster.conn, mine, 'apply', {}, cluster.ns);
    expect(applied.result.exitCode).toBe(3);
    expect(applied.result.outcome).toBe('failed');
    expect(actions(applied.events)).toEqual([
      `apply Namespace/${team} Skipped`,
      'apply ConfigMap/app Skipped',
    ]);
    const objects = applied.result.run!.objects;
    expect(objects.filter(isBlockedOutcome).map((o) => o.id.name)).toEqual([team, 'app']);
    expect(objects[0].message).toBe(
      `inventory policy prevented actuation (strategy: Apply, status: NoMatch, policy: MustMatch): owned by another inventory: inventory ${other.inventory.id} (ResourceGroup ${cluster.ns}/${other.inventory.name})`,
    );
    expect(objects[0].source).toEqual({ file: 'pkg/ns.yaml', line: 1 });
    expect((await api.request<Obj>('GET', `/api/v1/namespaces/${team}/configmaps/app`)).status).toBe(404);

    const allowed = await runPkg(cluster.conn, mine, 'apply', { allowSkipped: true }, cluster.ns);
    expect(allowed.result.exitCode).toBe(0);
    expect(allowed.result.outcome).toBe('success');
    const allowedPreview = await runPkg(cluster.conn, mine, 'preview', { allowSkipped: true }, cluster.ns);
    expect(allowedPreview.result.preview!.summary).toMatchObject({ skip: 2, error: 0, blocked: 0 });

    // the CLI: exit 3 with every object, its owner and the fix on stderr; --allow-skipped: exit 0 and a note
    const cli = await runCli(['apply', 'pkg'], { cwd: mine.repo });
    expect(cli.code, cli.stderr).toBe(3);
    expect(cli.stdout).toContain(`namespace/${team} apply skipped: inventory policy prevented actuation`);
    expect(cli.stderr).toContain('error: 2 object(s) did not succeed:');
    expect(cli.stderr).toContain(
      `  namespace/${team} (pkg/ns.yaml:1) blocked: inventory policy prevented actuation (strategy: Apply, status: NoMatch, policy: MustMatch): owned by another inventory: inventory ${other.inventory.id} (ResourceGroup ${cluster.ns}/${other.inventory.name}). Fix: destroy the package that owns it (ResourceGroup ${cluster.ns}/${other.inventory.name}), or take it over with inventory-policy: force-adopt`,
    );
    expect(cli.stderr).toMatch(
      /configmap\/app \(pkg\/cm.yaml:1\) blocked: dependency apply actuation skipped/,
    );
    const cliAllowed = await runCli(['apply', 'pkg', '--allow-skipped'], { cwd: mine.repo });
    expect(cliAllowed.code, cliAllowed.stderr).toBe(0);
    expect(cliAllowed.stderr).toContain('note: 2 object(s) skipped, allowed by --allow-skipped:');
    const json = await runCli(['preview', 'pkg', '--output', 'json'], { cwd: mine.repo });
    expect(JSON.parse(json.stdout).summary).toMatchObject({ error: 2, blocked: 2 });
  });

  it('a dependency chain whose first object is blocked: every dependent is reported, exit 3', async () => {
    // an object no inventory owns (made by hand): strict refuses it
    const res = await api.request('POST', `/api/v1/namespaces/${cluster.ns}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'chain-a' },
      // the package's value: adopting it later is no field conflict
      data: { k: 'v' },
    });
    expect(res.status).toBe(201);
    const dep = (name: string) => ({
      'config.kubernetes.io/depends-on': `/namespaces/${cluster.ns}/ConfigMap/${name}`,
    });
    const pkg = inlinePackage(cluster.ns, {
      'a.yaml': cm('chain-a', cluster.ns),
      'b.yaml': cm('chain-b', cluster.ns, dep('chain-a')),
      'c.yaml': cm('chain-c', cluster.ns, dep('chain-b')),
    });
    const preview = await runPkg(cluster.conn, pkg, 'preview', {}, cluster.ns);
    expect(preview.result.preview!.summary).toMatchObject({ blocked: 3, create: 0 });

    const { result, events } = await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns);
    expect(result.exitCode).toBe(3);
    expect(actions(events)).toEqual([
      'apply ConfigMap/chain-a Skipped',
      'apply ConfigMap/chain-b Skipped',
      'apply ConfigMap/chain-c Skipped',
    ]);
    const byName = new Map(result.run!.objects.map((o) => [o.id.name, o]));
    expect(byName.get('chain-a')?.skip).toMatchObject({ type: 'inventory-policy', match: 'Empty' });
    expect(byName.get('chain-a')?.message).toMatch(/not owned by any inventory/);
    expect(byName.get('chain-b')?.message).toBe(
      `dependency apply actuation skipped: ${cluster.ns}_chain-a__ConfigMap`,
    );
    expect(byName.get('chain-c')?.message).toBe(
      `dependency apply actuation skipped: ${cluster.ns}_chain-b__ConfigMap`,
    );
    expect(result.run!.objects.every(isBlockedOutcome)).toBe(true);
    // adopt is the fix the message names: then all three deploy
    const adopted = await runPkg(cluster.conn, pkg, 'apply', { inventoryPolicy: 'adopt' }, cluster.ns);
    expect(adopted.result.exitCode, adopted.result.error).toBe(0);
  });

  it('skips the user chose still pass: update-strategy skip, on-remove keep, delete-strategy orphan, disable-wait', async () => {
    const pkg = inlinePackage(cluster.ns, {
      's.yaml': cm('chosen-skip', cluster.ns, { 'kapp.k14s.io/update-strategy': 'skip' }),
      'k.yaml': cm('chosen-keep', cluster.ns, { 'cli-utils.sigs.k8s.io/on-remove': 'keep' }),
      'o.yaml': cm('chosen-orphan', cluster.ns, { 'kapp.k14s.io/delete-strategy': 'orphan' }),
      'w.yaml': cm('chosen-nowait', cluster.ns, { 'kapp.k14s.io/disable-wait': '' }),
    });
    expect((await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
    pkg.rewrite({
      's.yaml': cm('chosen-skip', cluster.ns, { 'kapp.k14s.io/update-strategy': 'skip' }, 'changed'),
      'w.yaml': cm('chosen-nowait', cluster.ns, { 'kapp.k14s.io/disable-wait': '' }, 'changed'),
    });
    const preview = await runPkg(cluster.conn, pkg, 'preview', {}, cluster.ns);
    expect(preview.result.exitCode).toBe(0);
    expect(preview.result.preview!.summary).toMatchObject({ skip: 1, orphan: 2, error: 0, blocked: 0 });
    const { result, events } = await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns);
    expect(result.exitCode).toBe(0);
    expect(actions(events)).toEqual(
      expect.arrayContaining([
        'apply ConfigMap/chosen-skip Successful skipped',
        'prune ConfigMap/chosen-keep Skipped',
        'prune ConfigMap/chosen-orphan Skipped',
      ]),
    );
    expect(result.run!.objects.find((o) => o.id.name === 'chosen-nowait')?.reconcile).toBe('Skipped');
    expect(result.run!.objects.some(isBlockedOutcome)).toBe(false);
  });

  it('destroy fails on an object it may not delete (another inventory took it over), and keeps the inventory', async () => {
    const pkg = inlinePackage(cluster.ns, {
      'cm.yaml': cm('taken', cluster.ns),
      'mine.yaml': cm('still-mine', cluster.ns),
    });
    expect((await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
    const patched = await api.request(
      'PATCH',
      `/api/v1/namespaces/${cluster.ns}/configmaps/taken`,
      { metadata: { annotations: { [owning]: 'thief-id' } } },
      'application/merge-patch+json',
    );
    expect(patched.status).toBe(200);
    const { result, events } = await runPkg(cluster.conn, pkg, 'destroy', {}, cluster.ns);
    expect(result.exitCode).toBe(3);
    expect(actions(events)).toEqual(
      expect.arrayContaining(['delete ConfigMap/taken Skipped', 'delete ConfigMap/still-mine Successful']),
    );
    const taken = result.run!.objects.find((o) => o.id.name === 'taken')!;
    expect(taken.message).toMatch(/strategy: Delete, status: NoMatch.*inventory thief-id/);
    expect((await api.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/taken`)).status).toBe(200);
    const rg = await api.request<Obj>(
      'GET',
      `/apis/kpt.dev/v1alpha1/namespaces/${cluster.ns}/resourcegroups/${pkg.inventory.name}`,
    );
    expect(rg.status).toBe(200);
    expect(rg.body.spec.resources.map((r: Obj) => r.name)).toEqual(['taken']);
    // kpt's answer: the skip passes, and the inventory still lists what it could not delete
    const allowed = await runPkg(cluster.conn, pkg, 'destroy', { allowSkipped: true }, cluster.ns);
    expect(allowed.result.exitCode).toBe(0);
  });
});

describe('destroy and the Namespace that holds the inventory', () => {
  const cluster = useCluster({ namespace: false, connect: true });
  const { api } = cluster;

  /** A package that declares its own Namespace and keeps its inventory in it (cert-manager's layout). */
  const selfContained = (team: string) =>
    inlinePackage(team, { 'ns.yaml': namespace(team), 'cm.yaml': cm('app', team) });

  it('deletes the Namespace when only what Kubernetes made is left; a new inventory can deploy again', async () => {
    const team = uniqueName('selfns');
    const first = selfContained(team);
    expect((await runPkg(cluster.conn, first, 'apply', {}, team)).result.exitCode).toBe(0);
    const live = await api.request<Obj>('GET', `/api/v1/namespaces/${team}`);
    expect(live.body.metadata.annotations[owning]).toBe(first.inventory.id);

    const destroyed = await runPkg(cluster.conn, first, 'destroy', {}, team);
    expect(destroyed.result.exitCode).toBe(0);
    expect(actions(destroyed.events)).toEqual([
      'delete ConfigMap/app Successful',
      `delete Namespace/${team} Successful`,
    ]);
    // waited like a prune: gone when destroy returns
    expect((await api.request('GET', `/api/v1/namespaces/${team}`)).status).toBe(404);
    expect(destroyed.result.run!.objects.find((o) => o.id.kind === 'Namespace')?.reconcile).toBe(
      'Successful',
    );

    const again = selfContained(team);
    const reapplied = await runPkg(cluster.conn, again, 'apply', {}, team);
    expect(reapplied.result.exitCode, JSON.stringify(reapplied.result.run?.objects)).toBe(0);
    expect((await api.request('GET', `/api/v1/namespaces/${team}/configmaps/app`)).status).toBe(200);
    expect((await runPkg(cluster.conn, again, 'destroy', {}, team)).result.exitCode).toBe(0);
  });

  it('leaves the Namespace when something else is in it, says what, and forgets it', async () => {
    const team = uniqueName('selfns');
    const pkg = selfContained(team);
    expect((await runPkg(cluster.conn, pkg, 'apply', {}, team)).result.exitCode).toBe(0);
    const res = await api.request('POST', `/api/v1/namespaces/${team}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'foreign' },
      data: { k: 'not the package' },
    });
    expect(res.status).toBe(201);

    const destroyed = await runPkg(cluster.conn, pkg, 'destroy', {}, team);
    expect(destroyed.result.exitCode).toBe(0);
    const skip = destroyed.events.find((e) => e.type === 'delete' && e.id.kind === 'Namespace');
    expect(skip).toMatchObject({ status: 'Skipped' });
    expect(skip && 'error' in skip ? skip.error : '').toMatch(
      /namespace still in use: it holds objects this package did not create \(ConfigMap\/foreign\); left in place/,
    );
    const live = await api.request<Obj>('GET', `/api/v1/namespaces/${team}`);
    expect(live.status).toBe(200);
    expect(live.body.metadata.deletionTimestamp).toBeUndefined();
    expect(live.body.metadata.annotations?.[owning]).toBeUndefined();
    expect((await api.request('GET', `/api/v1/namespaces/${team}/configmaps/foreign`)).status).toBe(200);
    expect((await api.request('GET', `/api/v1/namespaces/${team}/configmaps/app`)).status).toBe(404);
    await api.request('DELETE', `/api/v1/namespaces/${team}`);
  });
});
