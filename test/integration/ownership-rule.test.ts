import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/common/kube-object.js';
import type { Connection } from '../../src/kube/connect.js';
import { previewThenApply } from '../support/brownfield-matrix.js';
import { controlPlane, inlinePackage, type Obj, useCluster } from '../support/harness/index.js';
import { helm, helmCreateChart, helmTemplateRelease } from '../support/helm.js';
import { kubectl, kubectlEdit, kubectlGet } from '../support/kubectl.js';
import { runPkg } from '../support/run.js';

/**
 * The ownership rule end to end, from the states real tools leave: kubectl's hand edits on objects we
 * applied are reverted by the next apply (the preview says so, naming who made each edit), fields the
 * package does not set stay as the edits left them, fields a controller or `kubectl scale` holds are never
 * taken, a field dropped from the package leaves the object; a Helm release adopted into a package hands
 * its fields over, so a label the package later drops leaves too. Each step previews, then applies, and
 * checks that apply did what the preview said (previewThenApply).
 */

const minor = () => Number(controlPlane().version.split('.')[1]);

const configMap = (debug: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: wp-config
data:
  WORDPRESS_DEBUG: "${debug}"
  WORDPRESS_DB_HOST: mysql
`;

/** No `replicas`: an autoscaler (or `kubectl scale`) owns them. */
const deployment = (opts: { tier?: string; image?: string } = {}) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web${opts.tier ? `\n    tier: ${opts.tier}` : ''}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: app
          image: ${opts.image ?? 'example/web:1'}
`;

describe('the ownership rule: hand edits are reverted, adopted objects are fully owned', () => {
  const cluster = useCluster({ namespace: 'owner-rule', connect: true });

  const get = (kind: string, name: string) => kubectlGet<KubeObject>([kind, name, '-n', cluster.ns]);
  const ownershipNotes = (step: Awaited<ReturnType<typeof previewThenApply>>, kind: string) =>
    step.preview.objects.find((o) => o.id.kind === kind)?.ownership ?? [];

  it('hotfix by hand, then the next merge: edits of fields the package sets are reverted, the rest is left', async () => {
    const pkg = inlinePackage(cluster.ns, {
      'cm.yaml': configMap('false'),
      'web.yaml': deployment({ tier: 'web' }),
    });
    expect((await previewThenApply(cluster.conn, pkg, cluster.ns)).apply.exitCode).toBe(0);

    // the hotfix: kubectl's imperative commands, as a person on call runs them
    await kubectl([
      'patch',
      'configmap',
      'wp-config',
      '-n',
      cluster.ns,
      '-p',
      '{"data":{"WORDPRESS_DEBUG":"true"}}',
    ]);
    await kubectl(['label', 'configmap', 'wp-config', '-n', cluster.ns, 'hotfix=yes']);
    await kubectl(['label', 'deployment', 'web', '-n', cluster.ns, 'tier=hot', '--overwrite']);
    await kubectl(['annotate', 'deployment', 'web', '-n', cluster.ns, 'note=by-hand']);
    await kubectl(['set', 'image', 'deployment/web', 'app=example/web:hotfix', '-n', cluster.ns]);
    await kubectl(['scale', 'deployment', 'web', '-n', cluster.ns, '--replicas=3']);

    // the next merge: the preview says what apply reverts and whose edit it was; apply does exactly that
    const merge = await previewThenApply(cluster.conn, pkg, cluster.ns);
    expect(merge.promised).toEqual(['ConfigMap/wp-config configured', 'Deployment/web configured']);
    expect(ownershipNotes(merge, 'ConfigMap')).toEqual([
      '.data.WORDPRESS_DEBUG: "true" → "false", reverts an edit by kubectl-patch',
    ]);
    expect(ownershipNotes(merge, 'Deployment')).toEqual(
      expect.arrayContaining([
        '.metadata.labels.tier: "hot" → "web", reverts an edit by kubectl-label',
        '.spec.template.spec.containers[name="app"].image: "example/web:hotfix" → "example/web:1", reverts an edit by kubectl-set',
      ]),
    );
    const cm = await get('configmap', 'wp-config');
    const web = await get('deployment', 'web');
    expect(cm.data).toEqual({ WORDPRESS_DEBUG: 'false', WORDPRESS_DB_HOST: 'mysql' });
    expect(web.metadata.labels).toMatchObject({ tier: 'web' });
    expect((web.spec as Obj).template.spec.containers[0].image).toBe('example/web:1');
    // what the package does not set is left as the edits made it; replicas are the scaler's
    expect(cm.metadata.labels).toMatchObject({ hotfix: 'yes' });
    expect(web.metadata.annotations).toMatchObject({ note: 'by-hand' });
    expect((web.spec as Obj).replicas).toBe(3);

    // the re-preview right after apply: nothing to do
    const again = await previewThenApply(cluster.conn, pkg, cluster.ns);
    expect(again.promised).toEqual(['ConfigMap/wp-config unchanged', 'Deployment/web unchanged']);

    // a field later dropped from the package leaves the object: the edit's manager no longer holds it
    pkg.rewrite({ 'cm.yaml': configMap('false'), 'web.yaml': deployment() });
    expect((await previewThenApply(cluster.conn, pkg, cluster.ns)).promised).toEqual([
      'ConfigMap/wp-config unchanged',
      'Deployment/web configured',
    ]);
    expect((await get('deployment', 'web')).metadata.labels?.tier).toBeUndefined();
  });

  it('kubectl edit and rollout restart: the edit is reverted, the restart annotation stays (no new rollout)', async () => {
    const pkg = inlinePackage(cluster.ns, { 'web.yaml': deployment().replaceAll('web', 'api') });
    expect((await previewThenApply(cluster.conn, pkg, cluster.ns)).apply.exitCode).toBe(0);
    await kubectl(['rollout', 'restart', 'deployment/api', '-n', cluster.ns]);
    await kubectlEdit(['deployment', 'api', '-n', cluster.ns], 's#example/api:1#example/api:edited#');
    const before = await get('deployment', 'api');
    const step = await previewThenApply(cluster.conn, pkg, cluster.ns);
    expect(step.promised).toEqual(['Deployment/api configured']);
    expect(ownershipNotes(step, 'Deployment').join('\n')).toContain('reverts an edit by kubectl-edit');
    const after = await get('deployment', 'api');
    const restartedAt = 'kubectl.kubernetes.io/restartedAt';
    const annotations = (o: KubeObject) => (o.spec as Obj).template.metadata.annotations ?? {};
    expect(annotations(after)[restartedAt]).toBe(annotations(before)[restartedAt]);
    expect((after.spec as Obj).template.spec.containers[0].image).toBe('example/api:1');
  });

  it('a co-owner (another server-side applier) keeps its field: the apply fails naming it and the fix; drift says the same', async () => {
    const pkg = inlinePackage(cluster.ns, { 'cm.yaml': configMap('false').replace('wp-config', 'shared') });
    expect((await previewThenApply(cluster.conn, pkg, cluster.ns)).apply.exitCode).toBe(0);
    await kubectl(
      [
        'apply',
        '--server-side',
        '--force-conflicts',
        '--field-manager=other-tool',
        '-n',
        cluster.ns,
        '-f',
        '-',
      ],
      { input: configMap('true').replace('wp-config', 'shared') },
    );
    const step = await previewThenApply(cluster.conn, pkg, cluster.ns);
    expect(step.promised).toEqual(['ConfigMap/shared failed']);
    expect(step.message).toContain('.data.WORDPRESS_DEBUG is owned by field manager "other-tool"');
    // drift: a co-owner's field is not drift
    const drift = await runPkgDrift(cluster.conn, pkg, cluster.ns);
    expect(drift).toEqual([]);
  });

  it('hand edits are configure drift, naming who made them', async () => {
    const pkg = inlinePackage(cluster.ns, { 'cm.yaml': configMap('false').replace('wp-config', 'drifty') });
    expect((await previewThenApply(cluster.conn, pkg, cluster.ns)).apply.exitCode).toBe(0);
    await kubectl([
      'patch',
      'configmap',
      'drifty',
      '-n',
      cluster.ns,
      '-p',
      '{"data":{"WORDPRESS_DEBUG":"true"}}',
    ]);
    await kubectl(['label', 'configmap', 'drifty', '-n', cluster.ns, 'extra=yes']);
    const drift = await runPkgDrift(cluster.conn, pkg, cluster.ns);
    expect(drift).toEqual([
      expect.objectContaining({
        drift: 'configure',
        message: expect.stringContaining('reverts an edit by kubectl-patch'),
      }),
    ]);
  });

  it('a Helm release adopted into a package: its fields are handed over, a label dropped later leaves', async () => {
    const chart = await helmCreateChart('shop');
    await helm(['install', 'shop', chart, '-n', cluster.ns, '--set', 'serviceAccount.create=false']);
    const rendered = await helmTemplateRelease('shop', cluster.ns, chart);
    const pkg = inlinePackage(cluster.ns, { 'release.yaml': rendered });
    const adopted = await previewThenApply(cluster.conn, pkg, cluster.ns, { inventoryPolicy: 'adopt' });
    expect(adopted.apply.exitCode).toBe(0);
    expect(ownershipNotes(adopted, 'Deployment').join('\n')).toMatch(/released by helm, its previous owner/);
    // the release's storage is deleted, never `helm uninstall` (it would delete the package's objects)
    await kubectl(['delete', 'secret', '-n', cluster.ns, '-l', 'owner=helm,name=shop']);
    expect(
      (await previewThenApply(cluster.conn, pkg, cluster.ns)).promised.every((l) => l.endsWith(' unchanged')),
    ).toBe(true);

    // the package drops the chart label from the Deployment: it leaves the live object
    const dropped = rendered.replace(
      /\n(\s+)helm\.sh\/chart: [^\n]+(\n\s+app\.kubernetes\.io\/name: shop\n\s+app\.kubernetes\.io\/instance: shop\n\s+app\.kubernetes\.io\/version: [^\n]+\n\s+app\.kubernetes\.io\/managed-by: Helm\n)(?=spec:\n {2}replicas)/,
      '\n$2',
    );
    expect(dropped).not.toBe(rendered);
    pkg.rewrite({ 'release.yaml': dropped });
    const step = await previewThenApply(cluster.conn, pkg, cluster.ns);
    expect(step.promised).toContain('Deployment/shop configured');
    const live = await get('deployment', 'shop');
    expect(live.metadata.labels?.['helm.sh/chart']).toBeUndefined();
    expect(live.metadata.labels?.['app.kubernetes.io/managed-by']).toBe('Helm');
    expect(
      (await previewThenApply(cluster.conn, pkg, cluster.ns)).promised.every((l) => l.endsWith(' unchanged')),
    ).toBe(true);
    // the objects stay listed by the package's inventory, which our status (and kpt's) reads
    const status = await runPkg(cluster.conn, pkg, 'status', {}, cluster.ns);
    expect(status.result.status?.map((s) => s.id.kind).sort()).toContain('Deployment');
    expect(minor()).toBeGreaterThanOrEqual(20);
  });
});

async function runPkgDrift(conn: Connection, pkg: { repo: string; rel: string }, ns: string) {
  const { runDriftPackage } = await import('../../src/pipeline/drift-package.js');
  const { defaultRunOptions } = await import('../../src/apply/run-options.js');
  const r = await runDriftPackage(conn.client, pkg.rel, {
    repoRoot: pkg.repo,
    defaultNamespace: ns,
    options: defaultRunOptions({ reconcileTimeoutMs: 30_000 }),
  });
  expect(r.outcome, r.error).not.toBe('error');
  return r.objects;
}
