import net from 'node:net';

/**
 * Which proxy a request to `server` goes through, as kubectl (client-go) decides: the cluster's `proxy-url`
 * always wins; else HTTPS_PROXY (for https servers) or HTTP_PROXY (for http servers), upper case before lower
 * case, unless NO_PROXY excludes the host; `localhost` and loopback addresses never use an environment
 * proxy (Go's httpproxy rules). Returns undefined for a direct connection.
 */
export function proxyFor(server: URL, proxyUrl: string | undefined, env: NodeJS.ProcessEnv): URL | undefined {
  if (proxyUrl) return new URL(proxyUrl);
  const secure = server.protocol === 'https:';
  const raw = secure
    ? env.HTTPS_PROXY || env.https_proxy
    : // Go ignores HTTP_PROXY under CGI (REQUEST_METHOD set): httpoxy
      env.REQUEST_METHOD
      ? undefined
      : env.HTTP_PROXY || env.http_proxy;
  if (!raw) return undefined;
  const port = server.port || (secure ? '443' : '80');
  if (!useProxy(hostOf(server), port, env.NO_PROXY ?? env.no_proxy ?? '')) return undefined;
  return parseProxy(raw);
}

/** A URL's host without IPv6 brackets, lower case. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** Go's rule: a proxy value without a scheme is `http://` (`proxy.corp:3128`). */
export function parseProxy(raw: string): URL | undefined {
  const text = raw.includes('://') ? raw : `http://${raw}`;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * Whether a request to host:port may use the environment's proxy, given NO_PROXY (golang.org/x/net/http/
 * httpproxy): comma-separated entries, each an IP, a CIDR, a domain (matches itself and its subdomains),
 * `.domain` or `*.domain` (subdomains only), `*` (no proxy at all); an entry may carry a
 * `:port`. localhost and loopback IPs never use the proxy.
 */
export function useProxy(host: string, port: string, noProxy: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (!h) return true;
  if (h === 'localhost') return false;
  const ip = net.isIP(h) ? h : undefined;
  if (ip && isLoopback(ip)) return false;
  for (const rawEntry of noProxy.split(',')) {
    const entry = rawEntry.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return false;
    if (entry.includes('/')) {
      if (ip && inCidr(ip, entry)) return false;
      continue;
    }
    const { name, entryPort } = splitEntry(entry);
    if (entryPort && entryPort !== port) continue;
    if (net.isIP(name)) {
      if (ip && sameIp(ip, name)) return false;
      continue;
    }
    if (ip) continue;
    // Go: "foo.com" matches foo.com and its subdomains; ".foo.com" and "*.foo.com" its subdomains only
    const subdomainsOnly = name.startsWith('.') || name.startsWith('*.');
    const bare = name.replace(/^\*?\./, '');
    if (!bare) continue;
    if (h.endsWith(`.${bare}`) || (!subdomainsOnly && h === bare)) return false;
  }
  return true;
}

function splitEntry(entry: string): { name: string; entryPort?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1], entryPort: bracketed[2] };
  if (net.isIPv6(entry)) return { name: entry };
  const m = /^(.*):(\d+)$/.exec(entry);
  if (m) return { name: m[1], entryPort: m[2] };
  return { name: entry };
}

function isLoopback(ip: string): boolean {
  if (net.isIPv4(ip)) return ip.startsWith('127.');
  const v4 = mappedV4(ip);
  if (v4) return v4.startsWith('127.');
  return sameIp(ip, '::1');
}

function mappedV4(ip: string): string | undefined {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m?.[1];
}

function sameIp(a: string, b: string): boolean {
  const ba = ipBytes(a);
  const bb = ipBytes(b);
  return !!ba && !!bb && ba.length === bb.length && ba.every((x, i) => x === bb[i]);
}

function inCidr(ip: string, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/');
  const bits = Number(bitsText);
  const a = ipBytes(ip);
  const b = ipBytes(base);
  if (!a || !b || a.length !== b.length || !Number.isInteger(bits) || bits < 0 || bits > a.length * 8)
    return false;
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((a[byte] & mask) !== (b[byte] & mask)) return false;
  }
  return true;
}

/** An IP's bytes (4 or 16); an IPv4-mapped IPv6 address counts as IPv4. */
export function ipBytes(ip: string): number[] | undefined {
  const v4 = net.isIPv4(ip) ? ip : mappedV4(ip);
  if (v4) return v4.split('.').map(Number);
  if (!net.isIPv6(ip)) return undefined;
  let text = ip;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1].split('.').map(Number);
    text = `${text.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const h = head ? head.split(':') : [];
  const r = rest !== undefined ? (rest ? rest.split(':') : []) : [];
  const groups = rest !== undefined ? [...h, ...Array(8 - h.length - r.length).fill('0'), ...r] : h;
  if (groups.length !== 8) return undefined;
  return groups.flatMap((g) => {
    const n = Number.parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}
