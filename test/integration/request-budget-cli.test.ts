import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditEvent, auditOffset, flushAudit } from '../support/audit-log.js';
import { configMap, controlPlane, uniqueName, useCluster, yamlOf } from '../support/harness/index.js';
import { impersonatingKubeconfig } from '../support/impersonation.js';
import { runCli } from './cli-helpers.js';

/**
 * The whole request budget of a `kpt-live` run, not only the per-object requests: discovery, the
 * ResourceGroup CRD check, the lock (Lease), the inventory, the deploy history, the objects. The CLI runs
 * as an impersonated user of its own (admin token + `as:`), so the audit log shows every request of the run
 * apart from other tests' requests, whatever their resource or namespace. The totals are pinned: a change
 * that adds a request anywhere in a run shows up here.
 */
const cluster = useCluster({ namespace: 'budget-cli' });
const { api } = cluster;
const audit = controlPlane().auditLogPath;
const user = uniqueName('kpt-budget');
const objects = 20;

let kubeconfig: string;
let work: string;

beforeAll(async () => {
  const rules = [
    { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
    { nonResourceURLs: ['*'], verbs: ['*'] },
  ];
  kubeconfig = await impersonatingKubeconfig(api, user, rules);
  const ns = cluster.ns;
  // the CRD as other tests may already have left it: installed (its install is not this budget's to pin)
  const installed = await runCli(['install-resource-group'], { cwd: os.tmpdir() });
  expect(installed.code, installed.stderr).toBe(0);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-budget-'));
  const dir = path.join(work, 'pkg');
  fs.mkdirSync(dir);
  fs.writeFileSync(
    path.join(dir, 'Kptfile'),
    'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n  annotations:\n    config.kubernetes.io/local-config: "true"\n',
  );
  fs.writeFileSync(
    path.join(dir, 'resourcegroup.yaml'),
    `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: inventory-budget\n  namespace: ${ns}\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${ns}-budget\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'configmaps.yaml'),
    yamlOf(
      ...Array.from({ length: objects }, (_, i) => configMap(`cm-${i}`, { k: `${i}` }, { namespace: ns })),
    ),
  );
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Every request the run sent (as `user`), as `verb resource` (dry-runs and discovery apart) → count. */
async function requestsOf(args: string[]): Promise<{ total: number; byKind: Record<string, number> }> {
  const offset = auditOffset(audit);
  const r = await runCli([...args, 'pkg', '--kubeconfig', kubeconfig], { cwd: work });
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
  const events = (await flushAudit(api, audit, offset)).filter(
    (e: AuditEvent) => e.impersonatedUser?.username === user,
  );
  const byKind: Record<string, number> = {};
  for (const e of events) {
    const what = e.objectRef?.resource
      ? `${e.verb} ${e.objectRef.resource}${/[?&]dryRun=/.test(e.requestURI) ? ' (dry-run)' : ''}`
      : `${e.verb} discovery`;
    byKind[what] = (byKind[what] ?? 0) + 1;
  }
  return { total: events.length, byKind };
}

describe('every request of a kpt-live run', () => {
  it('first apply, no-op re-apply, preview and destroy of 20 ConfigMaps: pinned totals', async () => {
    const first = await requestsOf(['apply']);
    const noop = await requestsOf(['apply']);
    const preview = await requestsOf(['preview']);
    const destroy = await requestsOf(['destroy']);
    // per run: discovery of the API groups the run touches (not the lock's: a Lease's path is fixed); the lock
    // (a Lease created and deleted); the inventory (ResourceGroup); one LIST of the package's kind; the deploy
    // history (a ConfigMap per record)
    expect(first).toEqual({
      total: objects + 12,
      byKind: {
        'get discovery': 2,
        'create leases': 1,
        'delete leases': 1,
        // the inventory does not exist yet: created before any object, its status written at the end
        'get resourcegroups': 1,
        'create resourcegroups': 1,
        'update resourcegroups': 1,
        // the package's ConfigMaps, a legacy ConfigMap inventory (none), the history records
        'list configmaps': 3,
        // pre-flight: one dry-run per kind and namespace of the first wave's new objects
        'patch configmaps (dry-run)': 1,
        'patch configmaps': objects,
        'create configmaps': 1,
      },
    });
    // nothing dry-run, nothing written: the live objects prove our last apply left them unchanged. Apply
    // asks for a legacy ConfigMap inventory together with the ResourceGroup (one round trip less on a first
    // apply), so it lists ConfigMaps once more than it would need to once the ResourceGroup exists
    expect(noop).toEqual({
      total: 9,
      byKind: {
        'get discovery': 2,
        'create leases': 1,
        'delete leases': 1,
        'get resourcegroups': 1,
        'list configmaps': 3,
        'create configmaps': 1,
      },
    });
    // no lock, no history, no writes, and (the same proof) no dry-run
    expect(preview).toEqual({
      total: 4,
      byKind: {
        'get discovery': 2,
        'get resourcegroups': 1,
        'list configmaps': 1,
      },
    });
    // one DELETE per object and per history record (two applies: two records), then the inventory
    expect(destroy).toEqual({
      total: objects + 11,
      byKind: {
        'get discovery': 2,
        'create leases': 1,
        'delete leases': 1,
        'get resourcegroups': 1,
        'list configmaps': 3,
        'delete configmaps': objects + 2,
        'delete resourcegroups': 1,
      },
    });
  });
});
