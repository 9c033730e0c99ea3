import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { emptyConfig, type KubeConfigModel } from './kubeconfig-file.js';

/** Where Kubernetes mounts a pod's service account; KPT_LIVE_SERVICE_ACCOUNT_DIR points elsewhere (tests). */
export const DefaultServiceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';

export function serviceAccountDir(env: NodeJS.ProcessEnv): string {
  return env.KPT_LIVE_SERVICE_ACCOUNT_DIR || DefaultServiceAccountDir;
}

/** The API server's URL inside a pod: `https://HOST:PORT`, an IPv6 host in brackets. */
export function inClusterServer(host: string, port: string): string {
  const h = net.isIPv6(host) ? `[${host}]` : host;
  return `https://${h}:${port}`;
}

/** Whether the environment looks like a pod: service host and port set and a service account token mounted. */
export function inClusterAvailable(env: NodeJS.ProcessEnv): boolean {
  return (
    !!env.KUBERNETES_SERVICE_HOST &&
    !!env.KUBERNETES_SERVICE_PORT &&
    fs.existsSync(path.join(serviceAccountDir(env), 'token'))
  );
}

/**
 * The config client-go builds in a pod, as a one-context kubeconfig: the service host and port, the mounted
 * CA, and the mounted token as a token file (re-read as the kubelet rotates it). The namespace is
 * POD_NAMESPACE, else the mounted `namespace` file, else `default`.
 */
export function inClusterConfig(env: NodeJS.ProcessEnv): KubeConfigModel {
  const dir = serviceAccountDir(env);
  const config = emptyConfig();
  const caFile = path.join(dir, 'ca.crt');
  config.clusters.set('in-cluster', {
    name: 'in-cluster',
    server: inClusterServer(env.KUBERNETES_SERVICE_HOST ?? '', env.KUBERNETES_SERVICE_PORT ?? ''),
    caFile: fs.existsSync(caFile) ? caFile : undefined,
  });
  config.users.set('in-cluster', { name: 'in-cluster', tokenFile: path.join(dir, 'token') });
  let namespace = env.POD_NAMESPACE || undefined;
  if (!namespace) {
    try {
      namespace = fs.readFileSync(path.join(dir, 'namespace'), 'utf8').trim() || undefined;
    } catch {
      // no namespace file: default
    }
  }
  config.contexts.set('in-cluster', {
    name: 'in-cluster',
    cluster: 'in-cluster',
    user: 'in-cluster',
    namespace,
  });
  config.currentContext = 'in-cluster';
  return config;
}
