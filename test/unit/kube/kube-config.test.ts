import { describe, expect, it } from 'vitest';
import { inClusterServer } from '../../../src/kube/in-cluster.js';
import { chooseKubeConfig } from '../../../src/kube/kube-config.js';
import { emptyConfig, mergeKubeConfig } from '../../../src/kube/kubeconfig-file.js';

const exists = (files: string[]) => (f: string) => files.includes(f);

describe('chooseKubeConfig: where the kubeconfig comes from', () => {
  it('the action input wins over everything', () => {
    expect(
      chooseKubeConfig(
        { kubeconfigContent: 'x', kubeconfigPath: '/p' },
        { KUBECONFIG: '/k' },
        '/h',
        exists(['/k']),
        true,
      ),
    ).toEqual({ kind: 'content' });
  });

  it('a blank input counts as unset', () => {
    expect(
      chooseKubeConfig({ kubeconfigContent: '  \n' }, {}, '/h', exists(['/h/.kube/config']), false),
    ).toEqual({
      kind: 'files',
      paths: ['/h/.kube/config'],
    });
  });

  it('--kubeconfig wins over KUBECONFIG, even when the file is missing (the loader then says so)', () => {
    expect(
      chooseKubeConfig({ kubeconfigPath: '/p' }, { KUBECONFIG: '/k' }, '/h', exists(['/k']), true),
    ).toEqual({
      kind: 'file',
      path: '/p',
    });
  });

  it('KUBECONFIG is a list; missing files are skipped; ~/.kube/config is then not read', () => {
    expect(
      chooseKubeConfig({}, { KUBECONFIG: '/a:/b::/c' }, '/h', exists(['/c', '/a', '/h/.kube/config']), true),
    ).toEqual({ kind: 'files', paths: ['/a', '/c'] });
  });

  it('KUBECONFIG naming no existing file falls to in-cluster, then to none with a note', () => {
    expect(chooseKubeConfig({}, { KUBECONFIG: '/a' }, '/h', exists(['/h/.kube/config']), true)).toEqual({
      kind: 'in-cluster',
    });
    const none = chooseKubeConfig({}, { KUBECONFIG: '/a' }, '/h', exists([]), false);
    expect(none.kind).toBe('none');
    expect(none.kind === 'none' && none.note).toMatch(/KUBECONFIG names no file that exists \(\/a\)/);
  });

  it('~/.kube/config, then in-cluster, then none', () => {
    expect(chooseKubeConfig({}, {}, '/h', exists(['/h/.kube/config']), true)).toEqual({
      kind: 'files',
      paths: ['/h/.kube/config'],
    });
    expect(chooseKubeConfig({}, {}, '/h', exists([]), true)).toEqual({ kind: 'in-cluster' });
    expect(chooseKubeConfig({}, {}, '/h', exists([]), false)).toEqual({ kind: 'none', note: undefined });
  });
});

describe('inClusterServer', () => {
  it('brackets an IPv6 service host', () => {
    expect(inClusterServer('10.96.0.1', '443')).toBe('https://10.96.0.1:443');
    expect(inClusterServer('fd00:10:96::1', '443')).toBe('https://[fd00:10:96::1]:443');
  });
});

describe('mergeKubeConfig: kubectl merge rules', () => {
  const a = `
apiVersion: v1
kind: Config
current-context: one
clusters:
- name: c1
  cluster:
    server: https://one.example:6443
    certificate-authority: ca.crt
    tls-server-name: api.internal
    proxy-url: http://proxy:3128
users:
- name: u1
  user:
    tokenFile: ../token
    as: alice
    as-uid: "42"
    as-groups: [dev, ops]
    as-user-extra: {scopes: [view]}
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ./bin/plugin
      args: [get-token]
      env: [{name: A, value: b}]
      interactiveMode: Never
contexts:
- name: one
  context: {cluster: c1, user: u1, namespace: team}
`;
  const b = `
current-context: two
clusters:
- name: c1
  cluster: {server: https://ignored}
- name: c2
  cluster: {server: http://127.0.0.1:8001}
contexts:
- name: two
  context: {cluster: c2, user: u1}
`;

  it('the first file to name an entry or a current-context wins; paths are relative to their file', () => {
    const config = emptyConfig();
    mergeKubeConfig(config, a, '/cfg/a', '/cfg');
    mergeKubeConfig(config, b, '/cfg/b', '/other');
    expect(config.currentContext).toBe('one');
    expect(config.clusters.get('c1')).toMatchObject({
      server: 'https://one.example:6443',
      caFile: '/cfg/ca.crt',
      tlsServerName: 'api.internal',
      proxyUrl: 'http://proxy:3128',
    });
    expect(config.clusters.get('c2')?.server).toBe('http://127.0.0.1:8001');
    expect(config.contexts.get('two')).toMatchObject({ cluster: 'c2', user: 'u1' });
    const u = config.users.get('u1');
    expect(u).toMatchObject({
      tokenFile: '/token',
      impersonate: 'alice',
      impersonateUid: '42',
      impersonateGroups: ['dev', 'ops'],
      impersonateExtra: { scopes: ['view'] },
    });
    expect(u?.exec).toMatchObject({
      command: '/cfg/bin/plugin',
      args: ['get-token'],
      env: [{ name: 'A', value: 'b' }],
      apiVersion: 'client.authentication.k8s.io/v1',
    });
  });

  it('a bare exec command is left for PATH', () => {
    const config = emptyConfig();
    mergeKubeConfig(
      config,
      'users:\n- name: u\n  user:\n    exec: {command: aws, args: [eks, get-token]}\n',
      'x',
      '/cfg',
    );
    expect(config.users.get('u')?.exec?.command).toBe('aws');
  });

  it('an empty file is an empty config', () => {
    const config = emptyConfig();
    mergeKubeConfig(config, '', 'x', '/');
    expect(config.contexts.size).toBe(0);
  });

  it.each([
    ['clusters: [\n', /not valid YAML/],
    ['- just a list\n', /not a YAML mapping/],
    ['clusters: {a: 1}\n', /`clusters` is not a list/],
    ['users:\n- user: {}\n', /users\[0\] has no name/],
    ['contexts:\n- name: x\n  context: nope\n', /contexts\[0\]\.context is not a mapping/],
    ['users:\n- name: u\n  user:\n    exec: {args: [x]}\n', /user "u": exec has no command/],
  ])('refuses a broken kubeconfig: %j', (text, message) => {
    expect(() => mergeKubeConfig(emptyConfig(), text, '/cfg/a', '/cfg')).toThrow(message);
    expect(() => mergeKubeConfig(emptyConfig(), text, '/cfg/a', '/cfg')).toThrow(
      /broken kubeconfig \(\/cfg\/a\)/,
    );
  });
});
