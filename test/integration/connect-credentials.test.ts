import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestClient } from '../../scripts/control-plane/rest.js';
import { type Connection, connect } from '../../src/kube/connect.js';
import { auditOffset, flushAudit } from '../support/audit-log.js';
import { cliEntry, runNode, tsxLoader } from '../support/front-ends.js';
import {
  configMap,
  controlPlane,
  eventually,
  inlinePackage,
  uniqueName,
  useCluster,
} from '../support/harness/index.js';
import {
  apiServerCaFile,
  execUser,
  kubeconfigYaml,
  pluginCounter,
  tempFile,
} from '../support/kubeconfigs.js';
import { runPkg } from '../support/run.js';
import { itSince } from '../support/server-version.js';

/**
 * Credentials as real clusters hand them out: exec plugins (counted: how often they run decides how fast
 * and how polite a run is), token files the kubelet rotates, impersonation, the in-cluster service account,
 * and the plain errors a user gets when any of it is wrong.
 */
const cm = (name: string) => configMap(name, { a: 'b' });

describe('connection credentials', () => {
  const cp = controlPlane();
  const cluster = useCluster({ namespace: 'creds' });
  const { api } = cluster;
  const endpoint = { server: cp.server, caFile: apiServerCaFile(cp.kubeconfigPath) };
  const opened: Connection[] = [];
  const open = async (kubeconfigContent: string, env: NodeJS.ProcessEnv = {}) => {
    const conn = await connect({ kubeconfigContent, env });
    opened.push(conn);
    return conn;
  };
  const cmRef = (name: string) => ({
    apiVersion: 'v1',
    group: '',
    kind: 'ConfigMap',
    namespace: cluster.ns,
    name,
  });

  const tokenFor = async (sa: string) => {
    const res = await api.request<{ status: { token: string } }>(
      'POST',
      `/api/v1/namespaces/${cluster.ns}/serviceaccounts/${sa}/token`,
      { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
    );
    expect(res.status).toBe(201);
    return res.body.status.token;
  };
  const serviceAccount = async (name: string) => {
    expect(
      (
        await api.request('POST', `/api/v1/namespaces/${cluster.ns}/serviceaccounts`, {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: `${cluster.ns}-${name}` },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
          subjects: [{ kind: 'ServiceAccount', name, namespace: cluster.ns }],
        })
      ).status,
    ).toBe(201);
    const token = await tokenFor(name);
    // the RBAC authorizer learns of the binding from a watch: wait until it lets the token read
    const client = createRestClient(cp.server, token);
    await eventually(async () =>
      (await client.request('GET', `/api/v1/namespaces/${cluster.ns}/configmaps`)).status === 200
        ? true
        : undefined,
    );
    return token;
  };
  /** Revokes a service account's tokens (deletes it) and waits until the server refuses `token`. */
  const revoke = async (sa: string, token: string) => {
    expect(
      (await api.request('DELETE', `/api/v1/namespaces/${cluster.ns}/serviceaccounts/${sa}`)).status,
    ).toBe(200);
    const client = createRestClient(cp.server, token);
    await eventually(async () => ((await client.request('GET', '/api')).status === 401 ? true : undefined));
  };

  afterAll(() => {
    for (const c of opened) c.client.close();
  });

  describe('exec plugins', () => {
    it('run once for a whole apply when the credential carries an expiry', async () => {
      const counter = pluginCounter();
      const conn = await open(
        kubeconfigYaml(
          endpoint,
          execUser({ PLUGIN_COUNTER: counter.file, PLUGIN_TOKENS: cp.adminToken, PLUGIN_EXPIRES_IN: '3600' }),
        ),
      );
      const pkg = inlinePackage(cluster.ns, { 'a.yaml': cm('exec-a'), 'b.yaml': cm('exec-b') });
      expect((await runPkg(conn, pkg, 'preview', {}, cluster.ns)).result.exitCode).toBe(0);
      expect((await runPkg(conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
      expect(counter.runs()).toBe(1);
    });

    it('run once when the credential has no expiry (kubectl runs it again only after a 401)', async () => {
      const counter = pluginCounter();
      const conn = await open(
        kubeconfigYaml(endpoint, execUser({ PLUGIN_COUNTER: counter.file, PLUGIN_TOKENS: cp.adminToken })),
      );
      const pkg = inlinePackage(cluster.ns, { 'a.yaml': cm('noexp-a'), 'b.yaml': cm('noexp-b') });
      expect((await runPkg(conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
      expect((await runPkg(conn, pkg, 'destroy', {}, cluster.ns)).result.exitCode).toBe(0);
      expect(counter.runs()).toBe(1);
    });

    it('run once more when the credential expires with 32 requests in flight, not once per request', async () => {
      const counter = pluginCounter();
      // expires 12 s after it is issued: renewed ~2.4 s before, so exactly once in the 14 s below; the plugin
      // takes 500 ms, long enough for every request of a burst to find the renewal still running
      const conn = await open(
        kubeconfigYaml(
          endpoint,
          execUser({
            PLUGIN_COUNTER: counter.file,
            PLUGIN_TOKENS: cp.adminToken,
            PLUGIN_EXPIRES_IN: '12',
            PLUGIN_DELAY_MS: '500',
          }),
        ),
      );
      const started = Date.now();
      let requests = 0;
      while (Date.now() - started < 14_000) {
        const burst = Array.from({ length: 32 }, () => conn.client.get(cmRef('absent')));
        requests += burst.length;
        expect(await Promise.all(burst)).toEqual(Array(32).fill(undefined));
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(requests).toBeGreaterThan(64);
      expect(counter.runs()).toBe(2);
    });

    it('a 401 triggers exactly one new run, shared by the 32 requests in flight that got it', async () => {
      const counter = pluginCounter();
      const oldToken = await serviceAccount('exec-old');
      const newToken = await serviceAccount('exec-new');
      const conn = await open(
        kubeconfigYaml(
          endpoint,
          execUser({ PLUGIN_COUNTER: counter.file, PLUGIN_TOKENS: `${oldToken},${newToken}` }),
        ),
      );
      expect(await conn.client.get(cmRef('absent'))).toBeUndefined();
      expect(counter.runs()).toBe(1);
      // the cached token (no expiry) is revoked behind the client's back: every request of the burst gets a 401
      await revoke('exec-old', oldToken);
      const burst = await Promise.all(Array.from({ length: 32 }, () => conn.client.get(cmRef('absent'))));
      expect(burst).toEqual(Array(32).fill(undefined));
      expect(counter.runs()).toBe(2);
      const pkg = inlinePackage(cluster.ns, { 'a.yaml': cm('after-401') });
      expect((await runPkg(conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
      expect(counter.runs()).toBe(2);
    });

    it('a token refused from the start is refreshed once, and the run goes on', async () => {
      const counter = pluginCounter();
      const conn = await open(
        kubeconfigYaml(
          endpoint,
          execUser({ PLUGIN_COUNTER: counter.file, PLUGIN_TOKENS: `revoked-token,${cp.adminToken}` }),
        ),
      );
      const pkg = inlinePackage(cluster.ns, { 'a.yaml': cm('first-401') });
      expect((await runPkg(conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
      expect(counter.runs()).toBe(2);
    });

    it('when the refreshed credential is refused too, the request fails with 401 after one refresh, no loop', async () => {
      const counter = pluginCounter();
      const conn = await open(
        kubeconfigYaml(endpoint, execUser({ PLUGIN_COUNTER: counter.file, PLUGIN_TOKENS: 'bad-1,bad-2' })),
      );
      await expect(conn.client.get(cmRef('absent'))).rejects.toMatchObject({ code: 401 });
      expect(counter.runs()).toBe(2);
    });
  });

  describe('impersonation', () => {
    /** Applies a ConfigMap as `user` (impersonated by admin) and returns what the audit log says was impersonated. */
    const applyAs = async (impersonation: Record<string, unknown>) => {
      const conn = await open(kubeconfigYaml(endpoint, { token: cp.adminToken, ...impersonation }));
      const offset = auditOffset(cp.auditLogPath);
      const pkg = inlinePackage(cluster.ns, { 'a.yaml': cm(uniqueName('imp')) });
      expect((await runPkg(conn, pkg, 'apply', {}, cluster.ns)).result.exitCode).toBe(0);
      const events = (await flushAudit(api, cp.auditLogPath, offset)) as unknown as {
        impersonatedUser?: { username: string; uid?: string; groups?: string[] };
      }[];
      return events.find((e) => e.impersonatedUser?.username === impersonation.as)?.impersonatedUser;
    };

    it('sends as and as-groups (as-groups decides what the impersonated user may do)', async () => {
      const user = uniqueName('imp-user');
      const seen = await applyAs({ as: user, 'as-groups': ['system:masters', 'kpt-testers'] });
      expect(seen?.groups).toEqual(expect.arrayContaining(['system:masters', 'kpt-testers']));
      const withoutGroups = await open(kubeconfigYaml(endpoint, { token: cp.adminToken, as: user }));
      await expect(withoutGroups.client.get(cmRef('absent'))).rejects.toMatchObject({ code: 403 });
    });

    itSince(22, 'impersonating a UID (Impersonate-Uid)')('sends as-uid', async () => {
      const seen = await applyAs({
        as: uniqueName('imp-user'),
        'as-uid': 'uid-1234',
        'as-groups': ['system:masters'],
      });
      expect(seen?.uid).toBe('uid-1234');
    });
  });

  describe('in-cluster service account', () => {
    let saDir: string;
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-home-'));
    const env = () => ({
      HOME: home,
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: new URL(cp.server).port,
      KPT_LIVE_SERVICE_ACCOUNT_DIR: saDir,
    });

    beforeAll(() => {
      saDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-sa-'));
      fs.copyFileSync(apiServerCaFile(cp.kubeconfigPath), path.join(saDir, 'ca.crt'));
      fs.writeFileSync(path.join(saDir, 'namespace'), `${cluster.ns}\n`);
    });

    it('is used when there is no kubeconfig at all: service host and port, mounted token, CA and namespace', async () => {
      fs.writeFileSync(path.join(saDir, 'token'), await serviceAccount('runner'));
      const conn = await open('', env());
      expect(conn.access.server).toBe(`https://127.0.0.1:${new URL(cp.server).port}`);
      expect(conn.access.namespace).toBe(cluster.ns);
      const pkg = inlinePackage(cluster.ns, { 'a.yaml': cm('in-cluster') });
      const { result } = await runPkg(conn, pkg, 'apply', {}, conn.access.namespace);
      expect(result.exitCode).toBe(0);
    });

    it('re-reads a token file the kubelet rotated when the old token is refused', async () => {
      const oldToken = await serviceAccount('rotating-old');
      const newToken = await serviceAccount('rotating-new');
      fs.writeFileSync(path.join(saDir, 'token'), oldToken);
      const conn = await open('', env());
      expect(await conn.client.get(cmRef('absent'))).toBeUndefined();
      // rotate: the new token in the file, the old one revoked (its service account deleted)
      fs.writeFileSync(path.join(saDir, 'token.tmp'), newToken);
      fs.renameSync(path.join(saDir, 'token.tmp'), path.join(saDir, 'token'));
      await revoke('rotating-old', oldToken);
      const pkg = inlinePackage(cluster.ns, { 'a.yaml': cm('after-rotation') });
      const { result } = await runPkg(conn, pkg, 'apply', {}, cluster.ns);
      expect(result.error).toBeUndefined();
      expect(result.exitCode).toBe(0);
    });
  });

  describe('plain errors (exit 1, the message, no stack trace)', () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-errors-'));
    const pkgDir = inlinePackage('default', { 'a.yaml': cm('never-applied') }).dir;
    const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      runNode(['--import', tsxLoader, cliEntry, 'preview', pkgDir, ...args], {
        cwd: work,
        env: { PATH: process.env.PATH, HOME: work, KPT_LIVE_DEBUG: '', ...env },
      });
    const expectPlain = (r: { code: number; out: string }, message: RegExp) => {
      expect(r.code).toBe(1);
      expect(r.out).toMatch(message);
      expect(r.out).not.toMatch(/^\s+at /m);
    };

    it('no kubeconfig anywhere', async () => {
      expectPlain(await cli([]), /no kubeconfig: set --kubeconfig or KUBECONFIG/);
    });

    it('a broken kubeconfig', async () => {
      const file = tempFile('broken.yaml', 'clusters: [\n  - name: x\n');
      expectPlain(
        await cli([], { KUBECONFIG: file }),
        /broken kubeconfig \(.*broken\.yaml\): not valid YAML/,
      );
    });

    it('a failing exec plugin, with its stderr', async () => {
      const counter = pluginCounter();
      const file = tempFile(
        'config',
        kubeconfigYaml(endpoint, execUser({ PLUGIN_COUNTER: counter.file, PLUGIN_MODE: 'fail' })),
      );
      const r = await cli(['--kubeconfig', file]);
      expectPlain(r, /exec plugin ".*exec-plugin\.mjs" failed \(exit code 2\)/);
      expect(r.out).toContain('the SSO session has expired; run `corp-login` and try again');
    });

    // the same errors in process (the CLI and the action print them as above, one process each is slow here)
    it('a --kubeconfig that does not exist, an unknown context, a plugin that is not installed', async () => {
      await expect(connect({ kubeconfigPath: path.join(work, 'nope.yaml'), env: {} })).rejects.toThrow(
        /^kubeconfig not found: .*nope\.yaml$/,
      );
      const file = tempFile('config', kubeconfigYaml(endpoint, { token: cp.adminToken }));
      await expect(connect({ kubeconfigPath: file, context: 'staging', env: {} })).rejects.toThrow(
        'context "staging" not found in kubeconfig (known: test)',
      );
      const missing = kubeconfigYaml(endpoint, {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1beta1',
          command: 'kpt-live-no-such-plugin',
          installHint: 'install it with: brew install kpt-live-no-such-plugin',
        },
      });
      await expect(connect({ kubeconfigContent: missing, env: {} })).rejects.toThrow(
        'exec plugin kpt-live-no-such-plugin: command not found\ninstall it with: brew install kpt-live-no-such-plugin',
      );
    });
  });
});
