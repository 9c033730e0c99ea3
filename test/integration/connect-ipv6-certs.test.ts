import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlPlane, startControlPlane } from '../../scripts/control-plane/control-plane.js';
import { type Connection, connect } from '../../src/kube/connect.js';
import { configMap, inlinePackage } from '../support/harness/index.js';
import {
  apiServerCaFile,
  execPluginPath,
  execUser,
  kubeconfigYaml,
  pluginCounter,
} from '../support/kubeconfigs.js';
import { type ClientCa, createClientCa } from '../support/pki.js';
import { runPkg } from '../support/run.js';

/**
 * A control plane of its own, listening on [::1] only and trusting a client CA (--client-ca-file): IPv6
 * literal servers (in a kubeconfig and in-cluster) and client certificates, static and issued by an exec
 * plugin with a short life (Pinniped, Teleport), rotated while a run goes on.
 */
const cm = (name: string) => configMap(name, { a: 'b' });

describe('IPv6 servers and client certificates', () => {
  let cp: ControlPlane;
  let ca: ClientCa;
  const opened: Connection[] = [];
  const open = async (kubeconfigContent: string, env: NodeJS.ProcessEnv = {}) => {
    const conn = await connect({ kubeconfigContent, env });
    opened.push(conn);
    return conn;
  };
  const cluster = () => ({ server: cp.server, caFile: apiServerCaFile(cp.kubeconfigPath) });
  const ref = (name: string) => ({
    apiVersion: 'v1',
    group: '',
    kind: 'ConfigMap',
    namespace: 'default',
    name,
  });

  beforeAll(async () => {
    ca = createClientCa();
    cp = await startControlPlane({ bindAddress: '::1', clientCaFile: ca.certPath });
  });
  afterAll(async () => {
    for (const c of opened) c.client.close();
    await cp?.stop();
    ca?.remove();
  });

  it('reaches https://[::1]:PORT, verifying the server certificate', async () => {
    expect(cp.server).toMatch(/^https:\/\/\[::1\]:\d+$/);
    const conn = await open(kubeconfigYaml(cluster(), { token: cp.adminToken }));
    const pkg = inlinePackage('default', { 'a.yaml': cm('over-ipv6') });
    expect((await runPkg(conn, pkg, 'preview')).result.preview?.summary).toMatchObject({ create: 1 });
    expect((await runPkg(conn, pkg, 'apply')).result.exitCode).toBe(0);
    expect((await conn.client.get(ref('over-ipv6')))?.data).toEqual({ a: 'b' });
  });

  it('runs in a cluster whose service host is an IPv6 address', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-sa6-'));
    fs.copyFileSync(apiServerCaFile(cp.kubeconfigPath), path.join(dir, 'ca.crt'));
    fs.writeFileSync(path.join(dir, 'token'), cp.adminToken);
    const conn = await open('', {
      HOME: dir,
      KUBERNETES_SERVICE_HOST: '::1',
      KUBERNETES_SERVICE_PORT: new URL(cp.server).port,
      KPT_LIVE_SERVICE_ACCOUNT_DIR: dir,
    });
    expect(conn.access.server).toBe(cp.server);
    const pkg = inlinePackage('default', { 'a.yaml': cm('in-cluster-ipv6') });
    expect((await runPkg(conn, pkg, 'apply')).result.exitCode).toBe(0);
  });

  it('authenticates with a client certificate and key from the kubeconfig', async () => {
    // the test plugin, run by hand, issues a certificate (CN static-user, O system:masters) for an hour
    const counter = pluginCounter();
    const out = execFileSync(process.execPath, [execPluginPath], {
      env: {
        ...process.env,
        PLUGIN_COUNTER: counter.file,
        PLUGIN_MODE: 'cert',
        PLUGIN_CA_DIR: ca.dir,
        PLUGIN_CERT_USER: 'static-user',
        PLUGIN_EXPIRES_IN: '3600',
      },
      encoding: 'utf8',
    });
    const { status } = JSON.parse(out) as {
      status: { clientCertificateData: string; clientKeyData: string };
    };
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const conn = await open(
      kubeconfigYaml(cluster(), {
        'client-certificate-data': b64(status.clientCertificateData),
        'client-key-data': b64(status.clientKeyData),
      }),
    );
    // anonymous requests are refused (403): a success means the certificate's user was recognised
    const pkg = inlinePackage('default', { 'a.yaml': cm('by-static-cert') });
    expect((await runPkg(conn, pkg, 'apply')).result.exitCode).toBe(0);
  });

  it('keeps working past the life of an exec plugin certificate: the plugin issues a new one in time', async () => {
    const counter = pluginCounter();
    const conn = await open(
      kubeconfigYaml(
        cluster(),
        execUser({
          PLUGIN_COUNTER: counter.file,
          PLUGIN_MODE: 'cert',
          PLUGIN_CA_DIR: ca.dir,
          PLUGIN_CERT_USER: 'cert-user',
          PLUGIN_EXPIRES_IN: '12',
        }),
      ),
    );
    const started = Date.now();
    // ~20 s of requests over the keep-alive pool: the first certificate expires after 12 s
    while (Date.now() - started < 20_000) {
      const burst = await Promise.all(Array.from({ length: 8 }, () => conn.client.get(ref('absent'))));
      expect(burst).toEqual(Array(8).fill(undefined));
      await new Promise((r) => setTimeout(r, 250));
    }
    const pkg = inlinePackage('default', { 'a.yaml': cm('by-cert-user') });
    const { result } = await runPkg(conn, pkg, 'apply');
    expect(result.error).toBeUndefined();
    expect(result.exitCode).toBe(0);
    // every request above succeeded, the last ones 8 s after the first certificate expired (the server
    // answers 401 to an expired certificate); renewed ahead of expiry, one plugin run per certificate
    expect(counter.runs()).toBeGreaterThanOrEqual(2);
    expect(counter.runs()).toBeLessThanOrEqual(3);
  });
});
