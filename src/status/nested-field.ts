import { isRecord } from '../common/kube-object.js';
import { StatusComputeError } from './fields.js';

/**
 * apimachinery's `unstructured.NestedFieldNoCopy`, which cli-utils and kpt read typed fields through:
 * `found` false when a field on the way is missing or null; an error when something on the way is there but
 * not an object (`.status.observedGeneration accessor error: x is of the type string, expected
 * map[string]interface{}`). A null at the end is found (its type is then wrong for every reader).
 */
function nestedField(obj: unknown, path: readonly string[]): { found: boolean; value?: unknown } {
  let value: unknown = obj;
  for (const [i, field] of path.entries()) {
    if (value === null || value === undefined) return { found: false };
    if (!isRecord(value)) throw accessorError(path.slice(0, i + 1), value, 'map[string]interface{}');
    if (!Object.hasOwn(value, field)) return { found: false };
    value = value[field];
  }
  return { found: true, value };
}

/**
 * `unstructured.NestedInt64` behind the `looking up <path> from resource: ` prefix kpt and cli-utils put
 * on its error: undefined when absent; a StatusComputeError (the object is Unknown) when not an integer.
 */
export function nestedInt64(obj: unknown, path: readonly string[]): number | undefined {
  return nested(obj, path, 'int64', (v) => typeof v === 'number' && Number.isInteger(v)) as
    | number
    | undefined;
}

/** `unstructured.NestedBool`, with the same prefix on its error. */
export function nestedBool(obj: unknown, path: readonly string[]): boolean | undefined {
  return nested(obj, path, 'bool', (v) => typeof v === 'boolean') as boolean | undefined;
}

function nested(
  obj: unknown,
  path: readonly string[],
  expected: string,
  is: (v: unknown) => boolean,
): unknown {
  try {
    const { found, value } = nestedField(obj, path);
    if (!found) return undefined;
    if (!is(value)) throw accessorError(path, value, expected);
    return value;
  } catch (err) {
    throw new StatusComputeError(`looking up ${path.join('.')} from resource: ${(err as Error).message}`);
  }
}

/** apimachinery's accessor error, as Go prints it (`%v accessor error: %v is of the type %T, expected ...`). */
function accessorError(path: readonly string[], value: unknown, expected: string): Error {
  return new Error(
    `.${path.join('.')} accessor error: ${goValue(value)} is of the type ${goType(value)}, expected ${expected}`,
  );
}

/** Go's `%v` of a decoded JSON value (unstructured holds integers as int64, other numbers as float64). */
function goValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `map[${entries.map(([k, v]) => `${k}:${goValue(v)}`).join(' ')}]`;
  }
  return String(value);
}

/** Go's `%T` of a decoded JSON value. */
function goType(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  if (typeof value === 'object') return 'map[string]interface {}';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return typeof value === 'boolean' ? 'bool' : 'string';
}
