import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type AuditEvent, auditOffset, flushAudit } from '../support/audit-log.js';
import { controlPlane, fixturesDir, type Obj, packageCopy, useCluster } from '../support/harness/index.js';
import { actions, runPkg } from '../support/run.js';
import { describeSince } from '../support/server-version.js';

/**
 * test/fixtures/packages/platform: three operator-sized CRDs with CEL rules, their custom resources, a
 * validating webhook, a Deployment with Service/HPA/PDB/Ingress, Jobs and a CronJob, in the API versions
 * current servers serve. One package taken through apply, preview, status and destroy, in that order.
 */
const crdDir = path.join(fixturesDir, 'packages/platform/crds');
const crdNames = [
  'databaseclusters.data.example.com',
  'logpipelines.observability.example.com',
  'monitoringstacks.observability.example.com',
];

// every object of the package, as `kind/name`
const expected = [
  ...crdNames.map((n) => `CustomResourceDefinition/${n}`),
  'MonitoringStack/platform',
  'LogPipeline/cluster-logs',
  'LogPipeline/audit-logs',
  'DatabaseCluster/orders',
  'DatabaseCluster/analytics',
  'ValidatingWebhookConfiguration/platform-monitoring-policy',
  'Deployment/platform-api',
  'Service/platform-api',
  'HorizontalPodAutoscaler/platform-api',
  'PodDisruptionBudget/platform-api',
  'IngressClass/platform-public',
  'Ingress/platform-api',
  'Job/platform-db-migrate',
  'Job/platform-seed-buckets',
  'CronJob/platform-nightly-report',
].sort();

const slow = 300_000;
// megabytes of CRDs on 2 shared cores: wait longer than the helpers' defaults before calling it a failure
const patient = { reconcileTimeoutMs: 200_000, pruneTimeoutMs: 200_000 };

