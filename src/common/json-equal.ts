/**
 * Deep equality of JSON data (what JSON.parse returns, plus `undefined` values): the same answer as
 * `util.isDeepStrictEqual` for such values (key order ignored, a key set to undefined differs from a
 * missing one), at a fraction of its cost, which matters when every object of a 1000-object package is
 * compared with its dry-run.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    // NaN is not JSON, but isDeepStrictEqual calls it equal to itself
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  const aArray = Array.isArray(a);
  if (aArray !== Array.isArray(b)) return false;
  if (aArray) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!jsonEqual(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const key in x) {
    if (!Object.hasOwn(x, key)) continue;
    if (!Object.hasOwn(y, key) || !jsonEqual(x[key], y[key])) return false;
    count++;
  }
  for (const key in y) if (Object.hasOwn(y, key)) count--;
  return count === 0;
}
