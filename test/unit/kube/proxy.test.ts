import { describe, expect, it } from 'vitest';
import { ipBytes, proxyFor, useProxy } from '../../../src/kube/proxy.js';

const url = (s: string) => new URL(s);

describe('proxyFor: which proxy kubectl would use', () => {
  it('uses the cluster proxy-url whatever the environment says, even for loopback', () => {
    expect(proxyFor(url('https://127.0.0.1:6443'), 'http://proxy.corp:3128', { NO_PROXY: '*' })?.href).toBe(
      'http://proxy.corp:3128/',
    );
  });

  it('uses HTTPS_PROXY for https servers and HTTP_PROXY for http ones, upper case first', () => {
    const env = { HTTPS_PROXY: 'http://s:1', https_proxy: 'http://lower:1', HTTP_PROXY: 'http://p:2' };
    expect(proxyFor(url('https://api.example.com'), undefined, env)?.host).toBe('s:1');
    expect(proxyFor(url('http://api.example.com'), undefined, env)?.host).toBe('p:2');
    expect(proxyFor(url('https://api.example.com'), undefined, { https_proxy: 'http://lower:1' })?.host).toBe(
      'lower:1',
    );
    expect(proxyFor(url('https://api.example.com'), undefined, { HTTP_PROXY: 'http://p:2' })).toBeUndefined();
  });

  it('reads a proxy without a scheme as http://, as Go does', () => {
    expect(proxyFor(url('https://api.example.com'), undefined, { HTTPS_PROXY: 'proxy:3128' })?.href).toBe(
      'http://proxy:3128/',
    );
  });

  it('ignores HTTP_PROXY under CGI (httpoxy)', () => {
    expect(
      proxyFor(url('http://api.example.com'), undefined, { HTTP_PROXY: 'http://p:2', REQUEST_METHOD: 'GET' }),
    ).toBeUndefined();
  });

  it('applies NO_PROXY (upper case first) to the environment proxy only', () => {
    const env = { HTTPS_PROXY: 'http://s:1', NO_PROXY: 'example.com', no_proxy: '' };
    expect(proxyFor(url('https://api.example.com'), undefined, env)).toBeUndefined();
    expect(proxyFor(url('https://api.example.org'), undefined, env)?.host).toBe('s:1');
    expect(
      proxyFor(url('https://api.example.org'), undefined, { HTTPS_PROXY: 'http://s:1', no_proxy: '.org' }),
    ).toBeUndefined();
  });
});

describe('useProxy: NO_PROXY matching (golang.org/x/net/http/httpproxy)', () => {
  it('never proxies localhost and loopback addresses', () => {
    expect(useProxy('localhost', '443', '')).toBe(false);
    expect(useProxy('127.0.0.1', '443', '')).toBe(false);
    expect(useProxy('127.8.0.1', '443', '')).toBe(false);
    expect(useProxy('::1', '443', '')).toBe(false);
    expect(useProxy('[::1]', '443', '')).toBe(false);
    expect(useProxy('::ffff:127.0.0.1', '443', '')).toBe(false);
    expect(useProxy('10.0.0.1', '443', '')).toBe(true);
  });

  it('`*` turns the proxy off for every host', () => {
    expect(useProxy('api.example.com', '443', ' * ')).toBe(false);
  });

  it('a domain matches itself and its subdomains, not lookalikes', () => {
    expect(useProxy('example.com', '443', 'example.com')).toBe(false);
    expect(useProxy('api.example.com', '443', 'example.com')).toBe(false);
    expect(useProxy('notexample.com', '443', 'example.com')).toBe(true);
    expect(useProxy('API.Example.COM', '443', 'example.com')).toBe(false);
  });

  it('`.domain` and `*.domain` match subdomains only', () => {
    expect(useProxy('api.example.com', '443', '.example.com')).toBe(false);
    expect(useProxy('example.com', '443', '.example.com')).toBe(true);
    expect(useProxy('api.example.com', '443', '*.example.com')).toBe(false);
    expect(useProxy('example.com', '443', '*.example.com')).toBe(true);
  });

  it('an entry with a port matches that port only', () => {
    expect(useProxy('api.example.com', '6443', 'example.com:6443')).toBe(false);
    expect(useProxy('api.example.com', '443', 'example.com:6443')).toBe(true);
    expect(useProxy('10.1.2.3', '6443', '10.1.2.3:6443')).toBe(false);
    expect(useProxy('10.1.2.3', '443', '10.1.2.3:6443')).toBe(true);
    expect(useProxy('fd00::5', '6443', '[fd00::5]:6443')).toBe(false);
  });

  it('matches IPs exactly and CIDRs by prefix, IPv4 and IPv6', () => {
    expect(useProxy('10.1.2.3', '443', '10.1.2.3')).toBe(false);
    expect(useProxy('10.1.2.4', '443', '10.1.2.3')).toBe(true);
    expect(useProxy('10.1.2.3', '443', '192.168.0.0/16, 10.0.0.0/8')).toBe(false);
    expect(useProxy('11.1.2.3', '443', '10.0.0.0/8')).toBe(true);
    expect(useProxy('fd00::1:2', '443', 'fd00::/16')).toBe(false);
    expect(useProxy('fe80::1', '443', 'fd00::/16')).toBe(true);
    expect(useProxy('fd00:0:0:0::2', '443', 'fd00::2')).toBe(false);
    // a host name never matches an IP entry, an IP never matches a domain entry
    expect(useProxy('api.example.com', '443', '10.0.0.0/8,10.1.2.3')).toBe(true);
  });

  it('skips empty and unreadable entries', () => {
    expect(useProxy('api.example.com', '443', ',, ,10.0.0.0/99,.')).toBe(true);
  });
});

describe('ipBytes', () => {
  it('expands IPv6 forms and treats mapped IPv4 as IPv4', () => {
    expect(ipBytes('::1')).toEqual([...Array(15).fill(0), 1]);
    expect(ipBytes('::ffff:10.0.0.1')).toEqual([10, 0, 0, 1]);
    expect(ipBytes('64:ff9b::10.0.0.1')?.slice(12)).toEqual([10, 0, 0, 1]);
    expect(ipBytes('not-an-ip')).toBeUndefined();
  });
});
