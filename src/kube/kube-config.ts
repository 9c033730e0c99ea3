import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inClusterAvailable, inClusterConfig, serviceAccountDir } from './in-cluster.js';
import {
  emptyConfig,
  type KubeCluster,
  KubeConfigError,
  type KubeConfigModel,
  type KubeUser,
  mergeKubeConfig,
  readKubeConfigFiles,
} from './kubeconfig-file.js';

export { KubeConfigError } from './kubeconfig-file.js';

export interface ClusterAccess {
  server: string;
  contextName: string;
  clusterName: string;
  /** The context's namespace, else `default` (as kpt). */
  namespace: string;
  cluster: KubeCluster;
  user: KubeUser;
  /** Where the config came from: `the kubeconfig input`, a file list, `in-cluster service account`. */
  origin: string;
  /** The whole (merged) kubeconfig. */
  config: KubeConfigModel;
}

export interface KubeConfigSource {
  /** Path to a kubeconfig file (--kubeconfig); wins over KUBECONFIG. */
  kubeconfigPath?: string;
  /** kubeconfig contents (the action's `kubeconfig` input). Wins over everything. */
  kubeconfigContent?: string;
  context?: string;
  /** How the front end names its kubeconfig setting, for the "no kubeconfig" error. */
  setting?: string;
  /** Environment (tests); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** Where the kubeconfig comes from, in kubectl's order (plus the action's input first). */
export type KubeConfigOrigin =
  | { kind: 'content' }
  | { kind: 'file'; path: string }
  | { kind: 'files'; paths: string[] }
  | { kind: 'in-cluster' }
  | { kind: 'none'; note?: string };

/**
 * The precedence, as a pure decision: the `kubeconfig` input, else --kubeconfig, else KUBECONFIG (a list;
 * files that do not exist are skipped, and ~/.kube/config is not consulted when it is set, as kubectl),
 * else ~/.kube/config, else the in-cluster service account, else none.
 */
export function chooseKubeConfig(
  source: Pick<KubeConfigSource, 'kubeconfigContent' | 'kubeconfigPath'>,
  env: NodeJS.ProcessEnv,
  home: string,
  exists: (file: string) => boolean,
  inCluster: boolean,
): KubeConfigOrigin {
  if (source.kubeconfigContent?.trim()) return { kind: 'content' };
  if (source.kubeconfigPath) return { kind: 'file', path: source.kubeconfigPath };
  let note: string | undefined;
  if (env.KUBECONFIG) {
    const paths = env.KUBECONFIG.split(path.delimiter).filter((p) => p);
    const present = paths.filter(exists);
    if (present.length > 0) return { kind: 'files', paths: present };
    note = `KUBECONFIG names no file that exists (${paths.join(path.delimiter)})`;
  } else if (home) {
    const file = path.join(home, '.kube', 'config');
    if (exists(file)) return { kind: 'files', paths: [file] };
  }
  if (inCluster) return { kind: 'in-cluster' };
  return { kind: 'none', note };
}

/** Loads a kubeconfig the way kubectl does, with an error that says what to fix. */
export function loadClusterAccess(source: KubeConfigSource): ClusterAccess {
  const env = source.env ?? process.env;
  const origin = chooseKubeConfig(
    source,
    env,
    env.HOME || os.homedir(),
    (f) => fs.existsSync(f),
    inClusterAvailable(env),
  );
  let config: KubeConfigModel;
  let where: string;
  switch (origin.kind) {
    case 'content':
      config = emptyConfig();
      where = 'the kubeconfig input';
      mergeKubeConfig(config, source.kubeconfigContent ?? '', where, process.cwd());
      break;
    case 'file':
      if (!fs.existsSync(origin.path)) throw new KubeConfigError(`kubeconfig not found: ${origin.path}`);
      config = readKubeConfigFiles([origin.path]).config;
      where = origin.path;
      break;
    case 'files':
      config = readKubeConfigFiles(origin.paths).config;
      where = origin.paths.join(path.delimiter);
      break;
    case 'in-cluster':
      config = inClusterConfig(env);
      where = `in-cluster service account (${serviceAccountDir(env)})`;
      break;
    default: {
      const setting = source.setting ?? 'the `kubeconfig` input';
      const extra = origin.note ? `; ${origin.note}` : '';
      throw new KubeConfigError(
        `no kubeconfig: set ${setting} or KUBECONFIG (no ~/.kube/config and not running in a cluster${extra})`,
      );
    }
  }
  return selectContext(config, source.context, where);
}

function selectContext(config: KubeConfigModel, wanted: string | undefined, where: string): ClusterAccess {
  const contextName = wanted || config.currentContext;
  if (!contextName) {
    if (config.contexts.size === 0)
      throw new KubeConfigError(`broken kubeconfig (${where}): it has no contexts`);
    throw new KubeConfigError(
      `kubeconfig (${where}) has no current-context: set the context (\`context\` input or --context) to one of: ${[...config.contexts.keys()].join(', ')}`,
    );
  }
  const ctx = config.contexts.get(contextName);
  if (!ctx) {
    const known = [...config.contexts.keys()];
    throw new KubeConfigError(
      `context "${contextName}" not found in kubeconfig (known: ${known.join(', ') || 'none'})`,
    );
  }
  const cluster = config.clusters.get(ctx.cluster);
  if (!cluster)
    throw new KubeConfigError(
      `broken kubeconfig (${where}): context "${contextName}" names cluster "${ctx.cluster}", which is not defined`,
    );
  if (!cluster.server)
    throw new KubeConfigError(`broken kubeconfig (${where}): cluster "${cluster.name}" has no server`);
  let url: URL;
  try {
    url = new URL(cluster.server);
  } catch {
    throw new KubeConfigError(
      `broken kubeconfig (${where}): cluster "${cluster.name}" has a server that is not a URL: ${cluster.server}`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new KubeConfigError(
      `broken kubeconfig (${where}): cluster "${cluster.name}": server must be https:// or http://, not ${url.protocol}`,
    );
  if (cluster.proxyUrl) {
    let proxy: URL | undefined;
    try {
      proxy = new URL(cluster.proxyUrl);
    } catch {
      // reported below
    }
    if (!proxy || (proxy.protocol !== 'http:' && proxy.protocol !== 'https:'))
      throw new KubeConfigError(
        `broken kubeconfig (${where}): cluster "${cluster.name}": proxy-url must be an http:// or https:// URL (socks5 is not supported): ${cluster.proxyUrl}`,
      );
  }
  const user = ctx.user ? config.users.get(ctx.user) : { name: '' };
  if (!user)
    throw new KubeConfigError(
      `broken kubeconfig (${where}): context "${contextName}" names user "${ctx.user}", which is not defined`,
    );
  return {
    server: cluster.server,
    contextName,
    clusterName: cluster.name,
    namespace: ctx.namespace || 'default',
    cluster,
    user,
    origin: where,
    config,
  };
}

/**
 * Every credential value in the kubeconfig's users (tokens, passwords, keys, certificates' private parts),
 * so the action can mask each one on its own, not only the whole text.
 */
export function credentialValues(access: ClusterAccess): string[] {
  const values: string[] = [];
  for (const u of access.config.users.values()) {
    for (const v of [u.token, u.password, u.keyData, u.certData]) if (v && v.length >= 4) values.push(v);
    if (u.keyData) {
      const pem = Buffer.from(u.keyData, 'base64').toString('utf8');
      for (const line of pem.split('\n'))
        if (line.length > 20 && !line.startsWith('-----')) values.push(line.trim());
    }
    for (const v of Object.values(u.authProvider?.config ?? {}))
      if (typeof v === 'string' && v.length >= 8) values.push(v);
  }
  return values;
}
