import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCredentialProvider, TokenFileTtlMs } from '../../../src/kube/credentials.js';
import type { ClusterAccess } from '../../../src/kube/kube-config.js';
import { emptyConfig, type KubeUser } from '../../../src/kube/kubeconfig-file.js';

const access = (user: KubeUser): ClusterAccess => ({
  server: 'https://k.example',
  contextName: 'c',
  clusterName: 'k',
  namespace: 'default',
  cluster: { name: 'k', server: 'https://k.example' },
  user,
  origin: 'test',
  config: emptyConfig(),
});

describe('createCredentialProvider', () => {
  it('turns as, as-uid, as-groups and as-user-extra into impersonation headers next to the token', async () => {
    const p = createCredentialProvider(
      access({
        name: 'u',
        token: 't0k3n',
        impersonate: 'alice',
        impersonateUid: '42',
        impersonateGroups: ['dev', 'ops'],
        impersonateExtra: { 'acme.com/scopes': ['a', 'b'] },
      }),
    );
    const c = await p.get();
    expect(c.headers).toEqual({
      Authorization: 'Bearer t0k3n',
      'Impersonate-User': 'alice',
      'Impersonate-Uid': '42',
      'Impersonate-Group': ['dev', 'ops'],
      'Impersonate-Extra-acme.com%2Fscopes': ['a', 'b'],
    });
    // the same object for every request while nothing changes; a static token has nothing to refresh
    expect(await p.get()).toBe(c);
    expect(await p.refresh(c)).toBe(false);
  });

  it('gets a legacy auth-provider user its headers from client-node (gcp: the cached access token)', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const user = {
      name: 'u',
      authProvider: { name: 'gcp', config: { 'access-token': 'ya29.cached', expiry: future } },
    };
    const c = await createCredentialProvider(access(user)).get();
    expect(c.headers.Authorization).toBe('Bearer ya29.cached');
    // a provider client-node does not know adds nothing (the server then answers 401)
    const other = await createCredentialProvider(
      access({ name: 'u', authProvider: { name: 'keystone', config: {} } }),
    ).get();
    expect(other.headers.Authorization).toBeUndefined();
  });

  it('sends basic auth for username/password', async () => {
    const c = await createCredentialProvider(access({ name: 'u', username: 'bob', password: 'pw' })).get();
    expect(c.headers.Authorization).toBe(`Basic ${Buffer.from('bob:pw').toString('base64')}`);
  });

  it('re-reads a token file once its copy is a minute old, and at once after a 401', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-token-')), 'token');
    fs.writeFileSync(file, 'one\n');
    const clock = { now: 0 };
    const p = createCredentialProvider(access({ name: 'u', tokenFile: file }), { now: () => clock.now });
    const first = await p.get();
    expect(first.headers.Authorization).toBe('Bearer one');
    fs.writeFileSync(file, 'two');
    clock.now += TokenFileTtlMs - 1;
    expect((await p.get()).headers.Authorization).toBe('Bearer one');
    clock.now += 1;
    expect((await p.get()).headers.Authorization).toBe('Bearer two');
    fs.writeFileSync(file, 'three');
    const used = await p.get();
    expect(await p.refresh(used)).toBe(true);
    expect((await p.get()).headers.Authorization).toBe('Bearer three');
    // refused again, file unchanged: nothing new to retry with
    expect(await p.refresh(await p.get())).toBe(false);
  });

  it('refuses a certificate without its key', () => {
    expect(() => createCredentialProvider(access({ name: 'u', certData: 'QUJD' }))).toThrow(
      /needs both the certificate and the key/,
    );
  });
});
