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

/**
 * Loads the kubeconfig and builds the run's one cluster client (one keep-alive pool, one discovery cache).
 * Credentials are worked out here, before the first request, so a failing exec plugin or an unreadable
 * certificate is a plain error at the start, not in the middle of a plan.
 */
export async function connect(
  source: KubeConfigSource,
  options: { retry?: RetryPolicy; maxSockets?: number; onSecret?: (value: string) => void } = {},
): Promise<Connection> {
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
