/**
 * The API server's error answers (a `Status` body and an HTTP code), worded as the real server words them,
 * so code that reads messages, reasons and causes sees what it would see from a cluster.
 */

/** A cause as the server sends it: its type travels in the JSON field `reason` (`FieldManagerConflict`). */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  status: 'Failure';
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string; causes?: StatusCause[] };
  code: number;
}

/** An answer other than success, thrown inside the fake server and turned into the client's error. */
export class ServerError extends Error {
  constructor(readonly body: StatusBody) {
    super(body.message);
  }
  get code() {
    return this.body.code;
  }
}

/** The name the server uses for a resource in messages: `configmaps`, `deployments.apps`. */
export interface ResourceName {
  resource: string;
  group: string;
}
export const groupResource = (r: ResourceName) => (r.group ? `${r.resource}.${r.group}` : r.resource);

export function statusError(
  code: number,
  reason: string,
  message: string,
  details?: StatusBody['details'],
): ServerError {
  return new ServerError({
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    message,
    reason,
    details,
    code,
  });
}

export const notFound = (r: ResourceName, name: string) =>
  statusError(404, 'NotFound', `${groupResource(r)} "${name}" not found`, {
    name,
    group: r.group || undefined,
    kind: r.resource,
  });

export const alreadyExists = (r: ResourceName, name: string) =>
  statusError(409, 'AlreadyExists', `${groupResource(r)} "${name}" already exists`, {
    name,
    group: r.group || undefined,
    kind: r.resource,
  });

/** A write against a resourceVersion that is no longer the live one. */
export const modified = (r: ResourceName, name: string) =>
  statusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${groupResource(r)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, group: r.group || undefined, kind: r.resource },
  );

/** A delete whose UID or resourceVersion precondition does not hold (worded as 1.2x+ servers word it). */
export function preconditionFailed(
  kind: { kind: string; group: string },
  name: string,
  what: 'UID' | 'ResourceVersion',
  wanted: string,
  actual: string,
): ServerError {
  const gk = kind.group ? `${kind.kind}.${kind.group}` : kind.kind;
  const why = what === 'UID' ? 'deleted and then recreated' : 'modified';
  return statusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${gk} "${name}": the ${what} in the precondition (${wanted}) does not match the ${what} in record (${actual}). The object might have been ${why}`,
  );
}

/** 422: `ConfigMap "x" is invalid: data: Forbidden: field is immutable when `immutable` is set`. */
export function invalid(
  kind: string,
  group: string,
  name: string,
  causes: Required<StatusCause>[],
): ServerError {
  const gk = group ? `${kind}.${group}` : kind;
  const list = causes.map((c) => `${c.field}: ${c.message}`);
  const text = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
  return statusError(422, 'Invalid', `${gk} "${name}" is invalid: ${text}`, {
    name,
    group: group || undefined,
    kind,
    causes,
  });
}

export const forbidden = (r: ResourceName, name: string, why: string) =>
  statusError(403, 'Forbidden', `${groupResource(r)} "${name}" is forbidden: ${why}`, {
    name,
    group: r.group || undefined,
    kind: r.resource,
  });
