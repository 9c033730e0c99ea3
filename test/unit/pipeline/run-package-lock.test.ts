import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRunOptions } from '../../../src/apply/run-options.js';
import { ensureResourceGroupCrd } from '../../../src/inventory/install-crd.js';
import { lockName } from '../../../src/inventory/inventory-lock.js';
import { runPackage } from '../../../src/pipeline/run-package.js';
import { loadYaml } from '../../../src/startup/yaml-module.js';
import { FakeCluster } from '../../support/fake-cluster/index.js';

/**
 * The run's lock is taken while the package is read and checked (runPackage, take-lock.ts): a package the
 * check refuses gives the lock back and stops waiting for another run's, and a run that got the lock holds
 * it until its record is written.
 */
const ns = 'team';
const inventory = { name: 'inv', namespace: ns, id: 'inv-id' };
const lease = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  namespace: ns,
  name: lockName(inventory),
};

let root: string;

function writePackage(name: string, content: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'Kptfile'),
    `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'resourcegroup.yaml'),
    `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: ${inventory.name}\n  namespace: ${ns}\n` +
      `  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${inventory.id}\n`,
  );
  fs.writeFileSync(path.join(dir, 'objects.yaml'), content);
  return name;
}
const configMap = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: ${ns}\ndata:\n  color: blue\n`;

describe('the run lock, taken while the package is checked', () => {
  const fake = new FakeCluster({ namespaces: [ns] });
  const client = fake.client();
  const holder = () => (fake.object(lease)?.spec as { holderIdentity?: string } | undefined)?.holderIdentity;
  const run = (dir: string, lockTimeoutMs = 60_000) =>
    runPackage(client, dir, 'apply', {
      repoRoot: root,
      defaultNamespace: ns,
      options: defaultRunOptions({ lockTimeoutMs, reconcileTimeoutMs: 5000 }),
      history: { trigger: 'test', keep: 5, allowStale: true },
    });

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'run-package-lock-'));
    await loadYaml();
    await ensureResourceGroupCrd(client, { install: true });
    client.resetDiscovery();
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('applies holding the lock, records the deploy before giving it back, and leaves no Lease', async () => {
    const mark = fake.log.mark();
    const r = await run(writePackage('good', configMap));
    expect(r.outcome, r.error).toBe('success');
    const writes = fake.log.since(mark).filter((x) => x.mutating && !x.dryRun);
    const leaseWrites = writes.flatMap((x, i) => (x.kind === 'Lease' ? [{ i, method: x.method }] : []));
    expect(leaseWrites.map((x) => x.method)).toEqual(['POST', 'DELETE']);
    // every other write (the inventory, the object, the deploy record) happens while the lock is held
    const others = writes.flatMap((x, i) => (x.kind === 'Lease' ? [] : [i]));
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((i) => i > leaseWrites[0].i && i < leaseWrites[1].i)).toBe(true);
    expect(fake.object(lease)).toBeUndefined();
  });

  it('a package the check refuses gives the lock back and writes nothing else', async () => {
    const mark = fake.log.mark();
    const r = await run(writePackage('broken', `${configMap}---\nkind: [unclosed\n`));
    expect(r.outcome).toBe('error');
    expect(r.packageErrors?.length).toBeGreaterThan(0);
    const writes = fake.log.since(mark).filter((x) => x.mutating && !x.dryRun);
    expect(writes.every((x) => x.kind === 'Lease')).toBe(true);
    expect(fake.object(lease)).toBeUndefined();
  });

  it("stops waiting for another run's lock as soon as the check refuses the package", async () => {
    const now = new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
    fake.seed({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: lease.name, namespace: ns },
      spec: { holderIdentity: 'another-run', leaseDurationSeconds: 300, acquireTime: now, renewTime: now },
    });
    const started = Date.now();
    const r = await run(writePackage('broken-while-locked', `${configMap}---\nkind: [unclosed\n`));
    expect(r.packageErrors?.length).toBeGreaterThan(0);
    // the package's error, not the lock's, and without waiting the 60 s lock timeout
    expect(r.error).not.toMatch(/locked by/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(holder()).toBe('another-run');
  });

  it('a valid package still waits for the other run, then names it', async () => {
    const r = await run(writePackage('good-while-locked', configMap), 1500);
    expect(r.outcome).toBe('error');
    expect(r.error).toMatch(/locked by "another-run"/);
    expect(holder()).toBe('another-run');
  });
});
