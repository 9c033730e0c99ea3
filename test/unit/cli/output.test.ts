import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/apply/events.js';
import type { ObjectOutcome } from '../../../src/apply/run-result.js';
import { eventPrinter, renderAllowedSkips, renderFailures, renderStatus } from '../../../src/cli/output.js';
import { explainFatal, locatePackage } from '../../../src/cli/package-dir.js';
import { formatTable } from '../../../src/cli/table.js';
import type { ObjectId } from '../../../src/common/object-id.js';
import type { ObjectStatus } from '../../../src/pipeline/package-status.js';

const goldenDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../golden/kpt');
const golden = (file: string) => readFileSync(path.join(goldenDir, file), 'utf8');

const id = (group: string, kind: string, namespace: string, name: string): ObjectId => ({
  group,
  kind,
  namespace,
  name,
});
const cm = id('', 'ConfigMap', 'NAMESPACE', 'config-map-1');
const deploy = id('apps', 'Deployment', 'NAMESPACE', 'web');
const svc = id('', 'Service', 'NAMESPACE', 'web');
const now = () => new Date('2000-01-01T00:00:00Z');

describe('renderStatus', () => {
  const objects: ObjectStatus[] = [
    { id: cm, status: 'Current', message: 'Resource is always ready' },
    { id: deploy, status: 'Current', message: 'Deployment is available. Replicas: 1' },
    { id: svc, status: 'Current', message: 'Service is ready' },
  ];

  it("prints kpt live status's event lines", () => {
    expect(renderStatus('events', 'inventory-basic', objects)).toBe(golden('status.events.txt'));
  });

  it("prints kpt live status's JSON lines", () => {
    expect(renderStatus('json', 'inventory-basic', objects, now)).toBe(golden('status.jsonl'));
  });

  it('leaves the namespace empty for a cluster-scoped object, as kpt does', () => {
    const cr = id('rbac.authorization.k8s.io', 'ClusterRole', '', 'reader');
    expect(
      renderStatus('events', 'inv', [{ id: cr, status: 'Current', message: 'Resource is current' }]),
    ).toBe('inv/clusterrole.rbac.authorization.k8s.io//reader is Current: Resource is current\n');
  });

  it('prints a table', () => {
    expect(renderStatus('table', 'inv', objects.slice(0, 2))).toBe(
      [
        'NAMESPACE  RESOURCE                STATUS   MESSAGE',
        'NAMESPACE  ConfigMap/config-map-1  Current  Resource is always ready',
        'NAMESPACE  Deployment/web          Current  Deployment is available. Replicas: 1',
        '',
      ].join('\n'),
    );
  });
});

describe('eventPrinter', () => {
  const events: RunEvent[] = [
    { type: 'group', name: 'apply-0', action: 'Apply', status: 'Started' },
    { type: 'apply', group: 'apply-0', id: cm, status: 'Failed', error: 'boom: s3cr3t-value' },
    { type: 'group', name: 'apply-0', action: 'Apply', status: 'Finished' },
    { type: 'status', id: cm, status: 'NotFound', message: 'Resource not found' },
  ];

  it('streams event lines, then the summary; status lines only when asked; secrets added later are masked', () => {
    let out = '';
    const secretValues: string[] = [];
    const p = eventPrinter('events', (t) => (out += t), { secretValues, showStatusEvents: true });
    p.event(events[0]);
    secretValues.push('s3cr3t-value');
    for (const e of events.slice(1)) p.event(e);
    expect(out).toBe(
      'apply phase started\nconfigmap/config-map-1 apply failed: boom: ***\napply phase finished\nconfigmap/config-map-1 is NotFound: Resource not found\n',
    );
    p.finish();
    expect(out.endsWith('apply result: 1 attempted, 0 successful, 0 skipped, 1 failed\n')).toBe(true);
  });

  it('ends without a summary after a fatal error event, as kpt does', () => {
    for (const format of ['events', 'json'] as const) {
      let out = '';
      const p = eventPrinter(format, (t) => (out += t), { now });
      p.event(events[0]);
      p.event(events[1]);
      p.event({ type: 'error', error: 'inventory write failed' });
      p.finish();
      expect(out).not.toMatch(/result:|"summary"/);
      if (format === 'json')
        expect(out.trimEnd().split('\n').pop()).toBe(
          '{"error":"inventory write failed","timestamp":"2000-01-01T00:00:00Z","type":"error"}',
        );
    }
  });

  it('prints the table once at the end when not on a terminal', () => {
    let out = '';
    const p = eventPrinter('table', (t) => (out += t), { live: false });
    p.event({ type: 'init', groups: [{ name: 'apply-0', action: 'Apply', ids: [cm, deploy] }] });
    p.event({ type: 'apply', group: 'apply-0', id: cm, status: 'Successful', operation: 'created' });
    p.event({ type: 'apply', group: 'apply-0', id: deploy, status: 'Successful', operation: 'configured' });
    p.event({ type: 'status', id: deploy, status: 'InProgress', message: 'Available: 0/1' });
    p.event({ type: 'wait', group: 'wait-0', id: cm, status: 'Successful' });
    p.event({ type: 'wait', group: 'wait-0', id: deploy, status: 'Timeout', message: 'timed out after 1m' });
    expect(out).toBe('');
    p.finish();
    expect(out).toBe(
      [
        'NAMESPACE  RESOURCE                ACTION      STATUS      RECONCILED  MESSAGE',
        'NAMESPACE  ConfigMap/config-map-1  created     -           Successful',
        'NAMESPACE  Deployment/web          configured  InProgress  Timeout     timed out after 1m',
        '',
      ].join('\n'),
    );
  });
});

