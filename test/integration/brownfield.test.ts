import { describe, expect, it } from 'vitest';
import {
  helmApply,
  kptLiveApply,
  kubectlApply,
  kubectlApplyServerSide,
  managers,
  objectPath,
  scale,
} from '../support/brownfield.js';
import { expectGolden, previewThenApply } from '../support/brownfield-matrix.js';
import { inlinePackage, type Obj, objectsFromYaml, useCluster } from '../support/harness/index.js';

/**
 * Brownfield clusters: objects that kpt, kubectl, Helm or a controller wrote before this tool manages
 * them, each state made with the requests the real tool sends (test/support/brownfield.ts). For every
 * scenario the preview's action for each object is apply's outcome (previewThenApply asserts it), and an
 * apply that cannot go on fails naming the object, the field, the manager and the fix. One PR-comment
 * golden per scenario: test/golden/brownfield/.
 */

// the scenarios' objects as YAML text: the goldens in test/golden/brownfield render them, names and all
// (`.replaceAll('web', 'kc')` renames a whole scenario)
const deployment = (
  replicas: number | undefined,
  image = 'example/web:1',
  extraLabels = '',
  env = '',
) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web${extraLabels}
spec:
${replicas === undefined ? '' : `  replicas: ${replicas}\n`}  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: ${image}
${env}`;
const configMap = (name: string, data: Record<string, string>) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: "${v}"\n`)
    .join('')}`;

describe('brownfield: objects other tools wrote first', () => {
  const cluster = useCluster({ namespace: 'brownfield', connect: true });
  const { api } = cluster;

  const get = async (kind: 'configmaps' | 'deployments', name: string) => {
    const group = kind === 'deployments' ? '/apis/apps/v1' : '/api/v1';
    return (await api.request<Obj>('GET', `${group}/namespaces/${cluster.ns}/${kind}/${name}`)).body;
  };

  it('last applied by `kpt live apply` (client-side): change, remove a field, prune, add', async () => {
    const env = (names: string[]) =>
      `        env:\n${names.map((n) => `        - {name: ${n}, value: "1"}\n`).join('')}`;
    const files = {
      'web.yaml': deployment(1, undefined, '', env(['A', 'B'])),
      'settings.yaml': configMap('settings', { a: '1', b: '2' }),
      'old.yaml': configMap('old', { x: '1' }),
    };
    const pkg = inlinePackage(cluster.ns, files);
    await kptLiveApply(api, objectsFromYaml(Object.values(files).join('---\n'), cluster.ns), pkg.inventory);
    expect(await managers(api, objectsFromYaml(files['web.yaml'], cluster.ns)[0])).toContain(
      'kubectl/Update',
    );

    pkg.rewrite({
      // a list item removed in the same step as the takeover
      'web.yaml': deployment(2, undefined, '', env(['A'])),
      'settings.yaml': configMap('settings', { a: '1' }),
      'new.yaml': configMap('new', { y: '1' }),
    });
    const step = await previewThenApply(cluster.conn, pkg, cluster.ns);
    expect(step.promised).toEqual([
      'ConfigMap/new created',
      'ConfigMap/old pruned',
      'ConfigMap/settings configured',
      'Deployment/web configured',
    ]);
    const changes = (name: string) =>
      step.preview.objects.find((o) => o.id.name === name)?.changes?.map((c) => `${c.op} ${c.path}`);
    // exactly the package's changes: the takeover's own bookkeeping is not a change a reviewer sees
    expect(changes('web')).toEqual([
      'change spec.replicas',
      'remove spec.template.spec.containers[0].env[1]',
    ]);
    expect(changes('settings')).toEqual(['remove data.b']);
    expect(step.apply.exitCode).toBe(0);
    const web = await get('deployments', 'web');
    expect(web.spec.replicas).toBe(2);
    expect(web.spec.template.spec.containers[0].env).toEqual([{ name: 'A', value: '1' }]);
    expect((await get('configmaps', 'settings')).data).toEqual({ a: '1' });
    expect((await api.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/old`)).status).toBe(404);
    expect(
      (await managers(api, objectsFromYaml(files['web.yaml'], cluster.ns)[0])).filter((m) =>
        m.startsWith('kubectl'),
      ),
    ).toEqual([]);
    expectGolden('kpt-client-side', step.preview, {
      [cluster.ns]: 'NAMESPACE',
      [pkg.inventory.name]: 'INVENTORY',
    });

    // and again: nothing left to take over, nothing to do
    const again = await previewThenApply(cluster.conn, pkg, cluster.ns);
    expect(again.promised.every((l) => l.endsWith(' unchanged'))).toBe(true);
  });

  it('last applied by `kubectl apply` (client-side), no inventory, adopted: change a field', async () => {
    const pkg = inlinePackage(cluster.ns, { 'web.yaml': deployment(1).replaceAll('web', 'kc') });
    const [obj] = objectsFromYaml(deployment(1).replaceAll('web', 'kc'), cluster.ns);
    await kubectlApply(api, obj);
    expect(await managers(api, obj)).toContain('kubectl-client-side-apply/Update');
    pkg.rewrite({ 'web.yaml': deployment(1, 'example/web:2').replaceAll('web', 'kc') });

    const strict = await previewThenApply(cluster.conn, pkg, cluster.ns);
    expect(strict.promised).toEqual(['Deployment/kc skipped']);
    expect(strict.message).toMatch(/not owned by any inventory/);

    const step = await previewThenApply(cluster.conn, pkg, cluster.ns, { inventoryPolicy: 'adopt' });
    expect(step.promised).toEqual(['Deployment/kc configured']);
    expect(step.preview.objects[0].changes?.map((c) => c.path)).toEqual([
      // kubectl's last-applied annotation is not shown (it only mirrors the manifest): ours is the only one
      'metadata.annotations',
      'spec.template.spec.containers[0].image',
    ]);
    expect(step.apply.exitCode).toBe(0);
    expect((await get('deployments', 'kc')).spec.template.spec.containers[0].image).toBe('example/kc:2');
    expectGolden('kubectl-client-side', step.preview, {
      [cluster.ns]: 'NAMESPACE',
      [pkg.inventory.name]: 'INVENTORY',
    });
  });

  it('last applied by `kubectl apply --server-side`, adopted: its fields become ours; a later server-side apply by hand is a named conflict, force-conflicts takes it', async () => {
    const pkg = inlinePackage(cluster.ns, { 'cm.yaml': configMap('ssa', { a: '1', b: '1' }) });
    const [obj] = objectsFromYaml(configMap('ssa', { a: '1', b: '1' }), cluster.ns);
    await kubectlApplyServerSide(api, obj);

    // adopted: kubectl was the object's previous owner, so its fields are released to us
    const adopted = await previewThenApply(cluster.conn, pkg, cluster.ns, { inventoryPolicy: 'adopt' });
    expect(adopted.promised).toEqual(['ConfigMap/ssa configured']);
    expect(adopted.preview.objects[0].ownership?.join('\n')).toMatch(
      /released by kubectl, its previous owner/,
    );
    expect(await managers(api, obj)).toEqual(['kpt-live-action/Apply']);
    // a field later dropped from the package leaves the object: nobody else holds it now
    pkg.rewrite({ 'cm.yaml': configMap('ssa', { a: '1' }) });
    expect((await previewThenApply(cluster.conn, pkg, cluster.ns)).promised).toEqual([
      'ConfigMap/ssa configured',
    ]);
    expect((await get('configmaps', 'ssa')).data).toEqual({ a: '1' });

    // another server-side applier is a co-owner: a different value is a conflict, named with its fix
    await kubectlApplyServerSide(api, { ...obj, data: { a: '9' } }, { force: true });
    pkg.rewrite({ 'cm.yaml': configMap('ssa', { a: '2' }) });
    const conflict = await previewThenApply(cluster.conn, pkg, cluster.ns);
    expect(conflict.promised).toEqual(['ConfigMap/ssa failed']);
    expect(conflict.apply.exitCode).toBe(1);
    expect(conflict.message).toContain(
      'ConfigMap/ssa: conflict: 1 field of the package is owned by another field manager: .data.a is owned by field manager "kubectl" (a server-side apply)',
    );
    expect(conflict.message).toMatch(/remove the field from the package .* conflicts: force/);
    expect(conflict.message).not.toMatch(/could not complete|did not answer|unreachable/);
    expect(conflict.preview.objects[0].reason).toContain('.data.a is owned by field manager "kubectl"');
    expectGolden('kubectl-server-side-conflict', conflict.preview, {
      [cluster.ns]: 'NAMESPACE',
      [pkg.inventory.name]: 'INVENTORY',
    });

    const forced = await previewThenApply(cluster.conn, pkg, cluster.ns, { forceConflicts: true });
    expect(forced.promised).toEqual(['ConfigMap/ssa configured']);
    expect((await get('configmaps', 'ssa')).data).toEqual({ a: '2' });
  });

  it('managed by Helm, adopted: the release hands its fields over; a change applies, a dropped label leaves', async () => {
    const yaml = (replicas: number, label = '') =>
      deployment(replicas, 'example/web:1', label).replaceAll('web', 'hm');
    const pkg = inlinePackage(cluster.ns, { 'web.yaml': yaml(1, '\n    team: shop') });
    const [obj] = objectsFromYaml(yaml(1), cluster.ns);
    await helmApply(api, obj, 'hm');
    expect(await managers(api, obj)).toContain('helm/Update');

    const adopted = await previewThenApply(cluster.conn, pkg, cluster.ns, { inventoryPolicy: 'adopt' });
    expect(adopted.promised).toEqual(['Deployment/hm configured']);
    const live = await get('deployments', 'hm');
    expect(live.metadata.labels).toMatchObject({ team: 'shop', 'app.kubernetes.io/managed-by': 'Helm' });
    expectGolden('helm-adopt', adopted.preview, {
      [cluster.ns]: 'NAMESPACE',
      [pkg.inventory.name]: 'INVENTORY',
    });

    // helm no longer holds what the package sets: a change applies, and a label the package drops leaves
    pkg.rewrite({ 'web.yaml': yaml(3) });
    const changed = await previewThenApply(cluster.conn, pkg, cluster.ns);
    expect(changed.promised).toEqual(['Deployment/hm configured']);
    const after = await get('deployments', 'hm');
    expect(after.spec.replicas).toBe(3);
    expect(after.metadata.labels.team).toBeUndefined();
    // what helm set and the package does not (its managed-by label) is left alone
    expect(after.metadata.labels['app.kubernetes.io/managed-by']).toBe('Helm');
    expect((await previewThenApply(cluster.conn, pkg, cluster.ns)).promised).toEqual([
      'Deployment/hm unchanged',
    ]);
  });

  it('spec.replicas written through the scale subresource (as an autoscaler does)', async () => {
    const yaml = (replicas?: number) => deployment(replicas).replaceAll('web', 'sc');
    const pkg = inlinePackage(cluster.ns, { 'web.yaml': yaml(1) });
    const [obj] = objectsFromYaml(yaml(1), cluster.ns);
    expect((await previewThenApply(cluster.conn, pkg, cluster.ns)).promised).toEqual([
      'Deployment/sc created',
    ]);
    await scale(api, obj, 3);
    const recorded = (await managers(api, obj)).includes('kube-controller-manager/Update/scale');

    const step = await previewThenApply(cluster.conn, pkg, cluster.ns);
    if (recorded) {
      // current servers record the scale writer: the field is the autoscaler's now
      expect(step.promised).toEqual(['Deployment/sc failed']);
      expect(step.message).toContain(
        '.spec.replicas is owned by field manager "kube-controller-manager" through the scale subresource',
      );
      expectGolden('scale-subresource', step.preview, {
        [cluster.ns]: 'NAMESPACE',
        [pkg.inventory.name]: 'INVENTORY',
      });
      // the fix the message names: leave replicas to the autoscaler
      pkg.rewrite({ 'web.yaml': yaml(undefined) });
      const dropped = await previewThenApply(cluster.conn, pkg, cluster.ns);
      expect(dropped.apply.exitCode).toBe(0);
      expect((await get('deployments', 'sc')).spec.replicas).toBe(3);
    } else {
      // Kubernetes 1.20 records no entry for a scale write: replicas stay ours, and the apply sets them back
      expect(step.promised).toEqual(['Deployment/sc configured']);
      expect((await get('deployments', 'sc')).spec.replicas).toBe(1);
    }
  });

  it('first applied by `kpt live apply --server-side`', async () => {
    const files = { 'cm.yaml': configMap('kss', { a: '1', b: '2' }) };
    const pkg = inlinePackage(cluster.ns, files);
    const objects = objectsFromYaml(files['cm.yaml'], cluster.ns);
    await kptLiveApply(api, objects, pkg.inventory, { serverSide: true });
    expect(await managers(api, objects[0])).toEqual(['kubectl/Apply']);

    const same = await previewThenApply(cluster.conn, pkg, cluster.ns);
    expect(same.promised).toEqual(['ConfigMap/kss configured']);

    pkg.rewrite({ 'cm.yaml': configMap('kss', { a: '1', b: '3' }) });
    const conflict = await previewThenApply(cluster.conn, pkg, cluster.ns);
    expect(conflict.promised).toEqual(['ConfigMap/kss failed']);
    expect(conflict.message).toContain('.data.b is owned by field manager "kubectl" (a server-side apply)');
    expectGolden('kpt-server-side-conflict', conflict.preview, {
      [cluster.ns]: 'NAMESPACE',
      [pkg.inventory.name]: 'INVENTORY',
    });
    const forced = await previewThenApply(cluster.conn, pkg, cluster.ns, { forceConflicts: true });
    expect(forced.promised).toEqual(['ConfigMap/kss configured']);
    expect((await api.request<Obj>('GET', objectPath(objects[0]))).body.data).toEqual({ a: '1', b: '3' });
  });
});
