import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRunOptions } from '../../src/apply/run-options.js';
import { ensureResourceGroupCrd } from '../../src/inventory/install-crd.js';
import { type Connection, connect } from '../../src/kube/connect.js';
import { formatPackageError } from '../../src/package/package-error.js';
import { type PackageRunResult, runPackage } from '../../src/pipeline/run-package.js';
import {
  type AuditEvent,
  auditOffset,
  describeRequest,
  flushAudit,
  mutatingRequests,
} from '../support/audit-log.js';
import { prng } from '../support/fault-proxy.js';
import { actionEnv, distIndex, runCli, runNode } from '../support/front-ends.js';
import { controlPlane, fixturesDir, uniqueName, useCluster } from '../support/harness/index.js';
import { dependsOn, mutations, objectDocuments } from '../support/package-mutations.js';

const badDir = path.join(fixturesDir, 'bad');

/**
 * Broken packages must be refused before anything changes: exit code 1, a message naming the file (and
 * line, where there is one) and no stack frames, and no mutating request in the API server's audit log.
 * Runs are made as an impersonated user of their own (`as:` in the kubeconfig, bound to cluster-admin, so
 * a check that fails to stop a package would really write), which makes this file's requests easy to pick
 * out of the shared audit log. The run's own lock (a Lease, taken before the pre-flight and deleted after)
 * is the one write allowed, and it must be gone afterwards.
 *
 * Knobs: KPT_LIVE_MUTATION_TRIALS (default 10), KPT_LIVE_MUTATION_SEED (default 1).
 */
const user = 'kpt-bad-input';
const mutationTrials = Number(process.env.KPT_LIVE_MUTATION_TRIALS ?? 10);
const mutationSeed = Number(process.env.KPT_LIVE_MUTATION_SEED ?? 1);

interface BadCase {
  /** Directory under test/fixtures/bad. */
  name: string;
  /** The file (in the package) the message must name; none for package-wide problems. */
  file?: string;
  /** The exact line, where one is meaningful. */
  line?: number;
  message: RegExp;
  /** Makes files that are generated, not committed (huge, deep, non-UTF-8, symlinks). */
  generate?: (dir: string) => void;
  /** The package path handed to the run, when not the case name. */
  rel?: string;
  /** Run the CLI on it too (not for a `..` path: the CLI treats a DIR outside the cwd as its own root). */
  cli?: boolean;
  /** Also through the bundled action. */
  action?: boolean;
}

const cases: BadCase[] = [
  { name: 'invalid-yaml', file: 'configmap.yaml', message: /invalid YAML/, action: true },
  { name: 'name-number', file: 'configmap.yaml', line: 4, message: /metadata\.name must be a string/ },
  {
    name: 'label-boolean',
    file: 'configmap.yaml',
    line: 7,
    message: /label "enabled" value must be a string/,
  },
  { name: 'missing-kind', file: 'configmap.yaml', line: 1, message: /missing kind/ },
  { name: 'not-an-object', file: 'configmap.yaml', line: 8, message: /not a Kubernetes object/ },
  { name: 'duplicate-keys', file: 'configmap.yaml', line: 8, message: /unique/ },
  { name: 'data-number', file: 'configmap.yaml', message: /data/ },
  { name: 'invalid-name', file: 'configmap.yaml', message: /Not_A_Valid_Name/ },
  { name: 'unknown-kind', file: 'gizmo.yaml', message: /Gizmo/ },
  { name: 'depends-on-cycle', file: 'objects.yaml', message: /cycl/i },
  {
    name: 'huge-file',
    file: 'huge.yaml',
    message: /huge/,
    generate: (dir) =>
      fs.writeFileSync(
        path.join(dir, 'huge.yaml'),
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: huge\ndata:\n  blob: "${'x'.repeat(20 * 1024 * 1024)}"\n`,
      ),
  },
  {
    name: 'deep-nesting',
    file: 'deep.yaml',
    message: /deep|nest|stack/i,
    generate: (dir) => {
      const n = 20_000;
      fs.writeFileSync(
        path.join(dir, 'deep.yaml'),
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\n  annotations:\n    x: ${'['.repeat(n)}1${']'.repeat(n)}\n`,
      );
    },
  },
  {
    name: 'non-utf8',
    file: 'latin1.yaml',
    message: /UTF-8/i,
    generate: (dir) =>
      fs.writeFileSync(
        path.join(dir, 'latin1.yaml'),
        Buffer.concat([
          Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: latin\ndata:\n  city: "Montr'),
          Buffer.from([0xe9, 0x61, 0x6c, 0xff]),
          Buffer.from('"\n'),
        ]),
      ),
  },
  {
    name: 'symlink-out',
    file: 'outside.yaml',
    message: /symlink points outside the repository/,
    action: true,
    generate: (dir) => {
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-outside-'));
      fs.writeFileSync(
        path.join(outside, 'stolen.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-outside\ndata:\n  secret: "from the runner"\n',
      );
      fs.symlinkSync(path.join(outside, 'stolen.yaml'), path.join(dir, 'outside.yaml'));
    },
  },
  {
    name: 'path-escape',
    rel: '../path-escape',
    message: /outside the repository/,
    cli: false,
    action: true,
  },
];

