import { isDeepStrictEqual } from 'node:util';
import type { ServedKind } from './discovery-table.js';
import { invalid, type ServerError } from './status-errors.js';
import type { Json } from './store.js';

/**
 * The validation the fake server does: object names, and the immutable fields a `fallback-on-replace`
 * strategy meets (a workload's selector, a Job's template, a Service's clusterIP, an immutable ConfigMap
 * or Secret). Anything else a real server would reject is for a fault hook or the real server to show.
 */
const get = (o: unknown, ...path: string[]) =>
  path.reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Json)[k] : undefined), o);

const subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function validateName(kind: ServedKind, name: string): ServerError | undefined {
  if (subdomain.test(name) && name.length <= 253) return undefined;
  return invalid(kind.kind, kind.group, name, [
    {
      reason: 'FieldValueInvalid',
      field: 'metadata.name',
      message: `Invalid value: ${JSON.stringify(name)}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    },
  ]);
}

const workloads = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet']);

/** The 422 an update of `before` into `after` gets for changing an immutable field, if it does. */
export function validateUpdate(kind: ServedKind, before: Json, after: Json): ServerError | undefined {
  const causes: { reason: string; field: string; message: string }[] = [];
  const immutable = (...path: string[]) => {
    const a = get(before, ...path);
    const b = get(after, ...path);
    if (!isDeepStrictEqual(a, b))
      causes.push({
        reason: 'FieldValueInvalid',
        field: path.join('.'),
        message: `Invalid value: ${JSON.stringify(b)}: field is immutable`,
      });
  };
  if (kind.builtIn && kind.group === 'apps' && workloads.has(kind.kind)) immutable('spec', 'selector');
  if (kind.builtIn && kind.group === 'batch' && kind.kind === 'Job') {
    immutable('spec', 'selector');
    immutable('spec', 'template');
  }
  if (
    kind.builtIn &&
    kind.kind === 'Service' &&
    get(before, 'spec', 'clusterIP') &&
    get(after, 'spec', 'clusterIP')
  )
    immutable('spec', 'clusterIP');
  if (kind.builtIn && (kind.kind === 'ConfigMap' || kind.kind === 'Secret') && before.immutable === true) {
    for (const field of ['data', 'binaryData', 'stringData'])
      if (!isDeepStrictEqual(before[field], after[field]))
        causes.push({
          reason: 'FieldValueForbidden',
          field,
          message: 'Forbidden: field is immutable when `immutable` is set',
        });
  }
  if (causes.length === 0) return undefined;
  const name = (after.metadata as { name: string }).name;
  return invalid(kind.kind, kind.group, name, causes);
}
