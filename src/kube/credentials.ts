import fs from 'node:fs';
import type https from 'node:https';
import { type CachedCredential, cachedCredential } from './credential-cache.js';
import { type ExecResult, runExecPlugin } from './exec-plugin.js';
import type { ClusterAccess } from './kube-config.js';
import { KubeConfigError } from './kubeconfig-file.js';

/** What one request authenticates with. */
export interface Credentials {
  /** Authorization and impersonation headers. */
  headers: Record<string, string | string[]>;
  /** Client certificate and key (PEM), when the user has them. */
  cert?: string;
  key?: string;
  /** Which versions of the changing parts these are (a 401 refreshes only what the request used). */
  execGeneration: number;
  fileToken?: string;
}

export interface CredentialProvider {
  get(): Promise<Credentials>;
  /** After a 401 with `used`: whether there are other credentials to retry with (exec re-run, token file re-read). */
  refresh(used: Credentials): Promise<boolean>;
  /** Exec plugin runs so far. */
  readonly execRuns: number;
}

/** client-go re-reads a token file when its cached copy is a minute old. */
export const TokenFileTtlMs = 60_000;

/**
 * The kubeconfig user's credentials, worked out once and kept until they change: static token, basic auth
 * and certificate files at start; a token file re-read each minute and after a 401; an exec plugin's answer
 * until its expiry (one run at a time, one more after a 401); legacy auth-provider users through client-node.
 * Impersonation (`as`, `as-uid`, `as-groups`, `as-user-extra`) becomes headers.
 */
export function createCredentialProvider(
  access: ClusterAccess,
  options: { onSecret?: (value: string) => void; now?: () => number } = {},
): CredentialProvider {
  const now = options.now ?? Date.now;
  const user = access.user;
  const onSecret = options.onSecret ?? (() => {});
  const base: Record<string, string | string[]> = {};
  if (user.impersonate) base['Impersonate-User'] = user.impersonate;
  if (user.impersonateUid) base['Impersonate-Uid'] = user.impersonateUid;
  if (user.impersonateGroups?.length) base['Impersonate-Group'] = user.impersonateGroups;
  for (const [k, v] of Object.entries(user.impersonateExtra ?? {}))
    base[`Impersonate-Extra-${encodeURIComponent(k)}`] = v;
  if (user.token) base.Authorization = `Bearer ${user.token}`;
  else if (user.username || user.password)
    base.Authorization = `Basic ${Buffer.from(`${user.username ?? ''}:${user.password ?? ''}`).toString('base64')}`;

  const readFile = (file: string, what: string) => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new KubeConfigError(
        `user "${user.name}": cannot read ${what} ${file}: ${(err as Error).message}`,
      );
    }
  };
  const staticCert = user.certData
    ? b64(user.certData)
    : user.certFile
      ? readFile(user.certFile, 'client-certificate')
      : undefined;
  const staticKey = user.keyData
    ? b64(user.keyData)
    : user.keyFile
      ? readFile(user.keyFile, 'client-key')
      : undefined;
  if (!!staticCert !== !!staticKey)
    throw new KubeConfigError(
      `user "${user.name}": a client certificate needs both the certificate and the key`,
    );

  let fileToken: { text: string; readAt: number } | undefined;
  const readToken = () => {
    const text = readFile(user.tokenFile!, 'tokenFile').trim();
    fileToken = { text, readAt: now() };
    onSecret(text);
    return text;
  };

  const exec: CachedCredential<ExecResult> | undefined = user.exec
    ? cachedCredential(async () => {
        const r = await runExecPlugin(user.exec!, access.cluster);
        for (const v of [r.token, r.clientKeyData]) if (v) onSecret(v);
        return r;
      }, now)
    : undefined;

  let authProvider: ((opts: https.RequestOptions) => Promise<void>) | undefined;
  const authProviderHeaders = async (): Promise<Record<string, string>> => {
    if (!authProvider) authProvider = clientNodeAuth(access);
    const opts: https.RequestOptions = {};
    await authProvider(opts);
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (typeof v === 'string') h[k] = v;
    return h;
  };

  let assembled: Credentials | undefined;
  // a static token or certificate never changes: the first assembly serves every request
  const fixed = !(user.tokenFile && !user.token) && !exec && !user.authProvider;
  const assemble = async (): Promise<Credentials> => {
    if (fixed && assembled) return assembled;
    const headers = { ...base };
    let cert = staticCert;
    let key = staticKey;
    let execGeneration = 0;
    let token: string | undefined;
    if (user.tokenFile && !user.token) {
      token = fileToken && now() - fileToken.readAt < TokenFileTtlMs ? fileToken.text : readToken();
      headers.Authorization = `Bearer ${token}`;
    }
    if (exec) {
      const { value, generation } = await exec.get();
      execGeneration = generation;
      if (value.token) headers.Authorization = `Bearer ${value.token}`;
      if (value.clientCertificateData) {
        cert = value.clientCertificateData;
        key = value.clientKeyData;
      }
    }
    if (user.authProvider) Object.assign(headers, await authProviderHeaders());
    // the same object while nothing changed: cheap per request, and a 401 can tell which version failed
    if (
      assembled &&
      !user.authProvider &&
      assembled.execGeneration === execGeneration &&
      assembled.fileToken === token &&
      assembled.cert === cert
    )
      return assembled;
    assembled = { headers, cert, key, execGeneration, fileToken: token };
    return assembled;
  };

  return {
    get: assemble,
    async refresh(used) {
      let changed = false;
      if (user.tokenFile && !user.token) {
        const text = readToken();
        if (text !== used.fileToken) changed = true;
      }
      if (exec) {
        const { generation } = await exec.refresh(used.execGeneration);
        if (generation !== used.execGeneration) changed = true;
      }
      return changed;
    },
    get execRuns() {
      return exec?.fetches ?? 0;
    },
  };
}

function b64(data: string): string {
  return Buffer.from(data, 'base64').toString('utf8');
}

/**
 * Legacy `auth-provider` users (azure, gcp, oidc): client-node's own authenticator for the provider works out
 * their headers, as client-node's KubeConfig did. Only that authenticator's module is imported, and only when
 * such a user connects: importing client-node's entry (or its KubeConfig, which pulls in the generated API
 * classes) would put ~14 MB of code on every start (bench/README.md: cold start).
 */
function clientNodeAuth(access: ClusterAccess): (opts: https.RequestOptions) => Promise<void> {
  const user = { name: access.user.name, authProvider: access.user.authProvider };
  const loaded = loadAuthenticator(access.user.authProvider?.name);
  return async (opts) => {
    const authenticator = await loaded;
    opts.headers ??= {};
    if (authenticator?.isAuthProvider(user)) await authenticator.applyAuthentication(user, opts);
  };
}

interface Authenticator {
  isAuthProvider(user: object): boolean;
  applyAuthentication(user: object, opts: https.RequestOptions): Promise<void>;
}

async function loadAuthenticator(name: string | undefined): Promise<Authenticator | undefined> {
  switch (name) {
    case 'azure':
      return new (await import('@kubernetes/client-node/dist/azure_auth.js')).AzureAuth() as Authenticator;
    case 'gcp':
      return new (
        await import('@kubernetes/client-node/dist/gcp_auth.js')
      ).GoogleCloudPlatformAuth() as Authenticator;
    case 'oidc':
      return new (
        await import('@kubernetes/client-node/dist/oidc_auth.js')
      ).OpenIDConnectAuth() as Authenticator;
    default:
      // client-node knows no other provider either: no headers, the server answers 401
      return undefined;
  }
}
