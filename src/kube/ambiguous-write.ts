import type { KubeObject } from '../common/kube-object.js';
import { isTransientNetworkError, KubeApiError } from './api-error.js';
import { DefaultRetry, isRetryable, isThrottled, type RetryPolicy, withRetry } from './retry.js';

/**
 * Writes that are not idempotent on the wire (POST create, PUT with a resourceVersion, JSON patch) can be
 * sent again only after checking what the first attempt did: a connection that drops after the server
 * received the request, or a 5xx from a proxy or an overloaded server, leaves the client not knowing.
 * Re-sending blindly turns a success into a 409 (AlreadyExists, or a stale resourceVersion) and the run
 * fails; giving up fails it too. So after an uncertain failure we read the object back: when it already
 * carries what we sent, the write landed; otherwise it is sent again (a 409 then is a real conflict).
 */

/** Whether a failed request may still have changed the cluster: no answer, or a server error after receiving it. */
export function mayHaveLanded(err: unknown): boolean {
  if (err instanceof KubeApiError) return err.code >= 500 && isRetryable(err);
  return isTransientNetworkError(err);
}

/** JSON-equal: same scalars, same keys (undefined members ignored, as JSON drops them), same array order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]))
    );
  }
  if (!isPlain(a) || !isPlain(b)) return false;
  const ka = definedKeys(a);
  const kb = definedKeys(b);
  return ka.length === kb.length && ka.every((k) => jsonEqual(a[k], b[k]));
}

/**
 * Whether `live` carries every field of `sent` (the server may add defaults). Arrays must have the same
 * length and carry element by element; an absent `live` carries only an empty `sent` object.
 */
export function carries(sent: unknown, live: unknown): boolean {
  if (sent === undefined) return true;
  if (Array.isArray(sent)) {
    return Array.isArray(live) && live.length === sent.length && sent.every((x, i) => carries(x, live[i]));
  }
  if (isPlain(sent)) {
    if (live === undefined) return definedKeys(sent).length === 0;
    if (!isPlain(live)) return false;
    return definedKeys(sent).every((k) => carries(sent[k], live[k]));
  }
  return sent === live;
}

/** The fields a write of kind `how` decides: what must read back the same for the write to count as done. */
export type WriteKind = 'create' | 'replace' | 'status';

/**
 * Whether `live` shows that our write of `sent` landed. A create may come back with server defaults
 * (subset); a replace (PUT) sets the whole object, so its top-level fields, labels and annotations must
 * be equal, and the same for `status` in a status write.
 */
export function writeLanded(sent: KubeObject, live: KubeObject, how: WriteKind): boolean {
  if (how === 'status') return jsonEqual(sent.status ?? {}, live.status ?? {});
  const same = how === 'create' ? carries : jsonEqual;
  const body = (o: KubeObject) =>
    Object.fromEntries(
      Object.entries(o).filter(
        ([k, v]) => v !== undefined && !['apiVersion', 'kind', 'metadata', 'status'].includes(k),
      ),
    );
  const liveBody = body(live);
  const sentBody = body(sent);
  if (how === 'replace' && definedKeys(liveBody).some((k) => !(k in sentBody))) return false;
  return (
    Object.entries(sentBody).every(([k, v]) => same(v, liveBody[k])) &&
    same(sent.metadata.labels ?? {}, live.metadata.labels ?? {}) &&
    same(sent.metadata.annotations ?? {}, live.metadata.annotations ?? {})
  );
}

export interface JsonPatchOp {
  op: string;
  path: string;
  value?: unknown;
}

/** Whether every change of a JSON patch (RFC 6902) already holds in `live` (`test` ops are preconditions). */
export function patchHolds(ops: readonly JsonPatchOp[], live: KubeObject): boolean {
  const changes = ops.filter((o) => o.op !== 'test');
  if (changes.length === 0) return false;
  return changes.every((o) => {
    const found = pointerGet(live, o.path);
    if (o.op === 'remove') return !found.exists;
    if (o.op === 'add' || o.op === 'replace') return found.exists && jsonEqual(found.value, o.value);
    return false; // move/copy: cannot tell
  });
}

/**
 * Sends a non-idempotent write; after a failure that may have landed, reads the object back and either
 * returns it (the write is there) or sends again, within the retry policy. A 409 that follows an uncertain
 * attempt is checked the same way, since our own first attempt may be what it conflicts with.
 */
export async function writeOnce(
  send: () => Promise<KubeObject>,
  readBack: () => Promise<KubeObject | undefined>,
  landed: (live: KubeObject) => boolean,
  policy: RetryPolicy = DefaultRetry,
): Promise<KubeObject> {
  let uncertain = false;
  return withRetry(
    async () => {
      try {
        return await send();
      } catch (err) {
        const conflict = err instanceof KubeApiError && err.code === 409;
        if (!mayHaveLanded(err) && !(conflict && uncertain)) throw err;
        if (!conflict) uncertain = true;
        const live = await readBack();
        if (live && landed(live)) return live;
        throw err;
      }
    },
    policy,
    Math.random,
    undefined,
    (err) => mayHaveLanded(err) || isThrottled(err),
  );
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function definedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).filter((k) => o[k] !== undefined);
}

/** Resolves a JSON pointer (`/metadata/annotations/a~1b`). */
function pointerGet(obj: unknown, pointer: string): { exists: boolean; value?: unknown } {
  if (pointer === '') return { exists: true, value: obj };
  let cur: unknown = obj;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(cur)) {
      const i = Number(key);
      if (!Number.isInteger(i) || i < 0 || i >= cur.length) return { exists: false };
      cur = cur[i];
    } else if (isPlain(cur) && Object.hasOwn(cur, key) && cur[key] !== undefined) {
      cur = cur[key];
    } else return { exists: false };
  }
  return { exists: true, value: cur };
}
