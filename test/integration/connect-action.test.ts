import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionEnv, distIndex, runNode } from '../support/front-ends.js';
import { configMap, controlPlane, eventually, inlinePackage, useCluster } from '../support/harness/index.js';
import { apiServerCaFile, execUser, kubeconfigYaml, pluginCounter } from '../support/kubeconfigs.js';
import { type Squid, startSquid } from '../support/squid.js';

/**
 * The bundled action (`node dist/index.js`, as a runner starts it) on the connections that need more than a
 * kubeconfig with a token: behind a proxy given as the runner's HTTPS_PROXY, with an exec credential
 * plugin, and with no kubeconfig at all. Build dist/ first (`npm run package`).
 */
const ProxiedHost = 'kpt-live-proxied.test';
const cm = (name: string) => configMap(name, { a: 'b' });

describe('the bundled action connecting to the cluster', () => {
  const cp = controlPlane();
  const cluster = useCluster({ namespace: 'action-connect' });
  let squid: Squid;

  beforeAll(async () => {
    squid = await startSquid({ [ProxiedHost]: '127.0.0.1' });
  });
  afterAll(async () => {
    await squid?.stop();
  });

  const runAction = (kubeconfig: string, name: string, env: NodeJS.ProcessEnv = {}) => {
    const pkg = inlinePackage(cluster.ns, { 'a.yaml': cm(name) });
    return runNode([distIndex], {
      cwd: pkg.repo,
      env: {
        ...actionEnv({ workspace: pkg.repo, packages: pkg.rel, kubeconfig, namespace: cluster.ns }),
        ...env,
      },
    });
  };

  it('applies through the runner HTTPS_PROXY to a host only the proxy resolves', async () => {
    const before = squid.accessLog().length;
    const kubeconfig = kubeconfigYaml(
      {
        server: `https://${ProxiedHost}:${new URL(cp.server).port}`,
        caFile: apiServerCaFile(cp.kubeconfigPath),
        tlsServerName: 'kubernetes.default.svc',
      },
      { token: cp.adminToken },
    );
    const r = await runAction(kubeconfig, 'via-proxy', { HTTPS_PROXY: squid.url });
    expect(r.out).not.toMatch(/::error::/);
    expect(r.code).toBe(0);
    // squid logs a tunnel when it closes, just after the action exits
    await eventually(
      async () =>
        squid.accessLog().slice(before).join('\n').includes(`CONNECT ${ProxiedHost}:`) ? true : undefined,
      15_000,
      'the CONNECT line in the squid log',
    );
  });

  it('applies with an exec credential plugin, run once, its token masked', async () => {
    const counter = pluginCounter();
    const kubeconfig = kubeconfigYaml(
      { server: cp.server, caFile: apiServerCaFile(cp.kubeconfigPath) },
      execUser({ PLUGIN_COUNTER: counter.file, PLUGIN_TOKENS: cp.adminToken, PLUGIN_EXPIRES_IN: '600' }),
    );
    const r = await runAction(kubeconfig, 'via-exec');
    expect(r.out).not.toMatch(/::error::/);
    expect(r.code).toBe(0);
    expect(counter.runs()).toBe(1);
    // the runner masks what the action registers with ::add-mask::
    expect(r.out).toContain(`::add-mask::${cp.adminToken}`);
  });

  it('fails with a plain message when there is no kubeconfig anywhere', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-home-'));
    const r = await runAction('', 'never', { HOME: home, KUBECONFIG: '' });
    expect(r.code).toBe(1);
    expect(r.out).toContain('::error::no kubeconfig: set the `kubeconfig` input or KUBECONFIG');
    expect(r.out).not.toMatch(/^\s+at /m);
  });

  it('fails with the plugin stderr when the exec plugin fails', async () => {
    const counter = pluginCounter();
    const kubeconfig = kubeconfigYaml(
      { server: cp.server, caFile: apiServerCaFile(cp.kubeconfigPath) },
      execUser({ PLUGIN_COUNTER: counter.file, PLUGIN_MODE: 'fail' }),
    );
    const r = await runAction(kubeconfig, 'never');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/::error::exec plugin ".*" failed \(exit code 2\)/);
    expect(r.out).toContain('the SSO session has expired');
  });
});
