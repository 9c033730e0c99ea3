import type { ExecConfig, KubeCluster } from './kubeconfig-file.js';

/** What an exec credential plugin returned (ExecCredential `status`). */
export interface ExecResult {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  /** Milliseconds since the epoch; undefined: valid until the server says otherwise (401). */
  expiresAt?: number;
}

/** An exec plugin that failed: names the command, and carries its stderr. */
export class ExecPluginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExecPluginError';
  }
}

const SupportedVersions = [
  'client.authentication.k8s.io/v1',
  'client.authentication.k8s.io/v1beta1',
  'client.authentication.k8s.io/v1alpha1',
];

/**
 * Runs an exec credential plugin as kubectl does: its `env` added to ours, KUBERNETES_EXEC_INFO describing
 * the request (never interactive here: no terminal in CI), stdout an ExecCredential. A failure names the
 * command and shows its stderr (and the installHint when the command is missing).
 */
export async function runExecPlugin(
  exec: ExecConfig,
  cluster: KubeCluster,
  options: { timeoutMs?: number } = {},
): Promise<ExecResult> {
  if (!SupportedVersions.includes(exec.apiVersion))
    throw new ExecPluginError(
      `exec plugin ${exec.command}: apiVersion ${exec.apiVersion} is not supported (use one of ${SupportedVersions.join(', ')})`,
    );
  if (exec.interactiveMode === 'Always')
    throw new ExecPluginError(
      `exec plugin ${exec.command}: interactiveMode is Always, but there is no terminal to interact with here`,
    );
  const spec: Record<string, unknown> = { interactive: false };
  if (exec.provideClusterInfo) {
    spec.cluster = {
      server: cluster.server,
      'tls-server-name': cluster.tlsServerName,
      'insecure-skip-tls-verify': cluster.insecureSkipTlsVerify || undefined,
      'certificate-authority-data': cluster.caData,
      'proxy-url': cluster.proxyUrl,
    };
  }
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const { name, value } of exec.env) env[name] = value;
  env.KUBERNETES_EXEC_INFO = JSON.stringify({ apiVersion: exec.apiVersion, kind: 'ExecCredential', spec });
  const label = [exec.command, ...exec.args].join(' ');
  // node:child_process only for a user with an exec plugin, not at every start
  const { spawn } = await import('node:child_process');

  const { code, stdout, stderr, spawnError } = await new Promise<{
    code: number | null;
    stdout: string;
    stderr: string;
    spawnError?: NodeJS.ErrnoException;
  }>((resolve) => {
    const child = spawn(exec.command, exec.args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      err += c;
    });
    const timer = setTimeout(() => {
      err += `\n(killed after ${Math.round((options.timeoutMs ?? 120_000) / 1000)}s)`;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 120_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, stdout: out, stderr: err, spawnError: e });
    });
    child.on('close', (c) => {
      clearTimeout(timer);
      resolve({ code: c, stdout: out, stderr: err });
    });
  });
  if (spawnError) {
    const hint = exec.installHint ? `\n${exec.installHint.trim()}` : '';
    const why = spawnError.code === 'ENOENT' ? 'command not found' : spawnError.message;
    throw new ExecPluginError(`exec plugin ${exec.command}: ${why}${hint}`);
  }
  if (code !== 0) {
    const shown = stderr.trim() ? `:\n${stderr.trim()}` : ' (no output on stderr)';
    throw new ExecPluginError(`exec plugin "${label}" failed (exit code ${code})${shown}`);
  }
  return parseExecCredential(stdout, exec.apiVersion, label);
}

/** Reads a plugin's stdout: an ExecCredential of the version asked for, with a token or a certificate pair. */
export function parseExecCredential(stdout: string, apiVersion: string, label: string): ExecResult {
  let doc: {
    apiVersion?: string;
    kind?: string;
    status?: {
      token?: string;
      clientCertificateData?: string;
      clientKeyData?: string;
      expirationTimestamp?: string;
    };
  };
  try {
    doc = JSON.parse(stdout);
  } catch {
    throw new ExecPluginError(
      `exec plugin "${label}" printed something that is not an ExecCredential (JSON)`,
    );
  }
  if (doc?.kind !== 'ExecCredential')
    throw new ExecPluginError(`exec plugin "${label}": its output is not kind ExecCredential`);
  if (doc.apiVersion !== apiVersion)
    throw new ExecPluginError(
      `exec plugin "${label}": it returned ${doc.apiVersion}, but the kubeconfig asks for ${apiVersion}`,
    );
  const s = doc.status ?? {};
  const hasCert = !!s.clientCertificateData || !!s.clientKeyData;
  if (hasCert && !(s.clientCertificateData && s.clientKeyData))
    throw new ExecPluginError(
      `exec plugin "${label}": it returned only one of clientCertificateData and clientKeyData`,
    );
  if (!s.token && !hasCert)
    throw new ExecPluginError(`exec plugin "${label}": it returned neither a token nor a client certificate`);
  let expiresAt: number | undefined;
  if (s.expirationTimestamp) {
    expiresAt = Date.parse(s.expirationTimestamp);
    if (Number.isNaN(expiresAt))
      throw new ExecPluginError(
        `exec plugin "${label}": expirationTimestamp is not a time: ${s.expirationTimestamp}`,
      );
  }
  return {
    token: s.token || undefined,
    clientCertificateData: s.clientCertificateData || undefined,
    clientKeyData: s.clientKeyData || undefined,
    expiresAt,
  };
}