describe('renderFailures', () => {
  const outcome = (o: Partial<ObjectOutcome> & { id: ObjectId }): ObjectOutcome => ({
    action: 'created',
    ...o,
  });
  it.each<[string, ObjectOutcome[], string]>([
    ['nothing when all succeeded', [outcome({ id: cm, reconcile: 'Successful' })], ''],
    [
      'each failed, timed-out or blocked object with its reason, owner and fix',
      [
        outcome({ id: cm, action: 'failed', message: 'admission webhook denied it' }),
        outcome({ id: deploy, reconcile: 'Timeout', message: 'timed out after 5m0s waiting for Current' }),
        outcome({ id: svc, reconcile: 'Failed', message: 'Failed: Progress deadline exceeded' }),
        outcome({
          id: id('', 'Secret', 'n', 's'),
          action: 'skipped',
          message: 'dependency apply actuation failed: NAMESPACE_config-map-1__ConfigMap',
          skip: { type: 'dependency', dependency: cm, cause: 'apply actuation failed' },
        }),
        outcome({
          id: id('', 'Secret', 'n', 'owned'),
          action: 'skipped',
          source: { file: 'pkg/secret.yaml', line: 3 },
          skip: {
            type: 'inventory-policy',
            strategy: 'Apply',
            match: 'NoMatch',
            policy: 'strict',
            owner: { id: 'other-id', resourceGroup: { namespace: 'prod', name: 'inventory-other' } },
          },
        }),
        // chosen skips are not problems: an update-strategy skip, a kept object, a Namespace in use
        outcome({
          id: id('', 'ConfigMap', 'n', 'kept'),
          action: 'skipped',
          skip: { type: 'annotation', key: 'cli-utils.sigs.k8s.io/on-remove', value: 'keep' },
        }),
        outcome({
          id: id('', 'Namespace', '', 'n'),
          action: 'skipped',
          skip: { type: 'in-use', message: 'namespace still in use: n' },
        }),
        outcome({ id: id('', 'ConfigMap', 'n', 'strategy'), action: 'skipped' }),
      ],
      [
        'error: 5 object(s) did not succeed:',
        '  configmap/config-map-1 failed: admission webhook denied it',
        '  deployment.apps/web timed out: timed out after 5m0s waiting for Current',
        '  service/web failed to reconcile: Failed: Progress deadline exceeded',
        '  secret/s blocked: dependency apply actuation failed: NAMESPACE_config-map-1__ConfigMap. Fix: fix ConfigMap/config-map-1 first (it is listed too)',
        '  secret/owned (pkg/secret.yaml:3) blocked: inventory policy prevented actuation (strategy: Apply, status: NoMatch, policy: MustMatch): owned by another inventory: inventory other-id (ResourceGroup prod/inventory-other). Fix: destroy the package that owns it (ResourceGroup prod/inventory-other), or take it over with inventory-policy: force-adopt (--inventory-policy force-adopt)',
        '',
      ].join('\n'),
    ],
  ])('%s', (_what, objects, want) => {
    expect(renderFailures(objects)).toBe(want);
  });

  it('notes the blocked objects a run let through with --allow-skipped', () => {
    const skipped = outcome({
      id: cm,
      action: 'skipped',
      message:
        'inventory policy prevented actuation (strategy: Apply, status: Empty, policy: MustMatch): not owned by any inventory',
      skip: { type: 'inventory-policy', strategy: 'Apply', match: 'Empty', policy: 'strict' },
    });
    expect(renderAllowedSkips([skipped, outcome({ id: deploy })])).toBe(
      'note: 1 object(s) skipped, allowed by --allow-skipped:\n' +
        '  configmap/config-map-1: inventory policy prevented actuation (strategy: Apply, status: Empty, policy: MustMatch): not owned by any inventory\n',
    );
    expect(renderAllowedSkips([outcome({ id: deploy })])).toBe('');
  });
});

describe('locatePackage and explainFatal', () => {
  it.each([
    ['.', '/work/repo', { root: '/work/repo', dir: '.' }],
    ['deploy/app', '/work/repo', { root: '/work/repo', dir: 'deploy/app' }],
    ['./deploy/app/', '/work/repo', { root: '/work/repo', dir: 'deploy/app' }],
    ['/work/repo/deploy', '/work/repo', { root: '/work/repo', dir: 'deploy' }],
    ['../other/pkg', '/work/repo', { root: '/work/other/pkg', dir: '.' }],
    ['/srv/pkg', '/work/repo', { root: '/srv/pkg', dir: '.' }],
  ])('%s from %s', (arg, cwd, want) => {
    expect(locatePackage(arg, cwd)).toEqual({ ...want, display: arg });
  });

  it('names the server and context for network errors only', () => {
    const access = { server: 'https://10.0.0.1:6443', contextName: 'prod' };
    expect(explainFatal('connect ECONNREFUSED 10.0.0.1:6443', access)).toBe(
      'cannot reach the cluster at https://10.0.0.1:6443 (kubeconfig context "prod"): connect ECONNREFUSED 10.0.0.1:6443; check --kubeconfig and --context, and that the API server is running',
    );
    expect(explainFatal('inventory-id of inventory object in cluster does not match', access)).toBe(
      'inventory-id of inventory object in cluster does not match',
    );
  });

  it('formatTable pads columns and trims line ends', () => {
    expect(
      formatTable(
        ['A', 'BB'],
        [
          ['long', ''],
          ['x', 'y'],
        ],
      ),
    ).toBe('A     BB\nlong\nx     y\n');
  });
});
