import { describe, expect, it } from 'vitest';
import { fieldConflicts } from '../../src/apply/apply-error.js';
import { DefaultConflictSettings } from '../../src/common/conflict-settings.js';
import type { KubeObject } from '../../src/common/kube-object.js';
import { decideOwnership } from '../../src/inventory/field-owners.js';
import type { FieldConflict } from '../../src/inventory/managed-fields.js';
import {
  classifyManagedFields,
  helmReleaseEntry,
  type OwnerContext,
} from '../../src/inventory/owner-class.js';
import { controlPlane, inlinePackage, objectsFromYaml, useCluster } from '../support/harness/index.js';
import { helm, helmCreateChart, helmTemplateRelease } from '../support/helm.js';
import { kubectl, kubectlEdit, kubectlGet } from '../support/kubectl.js';
import { fieldsOf, shapes } from '../support/managed-fields.js';
import { runCli } from './cli-helpers.js';

/**
 * The facts the ownership rule (src/inventory/field-owners.ts) classifies, measured with the real tools a
 * cluster's history comes from: kubectl (at the current server's release) and Helm 3.22.0, then our apply
 * through the CLI. Each step asserts the managedFields entries (manager, operation, subresource) the server
 * records, and what the rule makes of them, on both test servers.
 */

const FM = 'kpt-live-action';
/** Servers before 1.22 record no subresource in managedFields. */
const minor = () => Number(controlPlane().version.split('.')[1]);

const deployment = (extra: { image?: string } = {}) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web, team: red}
  annotations: {note: pkg}