describe('bad input is refused before anything changes', () => {
  const cluster = useCluster({ namespace: 'bad' });
  const { api } = cluster;
  const audit = controlPlane().auditLogPath;
  let conn: Connection;
  let kubeconfig: string;

  beforeAll(async () => {
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: `${user}-admin` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
    };
    await api.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', binding);
    const admin = fs.readFileSync(controlPlane().kubeconfigPath, 'utf8');
    kubeconfig = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-bad-kc-')), 'kubeconfig');
    fs.writeFileSync(kubeconfig, admin.replace(/^(\s+token: .*)$/m, `$1\n    as: ${user}`), { mode: 0o600 });
    conn = await connect({ kubeconfigPath: kubeconfig });
    await ensureResourceGroupCrd(conn.client, { install: true });
  });
  afterAll(() => conn?.client.close());

  /** A copy of `source` as `<repo>/<name>` with the namespace and a fresh inventory filled in. */
  function copyPackage(source: string, name: string) {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-bad-repo-'));
    const dir = path.join(repo, name);
    fs.cpSync(source, dir, { recursive: true });
    const inv = uniqueName('inventory');
    for (const f of fs.readdirSync(dir, { recursive: true }) as string[]) {
      const p = path.join(dir, f);
      if (!/\.ya?ml$|Kptfile$/.test(f) || !fs.statSync(p).isFile()) continue;
      fs.writeFileSync(
        p,
        fs.readFileSync(p, 'utf8').replaceAll('NAMESPACE', cluster.ns).replaceAll('inventory-bad', inv),
      );
    }
    return { repo, dir, inv };
  }

  /** What the run printed: its error or its package errors, one per line. */
  const messageOf = (r: PackageRunResult) =>
    [r.error ?? '', ...(r.packageErrors ?? []).map(formatPackageError)].join('\n');

  /** Runs `body`, then returns the writes the audit log shows for our user in that time (the lock aside). */
  async function writesDuring(
    body: () => Promise<void>,
  ): Promise<{ writes: AuditEvent[]; seen: AuditEvent[] }> {
    const offset = auditOffset(audit);
    await body();
    const events = (await flushAudit(api, audit, offset)).filter(
      (e) => e.impersonatedUser?.username === user,
    );
    const writes = mutatingRequests(events, user).filter(
      (e) => !(e.objectRef?.resource === 'leases' && e.objectRef.name?.startsWith('kpt-live-action.')),
    );
    return { writes, seen: events };
  }

  /** The runs' locks (Leases) left in the namespace. */
  async function runLocks(): Promise<string[]> {
    const res = await api.request('GET', `/apis/coordination.k8s.io/v1/namespaces/${cluster.ns}/leases`);
    expect(res.status).toBe(200);
    const leases = res.body as { items: { metadata: { name: string } }[] };
    return leases.items.map((l) => l.metadata.name).filter((n) => n.startsWith('kpt-live-action.'));
  }

  function expectGoodMessage(text: string, where: string | undefined, line?: number) {
    if (where) expect(text).toContain(line ? `${where}:${line}` : where);
    expect(text).not.toMatch(/^\s+at /m);
  }

  const cli = (repo: string, dir: string) =>
    runCli(['apply', dir, '--kubeconfig', kubeconfig, '-n', cluster.ns], repo);
  const action = (repo: string, rel: string) =>
    runNode([distIndex], {
      cwd: repo,
      env: actionEnv({
        workspace: repo,
        packages: rel,
        kubeconfig: fs.readFileSync(kubeconfig, 'utf8'),
        namespace: cluster.ns,
      }),
    });

  for (const c of cases) {
    it(`${c.name}: exit 1, names ${c.file ?? 'the package'}${c.line ? `:${c.line}` : ''}, writes nothing`, async () => {
      const { repo, dir } = copyPackage(path.join(badDir, c.name), c.name);
      c.generate?.(dir);
      let runRoot = repo;
      if (c.rel?.startsWith('..')) {
        runRoot = path.join(repo, 'checkout');
        fs.mkdirSync(runRoot);
      }
      const rel = c.rel ?? c.name;
      const where = c.file ? `${c.name}/${c.file}` : undefined;
      const outputs: string[] = [];
      const { writes } = await writesDuring(async () => {
        const result = await runPackage(conn.client, rel, 'apply', {
          repoRoot: runRoot,
          defaultNamespace: cluster.ns,
          options: defaultRunOptions({ reconcileTimeoutMs: 30_000 }),
        });
        const text = messageOf(result);
        outputs.push(text);
        if (process.env.KPT_LIVE_SHOW_MESSAGES) console.info(`${c.name}: ${text.slice(0, 400)}`);
        expect(result.exitCode, text).toBe(1);
        expect(text).toMatch(c.message);
        expectGoodMessage(text, where, c.line);
        if (c.cli !== false) {
          const r = await cli(repo, c.name);
          outputs.push(r.out);
          expect(r.code, r.out).toBe(1);
          expectGoodMessage(r.out, where, c.line);
        }
        if (c.action) {
          const r = await action(runRoot, rel);
          outputs.push(r.out);
          expect(r.code, r.out).toBe(1);
          expect(r.out).toMatch(/^::error/m);
          expectGoodMessage(r.out, where, c.line);
        }
      });
      expect(writes.map(describeRequest), outputs.join('\n---\n').slice(0, 3000)).toEqual([]);
      // the lock is taken while the package is checked: a refused package gives it back
      expect(await runLocks()).toEqual([]);
    });
  }

  it("invalid-yaml while another run holds the lock: refused at once, the holder's lease untouched", async () => {
    const { repo, inv } = copyPackage(path.join(badDir, 'invalid-yaml'), 'invalid-yaml');
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: `kpt-live-action.${inv}` },
      spec: { holderIdentity: 'another-run', leaseDurationSeconds: 600, renewTime: microNow() },
    };
    const made = await api.request(
      'POST',
      `/apis/coordination.k8s.io/v1/namespaces/${cluster.ns}/leases`,
      lease,
    );
    expect(made.status).toBe(201);
    // the lock is taken while the package loads; a refused package stops waiting for it (a 10-minute
    // wait would outlast the test's timeout)
    const result = await runPackage(conn.client, 'invalid-yaml', 'apply', {
      repoRoot: repo,
      defaultNamespace: cluster.ns,
      options: defaultRunOptions({ lockTimeoutMs: 600_000 }),
    });
    expect(result.exitCode).toBe(1);
    expect(messageOf(result)).toMatch(/invalid YAML/);
    const after = await api.request(
      'GET',
      `/apis/coordination.k8s.io/v1/namespaces/${cluster.ns}/leases/${lease.metadata.name}`,
    );
    expect(after.status).toBe(200);
    expect((after.body as { spec: { holderIdentity: string } }).spec.holderIdentity).toBe('another-run');
    await api.request(
      'DELETE',
      `/apis/coordination.k8s.io/v1/namespaces/${cluster.ns}/leases/${lease.metadata.name}`,
    );
  }, 60_000);

  it('empty-package: refuses to prune everything a previous apply created, and writes nothing', async () => {
    const { repo, dir, inv } = copyPackage(path.join(badDir, 'empty-package'), 'empty-package');
    const cm = (n: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\ndata:\n  v: "1"\n`;
    fs.writeFileSync(path.join(dir, 'a.yaml'), cm('kept-a'));
    fs.writeFileSync(path.join(dir, 'b.yaml'), cm('kept-b'));
    const options = defaultRunOptions({ reconcileTimeoutMs: 30_000 });
    // the prior apply is a positive control: the same audit filter does see this user's writes
    const prior = await writesDuring(async () => {
      const r = await runPackage(conn.client, 'empty-package', 'apply', {
        repoRoot: repo,
        defaultNamespace: cluster.ns,
        options,
      });
      expect(r.exitCode, r.error).toBe(0);
    });
    expect(prior.writes.map((e) => `${e.verb} ${e.objectRef?.resource}`)).toEqual(
      expect.arrayContaining(['patch configmaps', 'create resourcegroups']),
    );
    expect(prior.seen.every((e) => e.userAgent?.startsWith('kpt-live-action/0.1'))).toBe(true);

    fs.rmSync(path.join(dir, 'a.yaml'));
    fs.rmSync(path.join(dir, 'b.yaml'));
    const { writes } = await writesDuring(async () => {
      const r = await runPackage(conn.client, 'empty-package', 'apply', {
        repoRoot: repo,
        defaultNamespace: cluster.ns,
        options,
      });
      expect(r.exitCode).toBe(1);
      expect(r.error).toMatch(/no objects.*prune all 2 object\(s\)/);
      expect(r.error).toContain(inv);
      const c = await cli(repo, 'empty-package');
      expect(c.code, c.out).toBe(1);
      expect(c.out).toMatch(/prune all 2/);
      expect(c.out).not.toMatch(/^\s+at /m);
    });
    expect(writes.map(describeRequest)).toEqual([]);
    for (const n of ['kept-a', 'kept-b'])
      expect((await api.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps/${n}`)).status).toBe(200);
  });

  /**
   * One seeded sequence of mutations, the same for both pre-flight modes. Under `all` every mutation is
   * refused with nothing changed (exit 1, the file named, no write). Under `auto` (the default) exactly
   * what README and docs/reliability.md state: refused the same way, or, for a new first-wave object the
   * pre-flight did not sample, a failure by its own write (exit 3, the file named) where the broken object
   * is never written and nothing that depends on it is. Each `auto` trial has a namespace of its own, since
   * its valid objects may be applied.
   */
  async function runMutations(preflight: 'all' | 'auto') {
    const random = prng(mutationSeed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const sources = ['packages/wordpress', 'packages/wordpress-with-dependencies', 'cli/basic'];
    const tally: Record<string, number> = {};
    for (let trial = 0; trial < mutationTrials; trial++) {
      const source = pick(sources);
      const trialNs = preflight === 'all' ? cluster.ns : await cluster.namespace('mutauto');
      const { repo, dir } = copyPackage(path.join(fixturesDir, source), 'app');
      fs.writeFileSync(
        path.join(dir, 'resourcegroup.yaml'),
        `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: ${uniqueName('inventory')}\n  namespace: ${trialNs}\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${uniqueName('id')}\n`,
      );
      const docs = objectDocuments(dir, trialNs);
      const options = mutations.flatMap((m) => docs.filter((d) => m.applies(d.doc)).map((d) => ({ m, d })));
      const { m, d } = pick(options);
      const oldName = String(d.doc.getIn(['metadata', 'name']));
      m.apply(d.doc);
      fs.writeFileSync(d.file, d.all.map((x) => x.toString()).join('---\n'));
      const inPackage = (file: string) => `app/${path.relative(dir, file).split(path.sep).join('/')}`;
      const where = inPackage(d.file);
      // renaming an object others depend on is (also) reported where they depend on it
      const newName = String(d.doc.getIn(['metadata', 'name']));
      const dependentDocs = docs.filter((x) =>
        String(x.doc.getIn(['metadata', 'annotations', dependsOn]) ?? '').endsWith(`/${oldName}`),
      );
      const dependents = newName !== oldName ? dependentDocs.map((x) => inPackage(x.file)) : [];
      const label = `${preflight} trial ${trial} (seed ${mutationSeed}): ${m.name} on ${where} (${source})`;
      let exitCode = 0;
      const { writes } = await writesDuring(async () => {
        const r = await runPackage(conn.client, 'app', 'apply', {
          repoRoot: repo,
          defaultNamespace: trialNs,
          options: defaultRunOptions({ reconcileTimeoutMs: 30_000, preflight, wait: preflight === 'all' }),
        });
        exitCode = r.exitCode;
        const failed = (r.run?.objects ?? []).filter((o) => o.action === 'failed');
        const text = [
          messageOf(r),
          ...failed.map((o) => `${o.source ? `${o.source.file}:${o.source.line}: ` : ''}${o.message}`),
        ].join('\n');
        if (process.env.KPT_LIVE_SHOW_MESSAGES) console.info(`${label}: ${text.slice(0, 400)}`);
        if (preflight === 'all') expect(r.exitCode, `${label}: ${text}`).toBe(1);
        else expect([1, 3], `${label}: ${text}`).toContain(r.exitCode);
        expect(
          [where, ...dependents].some((f) => text.includes(f)),
          `${label}: ${text}`,
        ).toBe(true);
        expect(text, label).not.toMatch(/^\s+at /m);
      });
      tally[`${m.name} → exit ${exitCode}`] = (tally[`${m.name} → exit ${exitCode}`] ?? 0) + 1;
      if (exitCode === 1) {
        expect(writes.map(describeRequest), label).toEqual([]);
        continue;
      }
      // judged by its own write: neither it nor anything that depends on it was written
      const untouched = new Set([
        newName,
        ...dependentDocs.map((x) => String(x.doc.getIn(['metadata', 'name']))),
      ]);
      const landed = writes.filter(
        (e) => untouched.has(e.objectRef?.name ?? '') && (e.responseStatus?.code ?? 500) < 300,
      );
      expect(landed.map(describeRequest), label).toEqual([]);
    }
    console.info(`mutations under preflight ${preflight} (seed ${mutationSeed}): ${JSON.stringify(tally)}`);
  }

  it(`mutations of good packages, preflight all: refused with nothing changed (${mutationTrials} trials, seed ${mutationSeed})`, async () => {
    await runMutations('all');
  });

  it(`the same mutations under the default preflight (auto): refused, or failed by their own write alone (${mutationTrials} trials, seed ${mutationSeed})`, async () => {
    await runMutations('auto');
  }, 300_000);
});

/** A Lease's MicroTime, now. */
function microNow(): string {
  return new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
