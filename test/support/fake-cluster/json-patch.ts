import { isDeepStrictEqual } from 'node:util';

/** A JSON patch (RFC 6902) on plain data, failing as the API server's patcher does (then the answer is 422). */
export class JsonPatchError extends Error {}

type Container = Record<string, unknown> | unknown[];

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`invalid JSON pointer ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** The container holding the pointer's last token, and that token. */
function locate(doc: unknown, pointer: string): { parent: Container; key: string } {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) throw new JsonPatchError('the whole document cannot be patched');
  let cur: unknown = doc;
  for (const t of tokens.slice(0, -1)) {
    const next = Array.isArray(cur) ? cur[Number(t)] : (cur as Record<string, unknown> | null)?.[t];
    if (next === null || typeof next !== 'object')
      throw new JsonPatchError(`doc is missing path: "${pointer}": missing value`);
    cur = next;
  }
  if (cur === null || typeof cur !== 'object') throw new JsonPatchError(`doc is missing path: "${pointer}"`);
  return { parent: cur as Container, key: tokens[tokens.length - 1] };
}

function read(doc: unknown, pointer: string): unknown {
  const { parent, key } = locate(doc, pointer);
  const v = Array.isArray(parent) ? parent[Number(key)] : parent[key];
  if (v === undefined) throw new JsonPatchError(`doc is missing path: "${pointer}": missing value`);
  return v;
}

function add(doc: unknown, pointer: string, value: unknown) {
  const { parent, key } = locate(doc, pointer);
  if (!Array.isArray(parent)) {
    parent[key] = structuredClone(value);
    return;
  }
  const i = key === '-' ? parent.length : Number(key);
  if (!Number.isInteger(i) || i < 0 || i > parent.length)
    throw new JsonPatchError(`Unable to access invalid index: ${key}: invalid index referenced`);
  parent.splice(i, 0, structuredClone(value));
}

function remove(doc: unknown, pointer: string): unknown {
  const value = read(doc, pointer);
  const { parent, key } = locate(doc, pointer);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete parent[key];
  return value;
}

export function applyJsonPatch(doc: Record<string, unknown>, ops: unknown[]): Record<string, unknown> {
  const out = structuredClone(doc);
  for (const raw of ops) {
    const op = raw as { op?: string; path?: string; from?: string; value?: unknown };
    const path = op.path ?? '';
    switch (op.op) {
      case 'add':
        add(out, path, op.value);
        break;
      case 'remove':
        remove(out, path);
        break;
      case 'replace':
        remove(out, path);
        add(out, path, op.value);
        break;
      case 'move':
        add(out, path, remove(out, op.from ?? ''));
        break;
      case 'copy':
        add(out, path, read(out, op.from ?? ''));
        break;
      case 'test': {
        let actual: unknown;
        try {
          actual = read(out, path);
        } catch {
          actual = undefined;
        }
        if (!isDeepStrictEqual(actual, op.value))
          throw new JsonPatchError(`testing value ${path} failed: test failed`);
        break;
      }
      default:
        throw new JsonPatchError(`Unexpected kind: ${String(op.op)}`);
    }
  }
  return out;
}
