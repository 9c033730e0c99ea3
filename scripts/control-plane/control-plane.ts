import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRestClient, type RestClient } from './rest.js';
import { knownControllers, serverFlags } from './server-flags.js';

/**
 * A real Kubernetes control plane on loopback: etcd + kube-apiserver (RBAC, token auth, audit log) +
 * kube-controller-manager, started from binaries that ensure-binaries.sh provides (PATH, KUBEBUILDER_ASSETS,
 * cache, download, or a build from Debian's source package). Everything it starts is stopped by pid.
 */
export interface ControlPlane {
  server: string;
  /** The server's Kubernetes version, e.g. `1.37.2` (from `kube-apiserver --version`). */
  version: string;
  /** kubeconfig for a cluster-admin user (context `admin`, namespace `default`). */
  kubeconfigPath: string;
  /** kubeconfig for `restricted-user`: no permissions until a test grants it a Role. */
  restrictedKubeconfigPath: string;
  adminToken: string;
  restrictedToken: string;
  restrictedUser: string;
  /** kube-apiserver audit log (Metadata level, JSON lines). */
  auditLogPath: string;
  workDir: string;
  admin: RestClient;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Log progress lines (first-run build notice, readiness). */
  log?: (line: string) => void;
  /** `current` (default), `oldest` or X.Y.Z; default `$K8S_VERSION`. See ensure-binaries.sh. */
  version?: string;
  /**
   * The address kube-apiserver listens on (default `127.0.0.1`); an IPv6 one (`::1`) gives a server URL
   * `https://[::1]:PORT`, and the self-signed serving certificate then names that address too.
   */
  bindAddress?: string;
  /** `--client-ca-file`: client certificates this CA signed authenticate (CN the user, O the groups). */
  clientCaFile?: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** Runs ensure-binaries.sh for one version and returns the directory holding the binaries. */
export function ensureBinaries(log: (line: string) => void, version?: string): string {
  const script = path.join(here, 'ensure-binaries.sh');
  log(
    'checking for kube-apiserver, kube-controller-manager and etcd (the first run builds them: several minutes)',
  );
  const env = { ...process.env, ...(version ? { K8S_VERSION: version } : {}) };
  const out = execFileSync('bash', [script], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', env });
  return out.trim().split('\n').pop()!.trim();
}

/** `kube-apiserver --version` of the binaries in `bin`, as `1.37.2`. */
export function binaryVersion(bin: string): string {
  const out = execFileSync(path.join(bin, 'kube-apiserver'), ['--version'], { encoding: 'utf8' });
  const m = /Kubernetes v(\d+\.\d+\.\d+)/.exec(out);
  if (!m) throw new Error(`cannot read the version of ${bin}/kube-apiserver: ${out.trim()}`);
  return m[1]!;
}

function kubeconfig(server: string, user: string, token: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: local',
    '  cluster:',
    `    server: ${server}`,
    '    insecure-skip-tls-verify: true',
    'users:',
    `- name: ${user}`,
    '  user:',
    `    token: ${token}`,
    'contexts:',
    `- name: ${user}`,
    '  context:',
    '    cluster: local',
    `    user: ${user}`,
    '    namespace: default',
    `current-context: ${user}`,
    '',
  ].join('\n');
}

const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
`;

export async function startControlPlane(options: StartOptions = {}): Promise<ControlPlane> {
  const log = options.log ?? (() => {});
  const bin = ensureBinaries(log, options.version);
  const version = binaryVersion(bin);
  const kcmHelp = spawnSync(path.join(bin, 'kube-controller-manager'), ['--help'], { encoding: 'utf8' });
  const flags = serverFlags(version, knownControllers(`${kcmHelp.stdout}${kcmHelp.stderr}`));
  const shm = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const workDir = fs.mkdtempSync(path.join(shm, 'kpt-live-cp-'));
  const children: ChildProcess[] = [];
  const logs = path.join(workDir, 'logs');
  fs.mkdirSync(logs);

  const launch = (name: string, args: string[]) => {
    const out = fs.openSync(path.join(logs, `${name}.log`), 'a');
    const child = spawn(path.join(bin, name), args, { stdio: ['ignore', out, out], detached: false });
    fs.closeSync(out);
    children.push(child);
    return child;
  };

  const killAll = () => {
    for (const c of children) if (c.exitCode === null && c.pid) safeKill(c.pid, 'SIGKILL');
  };
  process.once('exit', killAll);

  try {
    const [etcdPort, peerPort, securePort] = [await freePort(), await freePort(), await freePort()];
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    fs.writeFileSync(path.join(workDir, 'sa.key'), privateKey.export({ type: 'pkcs1', format: 'pem' }));
    fs.writeFileSync(path.join(workDir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
    const adminToken = randomBytes(24).toString('hex');
    const restrictedToken = randomBytes(24).toString('hex');
    const restrictedUser = 'restricted-user';
    fs.writeFileSync(
      path.join(workDir, 'tokens.csv'),
      `${adminToken},admin,admin-uid,system:masters\n${restrictedToken},${restrictedUser},restricted-uid,\n`,
    );
    fs.writeFileSync(path.join(workDir, 'audit-policy.yaml'), AUDIT_POLICY);
    const auditLogPath = path.join(workDir, 'audit.log');

    launch('etcd', [
      `--data-dir=${path.join(workDir, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
      `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-cluster=default=http://127.0.0.1:${peerPort}`,
      '--log-level=warn',
    ]);
    const bind = options.bindAddress ?? '127.0.0.1';
    const server = `https://${bind.includes(':') ? `[${bind}]` : bind}:${securePort}`;
    launch('kube-apiserver', [
      `--etcd-servers=http://127.0.0.1:${etcdPort}`,
      `--secure-port=${securePort}`,
      `--bind-address=${bind}`,
      '--advertise-address=127.0.0.1',
      ...(options.clientCaFile ? [`--client-ca-file=${options.clientCaFile}`] : []),
      `--cert-dir=${path.join(workDir, 'certs')}`,
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${path.join(workDir, 'sa.pub')}`,
      `--service-account-signing-key-file=${path.join(workDir, 'sa.key')}`,
      `--token-auth-file=${path.join(workDir, 'tokens.csv')}`,
      '--authorization-mode=RBAC',
      '--service-cluster-ip-range=10.96.0.0/24',
      '--disable-admission-plugins=ServiceAccount',
      ...flags.apiserver,
      '--endpoint-reconciler-type=none',
      `--audit-policy-file=${path.join(workDir, 'audit-policy.yaml')}`,
      `--audit-log-path=${auditLogPath}`,
      '--audit-log-format=json',
      '--audit-log-mode=batch',
      '--audit-log-batch-max-wait=1s',
    ]);
    const kubeconfigPath = path.join(workDir, 'admin.kubeconfig');
    const restrictedKubeconfigPath = path.join(workDir, 'restricted.kubeconfig');
    fs.writeFileSync(kubeconfigPath, kubeconfig(server, 'admin', adminToken), { mode: 0o600 });
    fs.writeFileSync(restrictedKubeconfigPath, kubeconfig(server, restrictedUser, restrictedToken), {
      mode: 0o600,
    });

    const admin = createRestClient(server, adminToken);
    await waitReady(admin, children, logs);
    launch('kube-controller-manager', [
      `--kubeconfig=${kubeconfigPath}`,
      `--service-account-private-key-file=${path.join(workDir, 'sa.key')}`,
      '--use-service-account-credentials=false',
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      '--secure-port=0',
      ...flags.controllerManager,
    ]);
    await waitControllerManager(admin, children, logs);
    log(`Kubernetes ${version} control plane ready at ${server} (kubeconfig ${kubeconfigPath})`);

    return {
      server,
      version,
      kubeconfigPath,
      restrictedKubeconfigPath,
      adminToken,
      restrictedToken,
      restrictedUser,
      auditLogPath,
      workDir,
      admin,
      async stop() {
        process.removeListener('exit', killAll);
        await stopAll(children);
        fs.rmSync(workDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await stopAll(children);
    fs.rmSync(workDir, { recursive: true, force: true });
    throw err;
  }
}

async function waitReady(admin: RestClient, children: ChildProcess[], logs: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const dead = children.find((c) => c.exitCode !== null);
    if (dead) throw new Error(`${dead.spawnfile} exited early (code ${dead.exitCode}); see ${logs}`);
    try {
      const res = await admin.request('GET', '/readyz');
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`kube-apiserver did not become ready within 90s; see ${logs}`);
}

/** The controller-manager is working once its serviceaccount controller made `default/default`. */
async function waitControllerManager(
  admin: RestClient,
  children: ChildProcess[],
  logs: string,
): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const dead = children.find((c) => c.exitCode !== null);
    if (dead) throw new Error(`${dead.spawnfile} exited early (code ${dead.exitCode}); see ${logs}`);
    const res = await admin
      .request('GET', '/api/v1/namespaces/default/serviceaccounts/default')
      .catch(() => undefined);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`kube-controller-manager did not start working within 90s; see ${logs}`);
}

function safeKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  // controller-manager and apiserver first, etcd last
  for (const c of [...children].reverse()) {
    if (c.exitCode !== null || !c.pid) continue;
    const exited = new Promise<void>((r) => c.once('exit', () => r()));
    safeKill(c.pid, 'SIGTERM');
    const timer = setTimeout(() => c.pid && safeKill(c.pid, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}
