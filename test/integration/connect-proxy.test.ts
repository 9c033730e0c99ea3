import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/kube/connect.js';
import {
  configMap,
  controlPlane,
  deployment,
  eventually,
  inlinePackage,
  useCluster,
} from '../support/harness/index.js';
import { apiServerCaFile, kubeconfigYaml } from '../support/kubeconfigs.js';
import { runPkg } from '../support/run.js';
import { type Squid, startSquid } from '../support/squid.js';

/**
 * The API server behind a real forward proxy (squid). The kubeconfig names a host that only the proxy can
 * resolve (its hosts_file maps it to the loopback address), with the server's CA and `tls-server-name`
 * naming a host in its certificate, so every success here went through the proxy, TLS verified end to end.
 */
const ProxiedHost = 'kpt-live-proxied.test';
/** Also known to the proxy only; used where the proxy must NOT be asked. */
const BypassedHost = 'kpt-live-bypassed.test';

const settings = configMap('settings', { color: 'blue' });
const web = deployment('web', { image: 'example/web:1' });

describe('connecting through a proxy', () => {
  const cluster = useCluster({ namespace: 'proxy' });
  let squid: Squid;
  const cp = controlPlane();
  const port = new URL(cp.server).port;
  const kubeconfig = (proxyUrl?: string) =>
    kubeconfigYaml(
      {
        server: `https://${ProxiedHost}:${port}`,
        caFile: apiServerCaFile(cp.kubeconfigPath),
        tlsServerName: 'kubernetes.default.svc',
        proxyUrl,
      },
      { token: cp.adminToken },
    );
  const tunnels = () => squid.accessLog().filter((l) => l.includes(`CONNECT ${ProxiedHost}:${port}`)).length;
  /** squid logs a tunnel when it closes (the client closed its pool just before): wait for the lines. */
  const sawTunnels = (before: number) =>
    eventually(async () => (tunnels() > before ? true : undefined), 15_000, 'CONNECT lines in the squid log');

  beforeAll(async () => {
    squid = await startSquid({ [ProxiedHost]: '127.0.0.1', [BypassedHost]: '127.0.0.1' });
  });
  afterAll(async () => {
    await squid?.stop();
  });

  /** preview, apply (with a watch-based wait for the Deployment to roll out), preview again. */
  async function roundTrip(env: NodeJS.ProcessEnv, proxyUrl?: string) {
    const conn = await connect({ kubeconfigContent: kubeconfig(proxyUrl), env });
    try {
      const pkg = inlinePackage(cluster.ns, { 'cm.yaml': settings, 'deploy.yaml': web });
      const preview = (await runPkg(conn, pkg, 'preview', {}, cluster.ns)).result;
      expect(preview.error).toBeUndefined();
      expect(preview.preview?.summary).toMatchObject({ create: 2 });
      const { result, events } = await runPkg(conn, pkg, 'apply', {}, cluster.ns);
      expect(result.error).toBeUndefined();
      expect(result.exitCode).toBe(0);
      const waited = events.filter((e) => e.type === 'wait' && e.id.kind === 'Deployment');
      expect(waited.map((e) => e.type === 'wait' && e.status)).toContain('Successful');
      expect(result.run?.objects.find((o) => o.id.kind === 'Deployment')?.reconcile).toBe('Successful');
      const again = (await runPkg(conn, pkg, 'preview', {}, cluster.ns)).result;
      expect(again.preview?.summary).toMatchObject({ create: 0, unchanged: 2 });
      // clean up through the proxy too
      expect((await runPkg(conn, pkg, 'destroy', {}, cluster.ns)).result.exitCode).toBe(0);
    } finally {
      conn.client.close();
    }
  }

  it('works through the kubeconfig proxy-url (which wins over NO_PROXY, as in kubectl)', async () => {
    const before = tunnels();
    await roundTrip({ NO_PROXY: '*' }, squid.url);
    await sawTunnels(before);
  });

  it('works through HTTPS_PROXY, and NO_PROXY entries for other hosts leave it in use', async () => {
    const before = tunnels();
    await roundTrip({ HTTPS_PROXY: squid.url, NO_PROXY: 'example.com,10.0.0.0/8,localhost' });
    await sawTunnels(before);
  });

  it('works through a lower-case https_proxy without a scheme (proxy host:port)', async () => {
    const before = tunnels();
    await roundTrip({ https_proxy: squid.url.replace('http://', '') });
    await sawTunnels(before);
  });

  it('NO_PROXY bypasses HTTPS_PROXY: the made-up host is then looked up directly and not found', async () => {
    const conn = await connect({
      kubeconfigContent: kubeconfigYaml(
        { server: `https://${BypassedHost}:${port}`, insecure: true },
        { token: cp.adminToken },
      ),
      env: { HTTPS_PROXY: squid.url, NO_PROXY: 'example.com,.test' },
    });
    try {
      const pkg = inlinePackage(cluster.ns, { 'cm.yaml': settings });
      const { result } = await runPkg(conn, pkg, 'preview', {}, cluster.ns);
      expect(result.exitCode).toBe(1);
      expect(result.error).toMatch(/ENOTFOUND|EAI_AGAIN/);
    } finally {
      conn.client.close();
    }
    // squid knows the host and would have connected: it was never asked
    await new Promise((r) => setTimeout(r, 1000));
    expect(squid.accessLog().join('\n')).not.toContain(BypassedHost);
  });

  it('an http:// server goes through HTTP_PROXY', async () => {
    // an http:// server (as `kubectl proxy` serves) through HTTP_PROXY: squid forwards the plain request;
    // nothing listens there, so squid answers 503 itself, which shows the request went through it
    const before = squid.accessLog().length;
    const conn = await connect(
      {
        kubeconfigContent: kubeconfigYaml({ server: `http://${ProxiedHost}:1` }, {}),
        env: { HTTP_PROXY: squid.url },
      },
      // squid's 503 would be retried for a minute otherwise
      { retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0, budgetMs: 0 } },
    );
    try {
      const pkg = inlinePackage(cluster.ns, { 'cm.yaml': settings });
      const { result } = await runPkg(conn, pkg, 'preview', {}, cluster.ns);
      expect(result.exitCode).toBe(1);
    } finally {
      conn.client.close();
    }
    await eventually(
      async () =>
        squid.accessLog().slice(before).join('\n').includes(`http://${ProxiedHost}:1/`) ? true : undefined,
      15_000,
      'the forwarded request in the squid log',
    );
  });
});
