// A client-go exec credential plugin for tests, run as `node exec-plugin.mjs` from a kubeconfig's `exec`.
// It appends one line per run to $PLUGIN_COUNTER (so a test can count runs) and prints an ExecCredential:
//   PLUGIN_TOKENS      comma-separated tokens, one per run (the last one repeats); mode `token`
//   PLUGIN_EXPIRES_IN  seconds until expirationTimestamp (empty: no expiry)
//   PLUGIN_MODE        `token` (default), `cert` (a client certificate signed by $PLUGIN_CA_DIR's CA, CN
//                      $PLUGIN_CERT_USER, O system:masters, valid from 5 s ago until the expiry), `fail`
//   PLUGIN_DELAY_MS    sleep this long first (a slow plugin, so concurrent callers would overlap)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const env = process.env;
fs.appendFileSync(env.PLUGIN_COUNTER, `${new Date().toISOString()}\n`);
const run = fs.readFileSync(env.PLUGIN_COUNTER, 'utf8').trim().split('\n').length;
const delay = Number(env.PLUGIN_DELAY_MS || 0);
if (delay) await new Promise((r) => setTimeout(r, delay));

const info = JSON.parse(env.KUBERNETES_EXEC_INFO || '{}');
const apiVersion = info.apiVersion || 'client.authentication.k8s.io/v1';
const mode = env.PLUGIN_MODE || 'token';
if (mode === 'fail') {
  process.stderr.write('error: the SSO session has expired; run `corp-login` and try again\n');
  process.exit(2);
}
const status = {};
const expiresIn = env.PLUGIN_EXPIRES_IN ? Number(env.PLUGIN_EXPIRES_IN) : undefined;
const expiry = expiresIn === undefined ? undefined : new Date(Date.now() + expiresIn * 1000);
if (expiry) status.expirationTimestamp = expiry.toISOString().replace(/\.\d+Z$/, 'Z');
if (mode === 'token') {
  const tokens = (env.PLUGIN_TOKENS || '').split(',');
  status.token = tokens[Math.min(run, tokens.length) - 1];
} else if (mode === 'cert') {
  const dir = env.PLUGIN_CA_DIR;
  const work = fs.mkdtempSync(path.join(dir, 'issue-'));
  const stamp = (d) =>
    `${d
      .toISOString()
      .replace(/[-:T]/g, '')
      .replace(/\.\d+Z$/, '')}Z`;
  const quiet = { stdio: ['ignore', 'ignore', 'pipe'] };
  execFileSync(
    'openssl',
    [
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      path.join(work, 'key.pem'),
      '-out',
      path.join(work, 'csr.pem'),
      '-subj',
      `/O=system:masters/CN=${env.PLUGIN_CERT_USER}`,
    ],
    quiet,
  );
  execFileSync(
    'openssl',
    [
      'ca',
      '-batch',
      '-notext',
      '-config',
      path.join(dir, 'ca.cnf'),
      '-cert',
      path.join(dir, 'ca.crt'),
      '-keyfile',
      path.join(dir, 'ca.key'),
      '-in',
      path.join(work, 'csr.pem'),
      '-out',
      path.join(work, 'cert.pem'),
      '-startdate',
      stamp(new Date(Date.now() - 5000)),
      '-enddate',
      stamp(expiry ?? new Date(Date.now() + 3600_000)),
    ],
    { ...quiet, cwd: dir },
  );
  status.clientCertificateData = fs.readFileSync(path.join(work, 'cert.pem'), 'utf8');
  status.clientKeyData = fs.readFileSync(path.join(work, 'key.pem'), 'utf8');
}
process.stdout.write(JSON.stringify({ apiVersion, kind: 'ExecCredential', status }));
