import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';

/** The test exec credential plugin (see exec-plugin.mjs for its knobs). */
export const execPluginPath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'exec-plugin.mjs');

/** The test control plane's serving CA: kube-apiserver writes its self-signed certificate and CA there. */
export function apiServerCaFile(kubeconfigPath: string): string {
  return path.join(path.dirname(kubeconfigPath), 'certs', 'apiserver.crt');
}

export interface ClusterSpec {
  server: string;
  caFile?: string;
  insecure?: boolean;
  tlsServerName?: string;
  proxyUrl?: string;
}

/** A one-context kubeconfig (YAML text) for `cluster` and a `user` entry as written in a kubeconfig. */
export function kubeconfigYaml(
  cluster: ClusterSpec,
  user: Record<string, unknown>,
  namespace = 'default',
): string {
  const c: Record<string, unknown> = { server: cluster.server };
  if (cluster.caFile) c['certificate-authority'] = cluster.caFile;
  if (cluster.insecure) c['insecure-skip-tls-verify'] = true;
  if (cluster.tlsServerName) c['tls-server-name'] = cluster.tlsServerName;
  if (cluster.proxyUrl) c['proxy-url'] = cluster.proxyUrl;
  return yaml.dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'test', cluster: c }],
    users: [{ name: 'test-user', user }],
    contexts: [{ name: 'test', context: { cluster: 'test', user: 'test-user', namespace } }],
    'current-context': 'test',
  });
}

/** A kubeconfig `user` that runs the test exec plugin with these PLUGIN_* settings. */
export function execUser(settings: Record<string, string>): Record<string, unknown> {
  return {
    exec: {
      apiVersion: 'client.authentication.k8s.io/v1',
      command: process.execPath,
      args: [execPluginPath],
      env: Object.entries(settings).map(([name, value]) => ({ name, value })),
      interactiveMode: 'Never',
    },
  };
}

/** A fresh counter file for the exec plugin; `runs()` reads how many times it ran. */
export function pluginCounter() {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-plugin-')), 'runs');
  fs.writeFileSync(file, '');
  return {
    file,
    runs: () =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l).length,
  };
}

/** Writes `text` to a temp file and returns its path. */
export function tempFile(name: string, text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-kc-')), name);
  fs.writeFileSync(file, text, { mode: 0o600 });
  return file;
}
