import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/control-plane/control-plane.js';

/**
 * A real forward proxy (Debian's squid) on a free loopback port, as a child process with its own config,
 * logs and pid file in a temporary directory. Its `hosts_file` maps made-up host names to addresses only
 * the proxy knows, so a client that reaches such a host must have gone through the proxy. Installed by
 * .ci/run and scripts/control-plane/ensure-binaries.sh (Debian package `squid`); tests install nothing.
 */
export interface Squid {
  url: string;
  /** Lines of squid's access log (`CONNECT kpt-live-proxied.test:6443 ...`). */
  accessLog(): string[];
  stop(): Promise<void>;
}

const candidates = ['/usr/sbin/squid', '/usr/local/sbin/squid', '/usr/bin/squid'];

export async function startSquid(hosts: Record<string, string>): Promise<Squid> {
  const bin = candidates.find((c) => fs.existsSync(c));
  if (!bin)
    throw new Error(
      'squid is not installed: run .ci/run or scripts/control-plane/ensure-binaries.sh (they install the Debian package `squid`)',
    );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-squid-'));
  // squid started as root drops to the `proxy` user: it must be able to write here
  fs.chmodSync(dir, 0o777);
  const port = await freePort();
  const hostsFile = path.join(dir, 'hosts');
  fs.writeFileSync(
    hostsFile,
    Object.entries(hosts)
      .map(([name, ip]) => `${ip} ${name}\n`)
      .join(''),
  );
  const accessLog = path.join(dir, 'access.log');
  for (const f of [accessLog, path.join(dir, 'cache.log')]) {
    fs.writeFileSync(f, '');
    fs.chmodSync(f, 0o666);
  }
  const config = [
    `http_port 127.0.0.1:${port}`,
    `pid_filename ${path.join(dir, 'squid.pid')}`,
    `cache_log ${path.join(dir, 'cache.log')}`,
    `access_log stdio:${accessLog}`,
    'cache_store_log none',
    'logfile_rotate 0',
    `coredump_dir ${dir}`,
    `hosts_file ${hostsFile}`,
    // never ask a real DNS server: only the hosts file (and IP literals) resolve
    'dns_nameservers 127.0.0.1',
    'dns_timeout 2 seconds',
    'cache deny all',
    'cache_mem 8 MB',
    'icp_port 0',
    'htcp_port 0',
    'snmp_port 0',
    'netdb_filename none',
    'shutdown_lifetime 0 seconds',
    'pinger_enable off',
    'acl CONNECT method CONNECT',
    'http_access allow localhost',
    'http_access deny all',
    '',
  ].join('\n');
  const confFile = path.join(dir, 'squid.conf');
  fs.writeFileSync(confFile, config);
  fs.chmodSync(confFile, 0o644);
  fs.chmodSync(hostsFile, 0o644);
  const out = fs.openSync(path.join(dir, 'stderr.log'), 'a');
  const child: ChildProcess = spawn(bin, ['-N', '-f', confFile], { stdio: ['ignore', out, out] });
  fs.closeSync(out);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const log = ['stderr.log', 'cache.log']
        .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
        .join('\n');
      await stop();
      throw new Error(`squid exited at start:\n${log}`);
    }
    if (await listening(port)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error('squid did not listen within 30s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    accessLog: () =>
      fs
        .readFileSync(accessLog, 'utf8')
        .split('\n')
        .filter((l) => l),
    stop,
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
