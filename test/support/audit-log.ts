import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { RestClient } from '../../scripts/control-plane/rest.js';

/**
 * The API server's audit log (JSON lines, Metadata level) as evidence of what a run sent: every request,
 * with its verb, user (and impersonated user), user agent and URI. Tests read it from an offset taken
 * before the run, after making sure the batch writer has flushed past the run.
 */

export interface AuditEvent {
  stage: string;
  verb: string;
  requestURI: string;
  userAgent?: string;
  user: { username: string };
  impersonatedUser?: { username: string };
  objectRef?: { resource?: string; namespace?: string; name?: string; apiGroup?: string };
  responseStatus?: { code?: number };
  requestReceivedTimestamp: string;
}

export const MutatingVerbs = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** The current end of the log: read from here after a run. */
export function auditOffset(file: string): number {
  return fs.existsSync(file) ? fs.statSync(file).size : 0;
}

/** Events written since `offset` (complete lines only). */
export function auditEventsSince(file: string, offset: number): AuditEvent[] {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, size - offset));
    fs.readSync(fd, buf, 0, buf.length, offset);
    const text = buf.toString('utf8');
    return text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditEvent);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Waits until everything the server audited so far is in the file: sends a marker request and polls
 * until its event shows up (the batch backend writes events in order).
 */
export async function flushAudit(api: RestClient, file: string, offset: number, timeoutMs = 15_000) {
  const marker = `audit-marker-${randomBytes(4).toString('hex')}`;
  await api.request('GET', `/api/v1/namespaces/default/configmaps/${marker}`);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const events = auditEventsSince(file, offset);
    if (events.some((e) => e.objectRef?.name === marker)) return events;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the audit log ${file} did not show marker ${marker} within ${timeoutMs} ms`);
}

/** Requests by `user` (as impersonated) that would change the cluster: mutating verbs, not dry-runs. */
export function mutatingRequests(events: AuditEvent[], user: string): AuditEvent[] {
  return events.filter(
    (e) =>
      e.stage === 'ResponseComplete' &&
      e.impersonatedUser?.username === user &&
      MutatingVerbs.has(e.verb) &&
      !/[?&]dryRun=/.test(e.requestURI),
  );
}

/** `verb resource/name` for messages. */
export function describeRequest(e: AuditEvent): string {
  const o = e.objectRef ?? {};
  return `${e.verb} ${o.resource ?? '?'}${o.apiGroup ? `.${o.apiGroup}` : ''}/${o.name ?? ''} (${e.userAgent ?? 'no user agent'}, HTTP ${e.responseStatus?.code ?? '?'})`;
}
