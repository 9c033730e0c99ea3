import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/common/kube-object.js';
import { collectSecretValues } from '../../src/preview/redact.js';
import type { PreviewAction } from '../../src/preview/types.js';
import { renderEventsJson } from '../../src/report/events-json.js';
import { renderEventsText } from '../../src/report/events-text.js';
import { renderApplyJobSummary, renderPreviewJobSummary } from '../../src/report/job-summary.js';
import { renderPreviewMarkdown } from '../../src/report/preview-markdown.js';
import { renderPreviewText } from '../../src/report/preview-text.js';
import {
  configMap,
  crd,
  customResource,
  deployment,
  inlinePackage,
  namespace,
  packageCopy,
  secret,
  uniqueName,
  useCluster,
} from '../support/harness/index.js';
import { runPkg } from '../support/run.js';

const cm = (name: string, namespace?: string) => configMap(name, { color: 'blue' }, { namespace });
const webDeployment = (replicas: number) => deployment('web', { replicas, image: 'example/web:1' });
// the Service spells out `protocol`: this test also runs on Kubernetes 1.20, whose server-side apply
// rejects a port without it (current servers default it; the engine does not invent fields)
const service1: KubeObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'service-1' },
  spec: { ports: [{ port: 80, protocol: 'TCP' }] },
};

describe('preview', () => {
  const cluster = useCluster({ namespace: 'preview', connect: true });
  const { api } = cluster;

  const byAction = (objects: { action: PreviewAction; id: { kind: string; name: string } }[]) =>
    objects.map((o) => `${o.action} ${o.id.kind}/${o.id.name}`).sort();

  it('shows 6 creates for the first preview of wordpress, and changes nothing', async () => {
    const wpNs = await cluster.namespace('wpprev');
    const pkg = packageCopy('packages/wordpress', wpNs);
    const { result } = await runPkg(cluster.conn, pkg, 'preview', {}, wpNs);
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
    const pkg = inlinePackage(cluster.ns, { 'web.yaml': webDeployment(1), 'cm.yaml': cm('settings') });
    expect((await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
    pkg.rewrite({ 'web.yaml': webDeployment(3), 'cm.yaml': cm('settings') });
    const { result } = await runPkg(cluster.conn, pkg, 'preview', {}, cluster.ns);
    const doc = result.preview!;
    expect(byAction(doc.objects)).toEqual(['configure Deployment/web', 'unchanged ConfigMap/settings']);
    const web = doc.objects.find((o) => o.id.name === 'web')!;
    expect(web.changes).toEqual([{ path: 'spec.replicas', op: 'change', before: '1', after: '3' }]);
    const changed = web.diff!.split('\n').filter((l) => /^[+-]/.test(l));
    expect(changed).toEqual(['-  replicas: 1', '+  replicas: 3']);
  });

  it("previews the seeds' pruning example as one create and one prune, and apply then does exactly that", async () => {
    const pkg = inlinePackage(cluster.ns, {
      'a.yaml': cm('config-map-1'),
      'svc.yaml': service1,
    });
    expect((await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
    pkg.rewrite({
      'b.yaml': cm('config-map-2'),
      'svc.yaml': service1,
    });
    const preview = (await runPkg(cluster.conn, pkg, 'preview', {}, cluster.ns)).result.preview!;
    expect(byAction(preview.objects)).toEqual([
      'create ConfigMap/config-map-2',
      'prune ConfigMap/config-map-1',
      'unchanged Service/service-1',
    ]);

    const applied = await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns);
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
    const pkg = inlinePackage(cluster.ns, {
      'ns.yaml': namespace(own),
      'cm.yaml': cm('inside', own),
      'crd.yaml': crd({ group, kind: 'Thing' }),
      'thing.yaml': customResource(`${group}/v1`, 'Thing', 't1', { size: 2 }),
    });
    const { result } = await runPkg(cluster.conn, pkg, 'preview', {}, cluster.ns);
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
    const applied = await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns);
    expect(applied.result.exitCode).toBe(0);
  });

  it('never shows a Secret value: markdown, text, JSON, summaries, events', async () => {
    const planted = 's3cr3t-planted-value-42';
    const b64 = Buffer.from(planted).toString('base64');
    const dbSecret = (value: string) => ({ ...secret('db', { password: value }), type: 'Opaque' });
    const pkg = inlinePackage(cluster.ns, { 'secret.yaml': dbSecret('first-value-123') });
    const first = await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns);
    expect(first.result.exitCode).toBe(0);
    pkg.rewrite({ 'secret.yaml': dbSecret(planted) });
    const { result } = await runPkg(cluster.conn, pkg, 'preview', {}, cluster.ns);
    const doc = result.preview!;
    const db = doc.objects.find((o) => o.id.name === 'db')!;
    expect(db.action).toBe('configure');
    expect(db.changes).toEqual([expect.objectContaining({ path: 'data.password', redacted: true })]);
    const applied = await runPkg(cluster.conn, pkg, 'apply', {}, cluster.ns);
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
