import { apiErrorFrom } from '../../../src/kube/api-error.js';
import type { ResourceInfo } from '../../../src/kube/discovery.js';
import type { ApiServer } from './api-server.js';
import type { Faults, Operation, RequestLog, RequestRecord } from './requests.js';
import { ServerError } from './status-errors.js';

/**
 * How a fake client sends one request: logged as the real client would send it, through the faults, answered
 * by the fake server, its error turned into the `KubeApiError` the real client throws (same message
 * prefix: `apply configmaps web: ...`), then the controllers run.
 */
/** What a client needs of its cluster. */
export interface ClusterParts {
  server: ApiServer;
  log: RequestLog;
  faults: Faults;
  url: string;
  /** Runs after every answered request (the controllers, unless they are manual). */
  afterRequest(): void;
}

export const label = (info: ResourceInfo, name?: string) =>
  `${info.resource}${info.group ? `.${info.group}` : ''}${name ? ` ${name}` : ''}`;

export const query = (params: Record<string, string | undefined>) => {
  let s = '';
  for (const [k, v] of Object.entries(params))
    if (v !== undefined) s += `${s ? '&' : '?'}${k}=${encodeURIComponent(v)}`;
  return s;
};

const mutatingOps = new Set<Operation>([
  'create',
  'apply',
  'replace',
  'replaceStatus',
  'jsonPatch',
  'delete',
]);

/** Sends one request: `created` tells a 201 from a 200 for the log. */
export function requestSender(parts: ClusterParts) {
  const { log } = parts;
  return async function send<T>(
    fields: Omit<RequestRecord, 'seq' | 'mutating' | 'dryRun'> & { dryRun?: boolean },
    what: string,
    serve: () => T,
    created?: (result: T) => boolean,
  ): Promise<T> {
    const record: RequestRecord = {
      ...fields,
      seq: log.entries.length + 1,
      mutating: mutatingOps.has(fields.op),
      dryRun: !!fields.dryRun,
    };
    log.entries.push(record);
    try {
      const result = await parts.faults.run(record, serve);
      record.status = created?.(result) ? 201 : 200;
      return result;
    } catch (err) {
      if (!(err instanceof ServerError)) throw err;
      record.status = err.code;
      throw apiErrorFrom(err.code, err.body, what);
    } finally {
      if (!record.dryRun) parts.afterRequest();
    }
  };
}
