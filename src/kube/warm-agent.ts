import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';

/** A keep-alive agent that can open connections before the requests that will use them. */
export interface WarmableAgent extends http.Agent {
  /**
   * Opens connections now, in the background, so that up to `count` requests sent together later find one
   * ready (TCP and TLS handshakes done): for a burst that follows a wait. Counts what the pool already has;
   * never more than `maxSockets`. Does nothing before the agent's first connection (it opens them like that one).
   */
  warm(count: number): void;
}

type Socketish = { ref(): void; unref(): void };
type ConnectOptions = http.ClientRequestArgs & { _agentKey?: string };
type Connect = (
  options: ConnectOptions,
  cb?: (err: Error | null, stream: Duplex) => void,
) => Duplex | null | undefined;

/**
 * Node's agent opens a connection when a request finds none free, so a burst of N requests right after a
 * wait pays N handshakes in its first round trips. This agent opens them during the wait instead, through
 * its own `createConnection` (the documented hook the agent opens every connection with): the same options
 * as the last connection it opened (same TLS context, session resumed), handed out, as a new connection, to
 * the next requests with the same options. A ready connection that closes or fails before it is used is
 * dropped; the pool opens a fresh one as usual.
 */
export function warmableAgent(secure: boolean, options: http.AgentOptions): WarmableAgent {
  const agent = secure ? new https.Agent(options) : new http.Agent(options);
  const open = agent.createConnection.bind(agent) as Connect;
  const ready: { key: string; socket: Duplex; drop: () => void }[] = [];
  let template: ConnectOptions | undefined;

  const take = (key: string): Duplex | undefined => {
    for (let i = 0; i < ready.length; i++) {
      const r = ready[i];
      if (r.key !== key || r.socket.destroyed) continue;
      ready.splice(i, 1);
      r.socket.off('error', r.drop);
      r.socket.off('close', r.drop);
      (r.socket as Partial<Socketish>).ref?.();
      return r.socket;
    }
    return undefined;
  };

  const warmed = agent as WarmableAgent;
  (warmed as unknown as { createConnection: Connect }).createConnection = (o, cb) => {
    template = o;
    return take(o._agentKey ?? '') ?? open(o, cb);
  };
  let pending = 0;
  let destroyed = false;
  const openOne = (key: string, options: ConnectOptions) => {
    pending--;
    const socket = open({ ...options });
    if (!socket) return;
    const entry = { key, socket, drop: () => {} };
    entry.drop = () => {
      const at = ready.indexOf(entry);
      if (at >= 0) ready.splice(at, 1);
      socket.destroy();
    };
    socket.on('error', entry.drop);
    socket.on('close', entry.drop);
    // a connection nobody uses yet must not keep the process alive
    (socket as Partial<Socketish>).unref?.();
    ready.push(entry);
  };
  warmed.warm = (count: number) => {
    if (!template || destroyed) return;
    const key = template._agentKey ?? '';
    const inPool = (agent.sockets[key]?.length ?? 0) + (agent.freeSockets[key]?.length ?? 0);
    const want = Math.min(count, agent.maxSockets) - inPool - ready.length - pending;
    if (want <= 0) return;
    // one per turn of the event loop, after what the caller sends next, with answers read in between (a
    // handshake's start costs ~1 ms of CPU)
    const options = template;
    pending += want;
    const next = () => {
      if (destroyed) return;
      openOne(key, options);
      if (pending > 0) setImmediate(next);
    };
    setImmediate(next);
  };
  const destroy = agent.destroy.bind(agent);
  warmed.destroy = () => {
    destroyed = true;
    for (const r of ready.splice(0)) r.socket.destroy();
    destroy();
  };
  return warmed;
}