spec:
  replicas: 1
  minReadySeconds: 1
  revisionHistoryLimit: 10
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: "${extra.image ?? 'nginx:1.0'}"}]
`;

describe('field owners: what real kubectl and helm leave, and what the rule makes of it', () => {
  const cluster = useCluster({ namespace: 'owners', connect: true });
  const ctx = (adopting: boolean): OwnerContext => ({
    fieldManager: FM,
    adopting,
    settings: DefaultConflictSettings,
  });

  const get = (kind: string, name: string) => kubectlGet<KubeObject>([kind, name, '-n', cluster.ns]);
  const apply = async (pkg: { dir: string; repo: string }, ...flags: string[]) => {
    const r = await runCli(['apply', pkg.dir, '-n', cluster.ns, '--no-wait', ...flags], { cwd: pkg.repo });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  };
  /** The server's conflicts for an unforced apply of `manifest` by our manager (a dry-run), and the forced answer. */
  const dryRun = async (manifest: KubeObject) => {
    const err = await cluster.conn.client.apply(manifest, { fieldManager: FM, dryRun: true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const conflicts: FieldConflict[] = err ? (fieldConflicts(err) ?? []) : [];
    if (err && conflicts.length === 0) throw err;
    const answer = await cluster.conn.client.apply(manifest, { fieldManager: FM, dryRun: true, force: true });
    return { conflicts, answer };
  };

  it("kubectl's imperative commands write kubectl-<verb> Update entries; kubectl scale writes through the scale subresource (1.20: unrecorded)", async () => {
    await kubectl(['create', 'deployment', 'web', '--image=nginx:1.0', '-n', cluster.ns]);
    expect(shapes(await get('deployment', 'web'))).toEqual(['kubectl-create Update']);

    const pkg = inlinePackage(cluster.ns, { 'web.yaml': deployment() });
    await apply(pkg, '--inventory-policy', 'adopt');
    expect(shapes(await get('deployment', 'web'))).toEqual([`${FM} Apply`, 'kubectl-create Update']);

    const d = ['deployment', 'web', '-n', cluster.ns];
    await kubectl(['patch', ...d, '-p', '{"spec":{"minReadySeconds":5}}']);
    await kubectl(['label', ...d, 'team=blue', '--overwrite']);
    await kubectl(['annotate', ...d, 'note=hand', '--overwrite']);
    await kubectl(['set', 'image', 'deployment/web', 'nginx=nginx:1.1', '-n', cluster.ns]);
    await kubectlEdit(d, 's/revisionHistoryLimit: 10/revisionHistoryLimit: 3/');
    await kubectl(['rollout', 'restart', 'deployment/web', '-n', cluster.ns]);
    await kubectl(['scale', ...d, '--replicas=3']);
    const live = await get('deployment', 'web');
    // 1.20 records no entry for a write through the scale subresource: spec.replicas stays with the managers
    // that last set it (kubectl-create, and us with the same value), so there a conflict names kubectl-create
    const scale = minor() >= 22 ? ['kubectl Update scale'] : [];
    expect(shapes(live)).toEqual(
      [
        `${FM} Apply`,
        'kubectl-annotate Update',
        'kubectl-create Update',
        'kubectl-edit Update',
        'kubectl-label Update',
        'kubectl-patch Update',
        'kubectl-rollout Update',
        'kubectl-set Update',
        ...scale,
      ].sort(),
    );
    expect(fieldsOf(live, 'kubectl-patch Update')).toEqual(['.spec.minReadySeconds']);
    expect(fieldsOf(live, 'kubectl-label Update')).toEqual(['.metadata.labels.team']);
    expect(fieldsOf(live, 'kubectl-annotate Update')).toEqual(['.metadata.annotations.note']);
    expect(fieldsOf(live, 'kubectl-set Update')).toEqual([
      '.spec.template.spec.containers[name="nginx"].image',
    ]);
    expect(fieldsOf(live, 'kubectl-edit Update')).toEqual(['.spec.revisionHistoryLimit']);
    expect(fieldsOf(live, 'kubectl-rollout Update')).toEqual([
      '.spec.template.metadata.annotations',
      '.spec.template.metadata.annotations.kubectl.kubernetes.io/restartedAt',
    ]);
    if (scale.length > 0) expect(fieldsOf(live, 'kubectl Update scale')).toEqual(['.spec.replicas']);

    // the server names each field and manager in its 409, as the rule reads them
    const manifest = objectsFromYaml(deployment(), cluster.ns)[0];
    const { conflicts, answer } = await dryRun(manifest);
    const hand = (field: string, manager: string): FieldConflict => ({ field, manager, operation: 'Update' });
    const expected = [
      hand('.metadata.annotations.note', 'kubectl-annotate'),
      hand('.metadata.labels.team', 'kubectl-label'),
      hand('.spec.minReadySeconds', 'kubectl-patch'),
      hand('.spec.revisionHistoryLimit', 'kubectl-edit'),
      hand('.spec.template.spec.containers[name="nginx"].image', 'kubectl-set'),
      // 1.20 records no manager for the scale: replicas were released to us by the adopting apply (kubectl-
      // create held them with the package's value), so there the scale is ours to set back, no conflict
      ...(scale.length > 0 ? [{ ...hand('.spec.replicas', 'kubectl'), subresource: 'scale' }] : []),
    ];
    const byField = (a: FieldConflict, b: FieldConflict) => a.field.localeCompare(b.field);
    expect([...conflicts].sort(byField)).toEqual(expected.sort(byField));

    // the rule: the hand edits are taken over, kubectl scale's replicas stay a conflict (1.20 records no scale
    // writer: see above), the restart annotation on the pod template (not in the package) is left alone, and so
    // are kubectl-create's fields the package does not set
    const decision = decideOwnership({ live, conflicts, answer, context: ctx(false) });
    const taken = decision.fields.filter((f) => f.outcome === 'take').map((f) => `${f.field} ${f.manager}`);
    expect(taken.sort()).toEqual(
      expected
        .filter((c) => !c.subresource)
        .map((c) => `${c.field} ${c.manager}`)
        .sort(),
    );
    expect(decision.blocking.map((f) => f.field)).toEqual(scale.length > 0 ? ['.spec.replicas'] : []);
    // kubectl-create's fields with the package's value were released by the adopting apply already
    const released = decision.fields.filter((f) => f.outcome === 'release');
    expect(released).toEqual([]);
    const packageSets = fieldsOf(answer, `${FM} Apply`);
    for (const f of decision.fields) expect(packageSets).toContain(f.field);
    expect(decision.fields.map((f) => f.field)).not.toContain('.spec.progressDeadlineSeconds');
  });

  it('kubectl apply (client-side), kubectl apply --server-side and before-first-apply, before and after our adopting apply', async () => {
    const cm = (name: string, data: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "1"\n${data}`;
    await kubectl(['apply', '-n', cluster.ns, '-f', '-'], { input: cm('csa', '') });
    await kubectl(['apply', '--server-side', '-n', cluster.ns, '-f', '-'], { input: cm('ssa', '') });
    await kubectl(['create', 'configmap', 'bfa', '--from-literal=a=1', '-n', cluster.ns]);
    // an object written before server-side apply tracked fields (or stripped, as the server documents)
    await kubectl([
      'patch',
      'configmap',
      'bfa',
      '-n',
      cluster.ns,
      '--type=json',
      '-p',
      '[{"op":"replace","path":"/metadata/managedFields","value":[{}]}]',
    ]);
    const [csa, ssa, bfa] = await Promise.all(['csa', 'ssa', 'bfa'].map((n) => get('configmap', n)));
    expect(shapes(csa)).toEqual(['kubectl-client-side-apply Update']);
    expect(csa.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toBeDefined();
    expect(shapes(ssa)).toEqual(['kubectl Apply']);
    expect(shapes(bfa)).toEqual([]);
    const classes = (o: KubeObject, adopting: boolean) =>
      classifyManagedFields(o, ctx(adopting)).map((m) => `${m.manager} ${m.class}`);
    expect(classes(csa, true)).toEqual(['kubectl-client-side-apply ours']);
    expect(classes(ssa, true)).toEqual(['kubectl previous-owner']);
    expect(classes(ssa, false)).toEqual(['kubectl co-owner']);

    const pkg = inlinePackage(cluster.ns, {
      'cms.yaml': [cm('csa', ''), cm('ssa', ''), cm('bfa', '  b: "x"\n')].join('---\n'),
    });
    await apply(pkg, '--inventory-policy', 'adopt');
    const after = await Promise.all(['csa', 'ssa', 'bfa'].map((n) => get('configmap', n)));
    // adopted: kubectl's client-side fields move to us whole, the previous server-side owner's are released,
    // and before-first-apply's field with the package's value is released too (a hand edit, same value)
    expect(shapes(after[0])).toEqual([`${FM} Apply`]);
    expect(shapes(after[1])).toEqual([`${FM} Apply`]);
    expect(fieldsOf(after[1], `${FM} Apply`)).toEqual(expect.arrayContaining(['.data.a']));
    expect(fieldsOf(after[2], `${FM} Apply`)).toEqual(expect.arrayContaining(['.data.a', '.data.b']));
    // the server writes before-first-apply at our first apply (it held what the object had before): the
    // next apply releases its field with the package's value, as a hand edit's
    expect(fieldsOf(after[2], 'before-first-apply Update')).toEqual(['.data', '.data.a']);
    expect(classes(after[2], false)).toContain('before-first-apply hand-edit');
    await apply(pkg);
    expect(shapes(await get('configmap', 'bfa'))).toEqual([`${FM} Apply`]);
  });

  it("helm install: manager helm (Update) owns the release's annotations; adopting the rendered release releases its fields, and a label dropped from the package then leaves the object", async () => {
    const chart = await helmCreateChart('web');
    await helm(['install', 'shop', chart, '-n', cluster.ns, '--set', 'replicaCount=2']);
    const live = await get('deployment', 'shop-web');
    expect(shapes(live)).toEqual(['helm Update']);
    expect(shapes(await get('service', 'shop-web'))).toEqual(['helm Update']);
    expect(shapes(await get('serviceaccount', 'shop-web'))).toEqual(['helm Update']);
    expect(live.metadata.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'Helm' });
    expect(live.metadata.annotations).toMatchObject({
      'meta.helm.sh/release-name': 'shop',
      'meta.helm.sh/release-namespace': cluster.ns,
    });
    expect(helmReleaseEntry(live)?.manager).toBe('helm');

    const rendered = await helmTemplateRelease('shop', cluster.ns, chart);
    const manifest = objectsFromYaml(rendered, cluster.ns).find((o) => o.kind === 'Deployment')!;
    expect(manifest.spec).toMatchObject({ replicas: 2 });
    const { conflicts, answer } = await dryRun(manifest);
    expect(conflicts).toEqual([]);
    const decision = decideOwnership({ live, conflicts, answer, context: ctx(true) });
    expect(decision.blocking).toEqual([]);
    expect(new Set(decision.fields.map((f) => `${f.manager} ${f.class} ${f.outcome}`))).toEqual(
      new Set(['helm previous-owner release']),
    );
    const released = decision.fields.map((f) => f.field);
    expect(released).toContain('.metadata.labels.app.kubernetes.io/version');
    expect(released).toContain('.spec.replicas');
    expect(released).not.toContain('.metadata.annotations.meta.helm.sh/release-name');

    // carrying it out: the managedFields rewrite, sent only onto the resourceVersion it was computed from
    const ref = {
      apiVersion: 'apps/v1',
      group: 'apps',
      kind: 'Deployment',
      namespace: cluster.ns,
      name: 'shop-web',
    };
    const ops = [
      { op: 'test', path: '/metadata/resourceVersion', value: live.metadata.resourceVersion },
      { op: 'replace', path: '/metadata/managedFields', value: decision.managedFields },
    ];
    const rewritten = await cluster.conn.client.jsonPatch(ref, ops);
    expect(fieldsOf(rewritten, 'helm Update')).toContain('.metadata.annotations.meta.helm.sh/release-name');
    expect(fieldsOf(rewritten, 'helm Update')).not.toContain('.metadata.labels.app.kubernetes.io/version');
    // the same patch again: the resourceVersion it tests is gone (the server answers 422)
    const stale = await cluster.conn.client.jsonPatch(ref, ops).then(
      () => 0,
      (e: { code?: number }) => e.code,
    );
    expect(stale).toBe(422);

    const pkg = inlinePackage(cluster.ns, { 'release.yaml': rendered });
    await apply(pkg, '--inventory-policy', 'adopt');
    // the Deployment's own label (its pod template and the other objects keep theirs)
    const docs = rendered.split(/^---$/m);
    const at = docs.findIndex((d) => /^kind: Deployment$/m.test(d));
    docs[at] = docs[at].replace(/^ {4}app\.kubernetes\.io\/version: .*\n/m, '');
    pkg.rewrite({ 'release.yaml': docs.join('---') });
    await apply(pkg);
    const final = await get('deployment', 'shop-web');
    expect(final.metadata.labels).not.toHaveProperty('app.kubernetes.io/version');
    expect(final.metadata.annotations).toMatchObject({ 'meta.helm.sh/release-name': 'shop' });

    // the migration's last step: Helm forgets the release (its storage Secrets), the objects stay
    expect((await helm(['list', '-n', cluster.ns, '-q'])).stdout.trim()).toBe('shop');
    await kubectl(['delete', 'secret', '-n', cluster.ns, '-l', 'owner=helm,name=shop']);
    expect((await helm(['list', '-n', cluster.ns, '-q'])).stdout.trim()).toBe('');
    expect((await get('deployment', 'shop-web')).metadata.uid).toBe(final.metadata.uid);
  });

  it('a forced apply that carries a stale resourceVersion is refused (409) and changes nothing', async () => {
    await kubectl(['create', 'configmap', 'rv', '--from-literal=a=1', '-n', cluster.ns]);
    const before = await get('configmap', 'rv');
    await kubectl(['patch', 'configmap', 'rv', '-n', cluster.ns, '-p', '{"data":{"a":"2"}}']);
    const manifest = objectsFromYaml(
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: rv\n  resourceVersion: "${before.metadata.resourceVersion}"\ndata:\n  a: "1"\n`,
      cluster.ns,
    )[0];
    const code = await cluster.conn.client.apply(manifest, { fieldManager: FM, force: true }).then(
      () => 0,
      (e: { code?: number }) => e.code,
    );
    expect(code).toBe(409);
    expect((await get('configmap', 'rv')).data).toEqual({ a: '2' });
    const current = await get('configmap', 'rv');
    manifest.metadata.resourceVersion = current.metadata.resourceVersion;
    const taken = await cluster.conn.client.apply(manifest, { fieldManager: FM, force: true });
    expect(taken.data).toEqual({ a: '1' });
    expect(shapes(taken)).toEqual([`${FM} Apply`, 'kubectl-create Update']);
    expect(fieldsOf(taken, 'kubectl-create Update')).toEqual(['.data']);
  });
});
