import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../src/kube/connect.js';
import { collectSecretValues } from '../../src/preview/redact.js';
import type { PreviewAction } from '../../src/preview/types.js';
import { renderEventsJson } from '../../src/report/events-json.js';
import { renderEventsText } from '../../src/report/events-text.js';
import { renderApplyJobSummary, renderPreviewJobSummary } from '../../src/report/job-summary.js';
import { renderPreviewMarkdown } from '../../src/report/preview-markdown.js';
import { renderPreviewText } from '../../src/report/preview-text.js';
import { adminClient, createNamespace, uniqueName } from '../support/cluster.js';
import { productClient } from '../support/engine.js';
import { inlinePackage, packageCopy } from '../support/packages.js';
import { runPkg } from '../support/run.js';

const cm = (name: string, data = 'color: blue') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  ${data}\n`;
const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: example/web:1
`;

describe('preview', () => {
  let conn: Connection;
  const api = adminClient();
  let ns: string;
  beforeAll(async () => {
    conn = await productClient();
    ns = await createNamespace(api, 'preview');
  });
  afterAll(() => conn.client.close());

  const byAction = (objects: { action: PreviewAction; id: { kind: string; name: string } }[]) =>
    objects.map((o) => `${o.action} ${o.id.kind}/${o.id.name}`).sort();

  it('shows 6 creates for the first preview of wordpress, and changes nothing', async () => {
    const wpNs = await createNamespace(api, 'wpprev');
    const pkg = packageCopy('packages/wordpress', wpNs);
    const { result } = await runPkg(conn, pkg, 'preview', {}, wpNs);
    expect(result.error).toBeUndefined();
    expect(result.preview!.summary).toMatchObject({
      create: 6,
      configure: 0,
      unchanged: 0,
      prune: 0,
      error: 0,
    });
    expect((await api.request('GET', `/api/v1/namespaces/${wpNs}/services/wordpress`)).status).toBe(404);
  });

  it('after an apply, one changed field is one configure whose only +/- lines are that field', async () => {
    const pkg = inlinePackage(ns, { 'web.yaml': deployment(1), 'cm.yaml': cm('settings') });
    expect((await runPkg(conn, pkg, 'apply', {}, ns)).result.exitCode).toBe(0);
    pkg.rewrite({ 'web.yaml': deployment(3), 'cm.yaml': cm('settings') });
    const { result } = await runPkg(conn, pkg, 'preview', {}, ns);
    const doc = result.preview!;
    expect(byAction(doc.objects)).toEqual(['configure Deployment/web', 'unchanged ConfigMap/settings']);
    const web = doc.objects.find((o) => o.id.name === 'web')!;
    expect(web.changes).toEqual([{ path: 'spec.replicas', op: 'change', before: '1', after: '3' }]);
    const changed = web.diff!.split('\n').filter((l) => /^[+-]/.test(l));
    expect(changed).toEqual(['-  replicas: 1', '+  replicas: 3']);
  });

  it("previews the seeds' pruning example as one create and one prune, and apply then does exactly that", async () => {
    // the Service spells out `protocol`: this test also runs on Kubernetes 1.20, whose server-side apply
    // rejects a port without it (current servers default it; the engine does not invent fields)
    const pkg = inlinePackage(ns, {
      'a.yaml': cm('config-map-1'),
      'svc.yaml': `apiVersion: v1\nkind: Service\nmetadata: {name: service-1}\nspec: {ports: [{port: 80, protocol: TCP}]}\n`,
    });
    expect((await runPkg(conn, pkg, 'apply', {}, ns)).result.exitCode).toBe(0);
    pkg.rewrite({
      'b.yaml': cm('config-map-2'),
      'svc.yaml': `apiVersion: v1\nkind: Service\nmetadata: {name: service-1}\nspec: {ports: [{port: 80, protocol: TCP}]}\n`,
    });
    const preview = (await runPkg(conn, pkg, 'preview', {}, ns)).result.preview!;
    expect(byAction(preview.objects)).toEqual([
      'create ConfigMap/config-map-2',
      'prune ConfigMap/config-map-1',
      'unchanged Service/service-1',
    ]);

    const applied = await runPkg(conn, pkg, 'apply', {}, ns);
    const actual = applied.events.flatMap((e) => {
      if (e.type === 'apply' && e.status === 'Successful') {
        const map = {
          created: 'create',
          configured: 'configure',
          unchanged: 'unchanged',
          replaced: 'replace',
          skipped: 'skip',
        } as const;
        return [`${map[e.operation!]} ${e.id.kind}/${e.id.name}`];
      }
      if (e.type === 'prune' && e.status === 'Successful') return [`prune ${e.id.kind}/${e.id.name}`];
      return [];
    });
    expect(actual.sort()).toEqual(byAction(preview.objects));
  });

  it('previews a package that creates its own Namespace and a CRD with custom resources cleanly', async () => {
    const own = uniqueName('ownns');
    const group = `${uniqueName('pv')}.example.com`;
    const pkg = inlinePackage(ns, {
      'ns.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${own}}\n`,
      'cm.yaml': cm('inside').replace('metadata:\n', `metadata:\n  namespace: ${own}\n`),
      'crd.yaml': `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.${group}}
spec:
  group: ${group}
  scope: Namespaced
  names: {kind: Thing, plural: things, singular: thing, listKind: ThingList}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`,
      'thing.yaml': `apiVersion: ${group}/v1\nkind: Thing\nmetadata: {name: t1}\nspec: {size: 2}\n`,
    });
    const { result } = await runPkg(conn, pkg, 'preview', {}, ns);
    expect(result.error).toBeUndefined();
    const doc = result.preview!;
    expect(doc.summary).toMatchObject({ create: 4, error: 0 });
    const inside = doc.objects.find((o) => o.id.name === 'inside')!;
    expect(inside.reason).toBe(`not validated: depends on Namespace/${own} created by this package`);
    const thing = doc.objects.find((o) => o.id.name === 't1')!;
    expect(thing.reason).toBe(
      `not validated: depends on CustomResourceDefinition/things.${group} created by this package`,
    );
    expect(doc.objects.find((o) => o.id.kind === 'Namespace')!.validated).toBe(true);
    // and the apply that follows does it
    const applied = await runPkg(conn, pkg, 'apply', {}, ns);
    expect(applied.result.exitCode).toBe(0);
  });

  it('never shows a Secret value: markdown, text, JSON, summaries, events', async () => {
    const planted = 's3cr3t-planted-value-42';
    const b64 = Buffer.from(planted).toString('base64');
    const secret = (value: string) =>
      `apiVersion: v1\nkind: Secret\nmetadata: {name: db}\ntype: Opaque\nstringData:\n  password: ${value}\n`;
    const pkg = inlinePackage(ns, { 'secret.yaml': secret('first-value-123') });
    const first = await runPkg(conn, pkg, 'apply', {}, ns);
    expect(first.result.exitCode).toBe(0);
    pkg.rewrite({ 'secret.yaml': secret(planted) });
    const { result } = await runPkg(conn, pkg, 'preview', {}, ns);
    const doc = result.preview!;
    const db = doc.objects.find((o) => o.id.name === 'db')!;
    expect(db.action).toBe('configure');
    expect(db.changes).toEqual([expect.objectContaining({ path: 'data.password', redacted: true })]);
    const applied = await runPkg(conn, pkg, 'apply', {}, ns);
    const values = collectSecretValues(applied.result.prepared!.objects.map((o) => o.object));
    const outputs = [
      renderPreviewMarkdown(doc),
      renderPreviewText(doc),
      renderPreviewJobSummary(doc),
      JSON.stringify(doc),
      renderEventsText(applied.events, { secretValues: values }).text,
      renderEventsJson(applied.events, { secretValues: values }).text,
      renderApplyJobSummary({ package: 'pkg', outcome: 'success', durationMs: 1, objects: [] }),
      JSON.stringify(applied.result.run),
    ];
    for (const out of outputs) {
      expect(out).not.toContain(planted);
      expect(out).not.toContain(b64);
    }
    expect(renderPreviewMarkdown(doc)).toContain('password');
  });
});
