import { type ClusterClient, createClusterClient } from './cluster-client.js';
import { createHttpClient } from './http-client.js';
import { type ClusterAccess, type KubeConfigSource, loadClusterAccess } from './kube-config.js';
import type { RetryPolicy } from './retry.js';

export interface Connection {
  client: ClusterClient;
  access: ClusterAccess;
}

/** Loads the kubeconfig and builds the run's one cluster client (one keep-alive pool, one discovery cache). */
export async function connect(
  source: KubeConfigSource,
  options: { retry?: RetryPolicy; maxSockets?: number } = {},
): Promise<Connection> {
  const access = loadClusterAccess(source);
  const http = await createHttpClient(access.kc, options);
  return { client: createClusterClient(http), access };
}
