import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';

/** A kubeconfig cluster entry, with file paths made absolute. */
export interface KubeCluster {
  name: string;
  server: string;
  caData?: string;
  caFile?: string;
  insecureSkipTlsVerify?: boolean;
  tlsServerName?: string;
  proxyUrl?: string;
}

export interface ExecConfig {
  command: string;
  args: string[];
  env: { name: string; value: string }[];
  apiVersion: string;
  installHint?: string;
  provideClusterInfo?: boolean;
  interactiveMode?: string;
}

/** A kubeconfig user entry, with file paths made absolute. */
export interface KubeUser {
  name: string;
  token?: string;
  tokenFile?: string;
  username?: string;
  password?: string;
  certData?: string;
  certFile?: string;
  keyData?: string;
  keyFile?: string;
  exec?: ExecConfig;
  authProvider?: { name: string; config?: Record<string, string> };
  impersonate?: string;
  impersonateUid?: string;
  impersonateGroups?: string[];
  impersonateExtra?: Record<string, string[]>;
}

export interface KubeContext {
  name: string;
  cluster: string;
  user: string;
  namespace?: string;
}

export interface KubeConfigModel {
  clusters: Map<string, KubeCluster>;
  users: Map<string, KubeUser>;
  contexts: Map<string, KubeContext>;
  currentContext?: string;
}

/** A kubeconfig that cannot be read: names where it came from and what is wrong. */
export class KubeConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeConfigError';
  }
}

export function emptyConfig(): KubeConfigModel {
  return { clusters: new Map(), users: new Map(), contexts: new Map() };
}

type Raw = Record<string, unknown>;

const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parses one kubeconfig text and merges it into `into` the way kubectl merges KUBECONFIG files: the first
 * file to name a cluster, user or context wins, and so does the first current-context. Relative file paths
 * are resolved against `baseDir` (the file's directory).
 */
export function mergeKubeConfig(into: KubeConfigModel, text: string, where: string, baseDir: string): void {
  let doc: unknown;
  try {
    doc = yaml.load(text);
  } catch (err) {
    const reason = (err as Error).message.split('\n')[0];
    throw new KubeConfigError(`broken kubeconfig (${where}): not valid YAML: ${reason}`);
  }
  if (doc === undefined || doc === null) return; // an empty file is an empty config, as kubectl
  if (!isObject(doc)) throw new KubeConfigError(`broken kubeconfig (${where}): not a YAML mapping`);
  const abs = (p: unknown) => (typeof p === 'string' && p ? path.resolve(baseDir, p) : undefined);
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const entries = (key: string, inner: string): { name: string; body: Raw }[] => {
    const list = doc[key as keyof typeof doc] as unknown;
    if (list === undefined || list === null) return [];
    if (!Array.isArray(list))
      throw new KubeConfigError(`broken kubeconfig (${where}): \`${key}\` is not a list`);
    return list.map((e, i) => {
      if (!isObject(e) || typeof e.name !== 'string' || !e.name)
        throw new KubeConfigError(`broken kubeconfig (${where}): ${key}[${i}] has no name`);
      const body = e[inner] ?? {};
      if (!isObject(body))
        throw new KubeConfigError(`broken kubeconfig (${where}): ${key}[${i}].${inner} is not a mapping`);
      return { name: e.name, body };
    });
  };

  for (const { name, body: c } of entries('clusters', 'cluster')) {
    if (into.clusters.has(name)) continue;
    into.clusters.set(name, {
      name,
      server: str(c.server) ?? '',
      caData: str(c['certificate-authority-data']),
      caFile: abs(c['certificate-authority']),
      insecureSkipTlsVerify: c['insecure-skip-tls-verify'] === true,
      tlsServerName: str(c['tls-server-name']),
      proxyUrl: str(c['proxy-url']),
    });
  }
  for (const { name, body: u } of entries('users', 'user')) {
    if (into.users.has(name)) continue;
    into.users.set(name, readUser(name, u, where, baseDir));
  }
  for (const { name, body: c } of entries('contexts', 'context')) {
    if (into.contexts.has(name)) continue;
    into.contexts.set(name, {
      name,
      cluster: str(c.cluster) ?? '',
      user: str(c.user) ?? '',
      namespace: str(c.namespace),
    });
  }
  if (!into.currentContext && typeof doc['current-context'] === 'string' && doc['current-context'])
    into.currentContext = doc['current-context'];
}

function readUser(name: string, u: Raw, where: string, baseDir: string): KubeUser {
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const abs = (p: unknown) => (typeof p === 'string' && p ? path.resolve(baseDir, p) : undefined);
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
  const user: KubeUser = {
    name,
    token: str(u.token),
    tokenFile: abs(u.tokenFile),
    username: str(u.username),
    password: str(u.password),
    certData: str(u['client-certificate-data']),
    certFile: abs(u['client-certificate']),
    keyData: str(u['client-key-data']),
    keyFile: abs(u['client-key']),
    impersonate: str(u.as),
    impersonateUid: str(u['as-uid']),
    impersonateGroups: strings(u['as-groups']),
  };
  if (isObject(u['as-user-extra'])) {
    user.impersonateExtra = {};
    for (const [k, v] of Object.entries(u['as-user-extra'])) user.impersonateExtra[k] = strings(v);
  }
  if (isObject(u['auth-provider'])) {
    const ap = u['auth-provider'];
    user.authProvider = {
      name: String(ap.name ?? ''),
      config: isObject(ap.config) ? (ap.config as Record<string, string>) : undefined,
    };
  }
  if (u.exec !== undefined && u.exec !== null) {
    const e = u.exec;
    if (!isObject(e) || typeof e.command !== 'string' || !e.command)
      throw new KubeConfigError(`broken kubeconfig (${where}): user "${name}": exec has no command`);
    // a command with a slash is a path relative to the kubeconfig (as kubectl); a bare name is looked up in PATH
    const command = e.command.includes('/') ? path.resolve(baseDir, e.command) : e.command;
    user.exec = {
      command,
      args: strings(e.args),
      env: Array.isArray(e.env)
        ? e.env.filter(isObject).map((x) => ({ name: String(x.name ?? ''), value: String(x.value ?? '') }))
        : [],
      apiVersion: str(e.apiVersion) ?? 'client.authentication.k8s.io/v1beta1',
      installHint: str(e.installHint),
      provideClusterInfo: e.provideClusterInfo === true,
      interactiveMode: str(e.interactiveMode),
    };
  }
  return user;
}

/** Reads and merges kubeconfig files (KUBECONFIG order); files that do not exist are skipped, as kubectl. */
export function readKubeConfigFiles(files: string[]): { config: KubeConfigModel; read: string[] } {
  const config = emptyConfig();
  const read: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new KubeConfigError(`cannot read kubeconfig ${file}: ${(err as Error).message}`);
    }
    mergeKubeConfig(config, text, file, path.dirname(file));
    read.push(file);
  }
  return { config, read };
}
