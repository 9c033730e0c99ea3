import fs from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';

export interface ClusterAccess {
  kc: KubeConfig;
  server: string;
  contextName: string;
  clusterName: string;
  /** The context's namespace, else `default` (as kpt). */
  namespace: string;
}

export interface KubeConfigSource {
  /** Path to a kubeconfig file; else $KUBECONFIG, else ~/.kube/config. */
  kubeconfigPath?: string;
  /** kubeconfig contents (the action's `kubeconfig` input). Wins over the path. */
  kubeconfigContent?: string;
  context?: string;
}

/** Loads a kubeconfig the way kubectl does, with an error that says what to fix. */
export function loadClusterAccess(source: KubeConfigSource): ClusterAccess {
  const kc = new KubeConfig();
  if (source.kubeconfigContent) {
    kc.loadFromString(source.kubeconfigContent);
  } else if (source.kubeconfigPath) {
    if (!fs.existsSync(source.kubeconfigPath))
      throw new Error(`kubeconfig not found: ${source.kubeconfigPath}`);
    kc.loadFromFile(source.kubeconfigPath);
  } else {
    kc.loadFromDefault();
  }
  if (source.context) {
    if (!kc.getContextObject(source.context)) {
      const known = kc.getContexts().map((c) => c.name);
      throw new Error(
        `context "${source.context}" not found in kubeconfig (known: ${known.join(', ') || 'none'})`,
      );
    }
    kc.setCurrentContext(source.context);
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster) {
    throw new Error('no cluster in kubeconfig: set the `kubeconfig` input, KUBECONFIG, or --kubeconfig');
  }
  const contextName = kc.getCurrentContext();
  const ctx = kc.getContextObject(contextName);
  return {
    kc,
    server: cluster.server,
    contextName,
    clusterName: cluster.name,
    namespace: ctx?.namespace || 'default',
  };
}

/**
 * Every credential value in a kubeconfig (tokens, passwords, keys, certificates' private parts),
 * so the action can mask each one on its own, not only the whole text.
 */
export function credentialValues(kc: KubeConfig): string[] {
  const values: string[] = [];
  for (const user of kc.getUsers()) {
    const u = user as unknown as Record<string, unknown>;
    for (const key of ['token', 'password', 'keyData', 'certData']) {
      const v = u[key];
      if (typeof v === 'string' && v.length >= 4) values.push(v);
    }
    if (typeof u.keyData === 'string') {
      const pem = Buffer.from(u.keyData, 'base64').toString('utf8');
      for (const line of pem.split('\n'))
        if (line.length > 20 && !line.startsWith('-----')) values.push(line.trim());
    }
  }
  return values;
}
