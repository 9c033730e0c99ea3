import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A client CA made with the openssl command line (an `openssl ca` directory, so certificates can get exact
 * start and end times, down to the second): the test control plane trusts it with --client-ca-file, and the
 * test exec plugin (exec-plugin.mjs, mode `cert`) signs short-lived client certificates with it.
 */
export interface ClientCa {
  dir: string;
  certPath: string;
  remove(): void;
}

export function createClientCa(): ClientCa {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-client-ca-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-keyout',
      path.join(dir, 'ca.key'),
      '-out',
      path.join(dir, 'ca.crt'),
      '-subj',
      '/CN=kpt-live-test-client-ca',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  fs.mkdirSync(path.join(dir, 'newcerts'));
  fs.writeFileSync(path.join(dir, 'index.txt'), '');
  fs.writeFileSync(
    path.join(dir, 'ca.cnf'),
    [
      '[ ca ]',
      'default_ca = CA_default',
      '[ CA_default ]',
      'dir = .',
      'database = ./index.txt',
      'new_certs_dir = ./newcerts',
      'rand_serial = yes',
      'default_md = sha256',
      'policy = policy_any',
      'unique_subject = no',
      'copy_extensions = none',
      'email_in_dn = no',
      '[ policy_any ]',
      'commonName = supplied',
      'organizationName = optional',
      '',
    ].join('\n'),
  );
  return {
    dir,
    certPath: path.join(dir, 'ca.crt'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A self-signed certificate for 127.0.0.1, made now with openssl and for a test server (the files are removed at once). */
export function throwawayCert(): { key: Buffer; cert: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fault-proxy-'));
  const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const out = { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}
