import { ResourceGroupApiVersion, ResourceGroupKind } from '../common/constants.js';
import { type ClusterClient, createClusterClient } from './cluster-client.js';
import { type CredentialProvider, createCredentialProvider } from './credentials.js';
import { createHttpClient } from './http-client.js';
import { type ClusterAccess, type KubeConfigSource, loadClusterAccess } from './kube-config.js';
import type { RetryPolicy } from './retry.js';
import { createTransport } from './transport.js';

export interface Connection {
  client: ClusterClient;
  access: ClusterAccess;
  credentials: CredentialProvider;
}

export interface ConnectOptions {
  retry?: RetryPolicy;
  maxSockets?: number;
  onSecret?: (value: string) => void;
}

/** Connections started ahead of need, by the settings they were started with; each is handed over once. */
const ahead = new Map<string, Promise<Connection>>();
const keyOf = (s: KubeConfigSource) =>
  JSON.stringify([s.kubeconfigPath ?? '', s.kubeconfigContent ?? '', s.context ?? '', s.setting ?? '']);

/**
 * Starts connecting now, with the requests runs make first (the discovery of the ResourceGroup kind, and
 * of ConfigMap for the deploy history and legacy inventories; answered from the client's cache later), so
 * that their round trips overlap whatever the process does next (loading the rest of the program). The
 * first `connect` with the same settings takes it, its failure included; one nobody takes is left to the
 * process's exit.
 */
export function connectAhead(source: KubeConfigSource, options: ConnectOptions = {}): void {
  const connecting = open(source, options);
  connecting
    .then((c) =>
      Promise.all([
        c.client.resolve(ResourceGroupApiVersion, ResourceGroupKind),
        c.client.resolve('v1', 'ConfigMap'),
      ]),
    )
    .catch(() => {});
  connecting.catch(() => {}); // reported by the connect() that takes it
  ahead.set(keyOf(source), connecting);
}

/**
 * The run's one cluster client (one keep-alive pool, one discovery cache), from the kubeconfig: the one
 * started ahead with the same settings (`connectAhead`), else a new one.
 */
export function connect(source: KubeConfigSource, options: ConnectOptions = {}): Promise<Connection> {
  const key = keyOf(source);
  const started = ahead.get(key);
  if (started) {
    ahead.delete(key);
    return started;
  }
  return open(source, options);
}

/**
 * Loads the kubeconfig and builds the client. Credentials are worked out here, before the first request, so
 * a failing exec plugin or an unreadable certificate is a plain error at the start, not in the middle of a plan.
 */
async function open(source: KubeConfigSource, options: ConnectOptions): Promise<Connection> {
  const access = loadClusterAccess(source);
  const transport = await createTransport(access.cluster, {
    maxSockets: options.maxSockets,
    env: source.env,
  });
  const credentials = createCredentialProvider(access, { onSecret: options.onSecret });
  try {
    await credentials.get();
  } catch (err) {
    transport.destroy();
    throw err;
  }
  const http = createHttpClient(access.server, transport, credentials, options);
  return { client: createClusterClient(http), access, credentials };
}
