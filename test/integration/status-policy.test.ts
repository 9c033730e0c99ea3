import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserAgent } from '../../src/kube/http-client.js';
import { auditOffset, flushAudit } from '../support/audit-log.js';
import { configMap, controlPlane, inlinePackage, type Obj, useCluster } from '../support/harness/index.js';
import { runCli } from './cli-helpers.js';

/**
 * kpt's `--status-policy` (action input `status-policy`). `all` (the default) writes the ResourceGroup's
 * `status.resourceStatuses` at the end of a run; `none` neither writes nor clears it, as kpt: the status may
 * belong to a controller (Config Sync's resource-group controller computes it), which a run must not
 * overwrite. The spec (what the inventory owns) is written the same way under both.
 */
const cluster = useCluster({ namespace: 'status-policy' });
const { api } = cluster;
const audit = controlPlane().auditLogPath;

let pkg: ReturnType<typeof inlinePackage>;

const cm = (name: string) => configMap(name, { k: 'v' });
const objects = (names: string[]) => ({ 'objects.yaml': names.map(cm) });

const rgPath = () => `/apis/kpt.dev/v1alpha1/namespaces/${cluster.ns}/resourcegroups/${pkg.inventory.name}`;
const readRg = async () => (await api.request<Obj>('GET', rgPath())).body;

/**
 * Runs the CLI; returns how many writes of the ResourceGroup's status the audit log shows it sent. Only the
 * CLI's requests count: the log is written in batches, so the test's own status write just before a run
 * can land in the file after the offset is taken.
 */
async function apply(args: string[]): Promise<number> {
  const offset = auditOffset(audit);
  const r = await runCli(['apply', 'pkg', '-n', cluster.ns, ...args], { cwd: pkg.repo });
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
  const events = await flushAudit(api, audit, offset);
  return events.filter(
    (e) =>
      e.userAgent?.startsWith(UserAgent) &&
      e.verb === 'update' &&
      e.objectRef?.resource === 'resourcegroups' &&
      e.objectRef.namespace === cluster.ns &&
      e.requestURI.split('?')[0].endsWith('/status'),
  ).length;
}

beforeAll(async () => {
  pkg = inlinePackage(cluster.ns, objects(['a', 'b']));
  const installed = await runCli(['install-resource-group'], { cwd: pkg.repo });
  expect(installed.code, installed.stderr).toBe(0);
});
afterAll(() => fs.rmSync(pkg.repo, { recursive: true, force: true }));

describe('status-policy', () => {
  it('none: the inventory owns what was applied, its status is neither written nor cleared; all writes it', async () => {
    expect(await apply(['--status-policy', 'none'])).toBe(0);
    const first = await readRg();
    expect(first.spec.resources.map((r: Obj) => r.name).sort()).toEqual(['a', 'b']);
    expect(first.status?.resourceStatuses).toBeUndefined();

    // a controller that owns the status (as Config Sync's resource-group controller does) writes its own
    const theirs = {
      observedGeneration: first.metadata.generation,
      resourceStatuses: ['a', 'b'].map((name) => ({
        group: '',
        kind: 'ConfigMap',
        namespace: cluster.ns,
        name,
        status: 'Current',
      })),
    };
    const put = await api.request('PUT', `${rgPath()}/status`, {
      ...first,
      status: theirs,
    });
    expect(put.status).toBe(200);

    // a change to the package (kpt's form of the flag): the spec follows it, the controller's status stays
    pkg.rewrite(objects(['a', 'b', 'c']));
    expect(await apply(['--status-policy=none'])).toBe(0);
    const second = await readRg();
    expect(second.spec.resources.map((r: Obj) => r.name).sort()).toEqual(['a', 'b', 'c']);
    expect(second.status).toEqual(theirs);
    for (const name of ['a', 'b', 'c'])
      expect((await api.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/${name}`)).status).toBe(
        200,
      );

    // the default (all) writes kpt's status over it, once, for every object
    expect(await apply([])).toBe(1);
    const third = await readRg();
    expect(
      third.status.resourceStatuses.map((s: Obj) => [s.name, s.strategy, s.actuation, s.reconcile]),
    ).toEqual([
      ['a', 'Apply', 'Succeeded', 'Succeeded'],
      ['b', 'Apply', 'Succeeded', 'Succeeded'],
      ['c', 'Apply', 'Succeeded', 'Succeeded'],
    ]);

    // destroy under none deletes the inventory with its objects, as under all
    const destroyed = await runCli(['destroy', 'pkg', '-n', cluster.ns, '--status-policy', 'none'], {
      cwd: pkg.repo,
    });
    expect(destroyed.code, `${destroyed.stdout}\n${destroyed.stderr}`).toBe(0);
    expect((await api.request('GET', rgPath())).status).toBe(404);
  });

  it('rejects a policy kpt does not know, as a usage error', async () => {
    pkg.rewrite(objects(['d']));
    const r = await runCli(['apply', 'pkg', '-n', cluster.ns, '--status-policy', 'some'], { cwd: pkg.repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--status-policy <policy>' argument 'some' is invalid. Allowed choices are all, none/,
    );
    expect((await api.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/d`)).status).toBe(404);
  });
});
