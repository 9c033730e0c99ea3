import { access, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Obj, useCluster } from '../support/harness/index.js';
import { packageIn, runCli } from './cli-helpers.js';

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('kpt-live commands', () => {
  const cluster = useCluster({ namespace: false });
  const { api } = cluster;
  const get = (p: string) => api.request<Obj>('GET', p);
  const rgPath = (ns: string, name: string) =>
    `/apis/kpt.dev/v1alpha1/namespaces/${ns}/resourcegroups/${name}`;

  it('init writes resourcegroup.yaml as kpt does, then apply, status and destroy work with it', async () => {
    const ns = await cluster.namespace('cli-init');
    const cwd = await packageIn('basic', ns);
    await rm(path.join(cwd, 'basic/resourcegroup.yaml'));

    const init = await runCli(['init', 'basic', '-n', ns, '--name', 'inventory-init'], { cwd });
    expect(init.code).toBe(0);
    expect(init.stderr).toBe(`initializing "resourcegroup.yaml" data (namespace: ${ns})...success\n`);
    const written = await readFile(path.join(cwd, 'basic/resourcegroup.yaml'), 'utf8');
    expect(written).toMatch(
      new RegExp(
        `^apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: inventory-init\n  namespace: ${ns}\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: [0-9a-f]{40}-\\d+\n$`,
      ),
    );
    const again = await runCli(['init', 'basic', '-n', ns], { cwd });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('inventory information already set for package');

    const apply = await runCli(['apply', 'basic', '-n', ns], { cwd });
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    const rg = await get(rgPath(ns, 'inventory-init'));
    expect(rg.status).toBe(200);
    expect(rg.body.spec.resources).toHaveLength(3);

    const status = await runCli(['status', 'basic', '--output', 'table'], { cwd });
    expect(status.code).toBe(0);
    expect(status.stdout.split('\n')[0]).toMatch(/^NAMESPACE +RESOURCE +STATUS +MESSAGE$/);
    expect(status.stdout).toMatch(
      new RegExp(`${ns} +ConfigMap/config-map-1 +Current +Resource is always ready`),
    );

    const destroy = await runCli(['destroy', 'basic'], { cwd });
    expect(destroy.code).toBe(0);
    expect(destroy.stdout).toContain('delete result: 3 attempted, 3 successful, 0 skipped, 0 failed\n');
    expect((await get(`/api/v1/namespaces/${ns}/configmaps/config-map-1`)).status).toBe(404);
    expect((await get(rgPath(ns, 'inventory-init'))).status).toBe(404);

    const after = await runCli(['status', 'basic'], { cwd });
    expect(after.code).toBe(0);
    expect(after.stdout).toBe('');
    expect(after.stderr).toContain(
      `note: no inventory ${ns}/inventory-init in the cluster: nothing applied yet`,
    );
  });

  it('preview prints text, JSON and the PR comment markdown, and changes nothing', async () => {
    const ns = await cluster.namespace('cli-preview');
    const cwd = await packageIn('basic', ns);
    const flags = ['-n', ns];

    const text = await runCli(['preview', 'basic', ...flags], { cwd });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(`^Preview of basic \\(cluster [^,]+, namespace ${ns}\\)\n3 to create\n`),
    );
    expect(text.stdout).toContain('+ Deployment/web');
    expect(text.stdout).not.toContain('\u001b[');

    const json = await runCli(['preview', 'basic', ...flags, '--output=json'], { cwd });
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as Obj;
    expect(doc.package).toBe('basic');
    expect(doc.summary).toEqual({
      create: 3,
      configure: 0,
      unchanged: 0,
      prune: 0,
      skip: 0,
      error: 0,
      replace: 0,
      orphan: 0,
      blocked: 0,
    });
    expect(doc.objects.map((o: Obj) => `${o.action} ${o.id.kind}/${o.id.name}`)).toEqual([
      'create ConfigMap/config-map-1',
      'create Service/web',
      'create Deployment/web',
    ]);

    const md = await runCli(['preview', 'basic', ...flags, '--output', 'markdown'], { cwd });
    expect(md.code).toBe(0);
    expect(md.stdout.startsWith('<!-- kpt-live-action:preview package=basic -->\n')).toBe(true);
    expect(md.stdout).toContain('`Deployment/web`');

    const toFile = await runCli(
      ['preview', 'basic', ...flags, '--output', 'markdown', '--output-file', 'comment.md'],
      { cwd },
    );
    expect(toFile.code).toBe(0);
    expect(toFile.stdout).toBe('');
    expect(toFile.stderr).toBe('wrote the preview of 1 package(s) to comment.md\n');
    const file = await readFile(path.join(cwd, 'comment.md'), 'utf8');
    expect(file.startsWith('<!-- kpt-live-action:preview package=basic -->\n')).toBe(true);

    expect((await get(`/api/v1/namespaces/${ns}/configmaps/config-map-1`)).status).toBe(404);
    expect((await get(`/apis/apps/v1/namespaces/${ns}/deployments/web`)).status).toBe(404);
  });

  it('preview exits 1 when the server rejects an object', async () => {
    const ns = await cluster.namespace('cli-reject');
    const cwd = await packageIn('basic', ns);
    const dep = path.join(cwd, 'basic/deployment.yaml');
    await writeFile(dep, (await readFile(dep, 'utf8')).replace('replicas: 1', 'replicas: -1'));
    const run = await runCli(['preview', 'basic', '-n', ns, '--output', 'json'], { cwd });
    expect(run.code).toBe(1);
    const doc = JSON.parse(run.stdout) as Obj;
    expect(doc.summary.error).toBe(1);
    expect(doc.objects.find((o: Obj) => o.id.kind === 'Deployment').reason).toMatch(/replicas/);
  });

  it('install-resource-group reports success (the CRD is there afterwards)', async () => {
    const run = await runCli(['install-resource-group'], { cwd: process.cwd() });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('installing inventory ResourceGroup CRD...success\n');
    const crd = await get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/resourcegroups.kpt.dev');
    expect(crd.status).toBe(200);
  });

  it('migrate moves a hand-made ConfigMap inventory to a ResourceGroup that apply then uses', async () => {
    const ns = await cluster.namespace('cli-migrate');
    const cwd = await packageIn('legacy', ns);
    const id = `${ns}-legacy`;
    await api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'inventory-legacy',
        namespace: ns,
        labels: { 'cli-utils.sigs.k8s.io/inventory-id': id },
      },
      data: { [`${ns}_config-map-1__ConfigMap`]: '' },
    });
    await api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'config-map-1',
        namespace: ns,
        annotations: { 'config.k8s.io/owning-inventory': id },
      },
      data: { greeting: 'hello' },
    });

    const dry = await runCli(['migrate', 'legacy', '--dry-run'], { cwd });
    expect(dry.code).toBe(0);
    expect(await exists(path.join(cwd, 'legacy/inventory-template.yaml'))).toBe(true);
    expect(await exists(path.join(cwd, 'legacy/resourcegroup.yaml'))).toBe(false);
    expect((await get(`/api/v1/namespaces/${ns}/configmaps/inventory-legacy`)).status).toBe(200);

    const run = await runCli(['migrate', 'legacy'], { cwd });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        'inventory migration...',
        '  ensuring ResourceGroup CRD exists in cluster...success',
        `  retrieve the current ConfigMap inventory...success (inventory-id: ${id})`,
        '  creating ResourceGroup object file...success',
        '  retrieve ConfigMap inventory objs...success (1 inventory objects)',
        '  migrate inventory to ResourceGroup...success',
        '  deleting old ConfigMap inventory object...success',
        'deleting inventory template file: legacy/inventory-template.yaml...success',
        'inventory migration...success',
        '',
      ].join('\n'),
    );
    expect(await exists(path.join(cwd, 'legacy/inventory-template.yaml'))).toBe(false);
    expect((await get(`/api/v1/namespaces/${ns}/configmaps/inventory-legacy`)).status).toBe(404);
    const rg = await get(rgPath(ns, 'inventory-legacy'));
    expect(rg.body.metadata.labels['cli-utils.sigs.k8s.io/inventory-id']).toBe(id);
    expect(rg.body.spec.resources).toEqual([
      { group: '', kind: 'ConfigMap', name: 'config-map-1', namespace: ns },
    ]);

    const apply = await runCli(['apply', 'legacy', '-n', ns], { cwd });
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('configmap/config-map-1 apply successful\n');
    expect(apply.stdout).not.toContain('prune');
  });

  it('migrate moves a Kptfile inventory section into resourcegroup.yaml', async () => {
    const ns = await cluster.namespace('cli-migrate-kf');
    const cwd = await packageIn('legacy', ns);
    const dir = path.join(cwd, 'legacy');
    await rm(path.join(dir, 'inventory-template.yaml'));
    await writeFile(
      path.join(dir, 'Kptfile'),
      `${await readFile(path.join(dir, 'Kptfile'), 'utf8')}inventory:\n  namespace: ${ns}\n  name: inventory-kptfile\n  inventoryID: ${ns}-kptfile\n`,
    );
    const first = await runCli(['apply', 'legacy', '-n', ns], { cwd });
    expect(first.code).toBe(0);

    const run = await runCli(['migrate', 'legacy'], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('removing the inventory section from the Kptfile...success\n');
    expect(await readFile(path.join(dir, 'Kptfile'), 'utf8')).not.toContain('inventory:');
    expect(await readFile(path.join(dir, 'resourcegroup.yaml'), 'utf8')).toContain(
      `cli-utils.sigs.k8s.io/inventory-id: ${ns}-kptfile\n`,
    );
    const again = await runCli(['apply', 'legacy', '-n', ns], { cwd });
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('prune');
    expect((await get(rgPath(ns, 'inventory-kptfile'))).body.spec.resources).toHaveLength(1);
  });
});