describeSince(25, 'CEL validation rules in CRDs (x-kubernetes-validations)')(
  'a realistic platform package',
  () => {
    const cluster = useCluster({ namespace: 'platform', connect: true });
    const { api } = cluster;
    let pkg: ReturnType<typeof packageCopy>;
    let crds: Obj[];
    beforeAll(async () => {
      // read here, not at import: on an older server the whole group is left out
      crds = fs
        .readdirSync(crdDir)
        .sort()
        .map((f) => parse(fs.readFileSync(path.join(crdDir, f), 'utf8')) as Obj);
      pkg = packageCopy('packages/platform', cluster.ns);
    });

    it('has CRDs that client-side apply could not write: the server refuses their last-applied annotation', async () => {
      expect(crds.map((c) => c.metadata.name).sort()).toEqual(crdNames);
      for (const crd of crds) {
        // what `kubectl apply` (client-side) would send on create: the object plus itself as an annotation
        const json = JSON.stringify(crd);
        expect(json.length).toBeGreaterThan(262_144);
        const withAnnotation = {
          ...crd,
          metadata: {
            ...crd.metadata,
            annotations: { 'kubectl.kubernetes.io/last-applied-configuration': json },
          },
        };
        const res = await api.request<Obj>(
          'POST',
          '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All',
          withAnnotation,
        );
        expect(res.status, crd.metadata.name).toBe(422);
        expect(res.body.message).toMatch(/metadata\.annotations: Too long/);
      }
      const largest = Math.max(...fs.readdirSync(crdDir).map((f) => fs.statSync(path.join(crdDir, f)).size));
      expect(largest).toBeGreaterThan(1_000_000);
    });

    it(
      'applies it with server-side apply: every object created and Current, Jobs complete',
      async () => {
        const auditLog = controlPlane().auditLogPath;
        const offset = auditOffset(auditLog);
        const { result, events } = await runPkg(
          cluster.conn,
          pkg,
          'apply',
          { ...patient, waitForJobs: true },
          cluster.ns,
        );
        expect(result.error).toBeUndefined();
        expect(result.exitCode).toBe(0);
        expect(actions(events).sort()).toEqual(expected.map((o) => `apply ${o} Successful created`).sort());
        const notCurrent = result.run!.objects.filter(
          (o) => o.reconcile !== 'Successful' || o.status !== 'Current',
        );
        expect(notCurrent).toEqual([]);
        // the CRDs come before their custom resources
        const applied = (kind: string) => events.findIndex((e) => e.type === 'apply' && e.id.kind === kind);
        const lastCrd = events.findLastIndex(
          (e) => e.type === 'apply' && e.id.kind === 'CustomResourceDefinition',
        );
        for (const kind of ['MonitoringStack', 'LogPipeline', 'DatabaseCluster'])
          expect(applied(kind)).toBeGreaterThan(lastCrd);
        const job = await api.request<Obj>(
          'GET',
          `/apis/batch/v1/namespaces/${cluster.ns}/jobs/platform-seed-buckets`,
        );
        expect(job.body.status.succeeded).toBe(2);
        // the Service's ports carry no protocol in the package: the server defaulted it
        const svc = await api.request<Obj>('GET', `/api/v1/namespaces/${cluster.ns}/services/platform-api`);
        expect(svc.body.spec.ports.map((p: Obj) => p.protocol)).toEqual(['TCP', 'TCP']);
        // ... and the CRD's schema default filled in the custom resource's (a list-map key)
        const stack = await api.request<Obj>(
          'GET',
          `/apis/observability.example.com/v1/namespaces/${cluster.ns}/monitoringstacks/platform`,
        );
        expect(stack.body.spec.containers[0].ports[0].protocol).toBe('TCP');
        // the webhook was called for the MonitoringStack, could not be reached, and failed open
        const audited = (await flushAudit(api, auditLog, offset)) as (AuditEvent & {
          annotations?: Record<string, string>;
        })[];
        const failedOpen = audited.filter(
          (e) =>
            e.objectRef?.resource === 'monitoringstacks' &&
            Object.entries(e.annotations ?? {}).some(
              ([k, v]) =>
                k.startsWith('failed-open.validating.webhook.admission.k8s.io/') &&
                v === 'monitoringstacks.policy.platform.example.com',
            ),
        );
        expect(failedOpen.length).toBeGreaterThan(0);
        expect(
          failedOpen.every((e) => e.responseStatus?.code === 200 || e.responseStatus?.code === 201),
        ).toBe(true);
        // ... and for nothing else
        expect(
          audited.filter(
            (e) =>
              e.objectRef?.resource !== 'monitoringstacks' &&
              Object.keys(e.annotations ?? {}).some((k) => k.startsWith('failed-open.validating.webhook')),
          ),
        ).toEqual([]);
      },
      slow,
    );

    it(
      'previews the applied package as all unchanged',
      async () => {
        const { result } = await runPkg(cluster.conn, pkg, 'preview', {}, cluster.ns);
        expect(result.exitCode).toBe(0);
        const preview = result.preview!;
        const changed = preview.objects
          .filter((o) => o.action !== 'unchanged')
          .map((o) => ({
            object: `${o.id.kind}/${o.id.name}`,
            action: o.action,
            reason: o.reason,
            diff: o.diff,
          }));
        expect(changed).toEqual([]);
        expect(preview.objects.map((o) => `${o.id.kind}/${o.id.name}`).sort()).toEqual(expected);
        expect(preview.summary.unchanged).toBe(expected.length);
      },
      slow,
    );

    it(
      'reports every object Current in status mode',
      async () => {
        const { result } = await runPkg(cluster.conn, pkg, 'status', { waitForJobs: true }, cluster.ns);
        expect(result.exitCode).toBe(0);
        const status = result.status!;
        expect(status.map((s) => `${s.id.kind}/${s.id.name}`).sort()).toEqual(expected);
        expect(status.filter((s) => s.status !== 'Current')).toEqual([]);
      },
      slow,
    );

    it(
      "previews a change breaking the CRDs' CEL rules as an error with the rules' messages",
      async () => {
        const file = path.join(pkg.dir, 'custom-resources.yaml');
        const original = fs.readFileSync(file, 'utf8');
        try {
          const broken = original
            .replace('  minSyncReplicas: 1\n', '  minSyncReplicas: 2\n')
            .replace('    storageClass: standard\n', '    storageClass: fast-ssd\n');
          expect(broken).not.toBe(original);
          fs.writeFileSync(file, broken);
          const { result } = await runPkg(cluster.conn, pkg, 'preview', {}, cluster.ns);
          expect(result.exitCode).toBe(1);
          const orders = result.preview!.objects.find((o) => o.id.name === 'orders')!;
          expect(orders.action).toBe('error');
          // a rule on the spec, and a transition rule (`self == oldSelf`) on a field
          expect(orders.reason).toContain('minSyncReplicas must not exceed maxSyncReplicas');
          expect(orders.reason).toContain('storageClass is immutable');
          expect(result.preview!.summary.error).toBe(1);
        } finally {
          fs.writeFileSync(file, original);
        }
      },
      slow,
    );

    it(
      'destroys it, returning only once every object, the CRDs included, is gone',
      async () => {
        const { result, events } = await runPkg(cluster.conn, pkg, 'destroy', patient, cluster.ns);
        expect(result.error).toBeUndefined();
        expect(result.exitCode).toBe(0);
        expect(actions(events).sort()).toEqual(expected.map((o) => `delete ${o} Successful`).sort());
        // no polling: destroy has returned, so these are gone now
        for (const crd of crds) {
          const res = await api.request(
            'GET',
            `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`,
          );
          expect(res.status, crd.metadata.name).toBe(404);
        }
        for (const p of [
          '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/platform-monitoring-policy',
          '/apis/networking.k8s.io/v1/ingressclasses/platform-public',
          `/apis/apps/v1/namespaces/${cluster.ns}/deployments/platform-api`,
          `/apis/autoscaling/v2/namespaces/${cluster.ns}/horizontalpodautoscalers/platform-api`,
          `/apis/policy/v1/namespaces/${cluster.ns}/poddisruptionbudgets/platform-api`,
          `/apis/batch/v1/namespaces/${cluster.ns}/cronjobs/platform-nightly-report`,
          `/apis/batch/v1/namespaces/${cluster.ns}/jobs/platform-db-migrate`,
          `/apis/kpt.dev/v1alpha1/namespaces/${cluster.ns}/resourcegroups/${pkg.inventory.name}`,
        ])
          expect((await api.request('GET', p)).status, p).toBe(404);
      },
      slow,
    );
  },
);
