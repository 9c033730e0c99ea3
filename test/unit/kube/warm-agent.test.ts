import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type WarmableAgent, warmableAgent } from '../../../src/kube/warm-agent.js';
import { throwawayCert } from '../../support/pki.js';

/** A local server that counts the connections it accepts and answers every request with its socket's number. */
async function countingServer(tls?: { key: string; cert: string }) {
  let connections = 0;
  let open = 0;
  const numbers = new WeakMap<Socket, number>();
  const handler: http.RequestListener = (req, res) => res.end(String(numbers.get(req.socket as Socket)));
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  server.on(tls ? 'secureConnection' : 'connection', (s: Socket) => {
    numbers.set(s, ++connections);
    open++;
    s.on('close', () => open--);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    open: () => open,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const get = (agent: http.Agent, port: number, secure: boolean, ca?: string) =>
  new Promise<string>((resolve, reject) => {
    const req = (secure ? https : http).request(
      { host: '127.0.0.1', port, path: '/', agent, ...(ca ? { ca } : {}) },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve(body));
      },
    );
    req.on('error', reject);
    req.end();
  });

/** Until `check` holds (the server counts a connection when its handshake is done, a little later). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
}

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('warmableAgent', () => {
  it('opens connections before a burst, and the burst uses them instead of opening its own', async () => {
    const server = await countingServer();
    const agent = warmableAgent(false, { keepAlive: true, maxSockets: 8 });
    cleanup.push(server.close, () => agent.destroy());

    await get(agent, server.port, false); // the first connection: the one the others are opened like
    expect(server.connections()).toBe(1);
    agent.warm(6);
    await until(() => server.connections() === 6);
    expect(server.connections()).toBe(6); // the pooled one counts: five more

    const answers = await Promise.all(Array.from({ length: 6 }, () => get(agent, server.port, false)));
    expect(server.connections()).toBe(6);
    expect(new Set(answers).size).toBe(6); // six requests at once, each on its own (warmed) connection
  });

  it('never opens more than maxSockets, and nothing before its first connection', async () => {
    const server = await countingServer();
    const agent = warmableAgent(false, { keepAlive: true, maxSockets: 4 });
    cleanup.push(server.close, () => agent.destroy());

    agent.warm(10);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.connections()).toBe(0);

    await get(agent, server.port, false);
    agent.warm(10);
    agent.warm(10); // already warm: nothing more
    await until(() => server.connections() === 4);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.connections()).toBe(4);
  });

  it('drops a warmed connection that closes before it is used, and the pool opens a fresh one', async () => {
    const server = await countingServer();
    const agent: WarmableAgent = warmableAgent(false, { keepAlive: true, maxSockets: 4 });
    cleanup.push(server.close, () => agent.destroy());

    await get(agent, server.port, false);
    agent.warm(2);
    await until(() => server.connections() === 2);
    await server.close(); // the server drops every connection, and listens no more
    const again = await countingServer();
    cleanup.push(again.close);
    // the dropped connections are gone: requests to the new server's port open their own
    const answers = await Promise.all([get(agent, again.port, false), get(agent, again.port, false)]);
    expect(answers.sort()).toEqual(['1', '2']);
  });

  it('destroy closes the connections nobody used', async () => {
    const server = await countingServer();
    const agent = warmableAgent(false, { keepAlive: true, maxSockets: 4 });
    cleanup.push(server.close);
    await get(agent, server.port, false);
    agent.warm(4);
    await until(() => server.connections() === 4);
    agent.destroy();
    await until(() => server.open() === 0);
    expect(server.open()).toBe(0);
  });

  describe('over TLS', () => {
    let tls: { key: string; cert: string };
    beforeAll(() => {
      const made = throwawayCert();
      tls = { key: made.key.toString('utf8'), cert: made.cert.toString('utf8') };
    });

    it('warms verified TLS connections that a burst then uses', async () => {
      const server = await countingServer(tls);
      const agent = warmableAgent(true, { keepAlive: true, maxSockets: 8 });
      cleanup.push(server.close, () => agent.destroy());

      await get(agent, server.port, true, tls.cert);
      agent.warm(5);
      await until(() => server.connections() === 5);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => get(agent, server.port, true, tls.cert)),
      );
      expect(server.connections()).toBe(5);
      expect(new Set(answers).size).toBe(5);
    });

    it('does not hand a connection made with other TLS options to a request', async () => {
      const server = await countingServer(tls);
      const agent = warmableAgent(true, { keepAlive: true, maxSockets: 8 });
      cleanup.push(server.close, () => agent.destroy());

      await get(agent, server.port, true, tls.cert);
      agent.warm(3);
      await until(() => server.connections() === 3);
      // another CA option is another pool key: its request opens its own connection
      const other = `${tls.cert}\n`;
      await get(agent, server.port, true, other);
      expect(server.connections()).toBe(4);
    });
  });
});
