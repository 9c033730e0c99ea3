import { Annotations } from '../common/constants.js';
import { cloneJson, isRecord, type KubeObject } from '../common/kube-object.js';

/**
 * Secret values never leave this module: callers get copies whose `data` / `stringData` values are
 * size markers, and annotations that could carry a value (`last-applied-configuration` on a Secret, or any
 * annotation containing a value verbatim or as base64) become `(hidden)`.
 */

export const HIDDEN = '(hidden)';
export const HIDDEN_CHANGED = '(hidden, changed)';

/**
 * Values shorter than this are not searched for in text: scrubbing every `1` or `abc` out of a log would
 * destroy it while protecting nothing a reader could not guess.
 */
export const MIN_SECRET_LENGTH = 4;

export type SecretKeyChangeKind = 'added' | 'removed' | 'changed' | 'unchanged';

export interface SecretKeyChange {
  key: string;
  change: SecretKeyChangeKind;
  /** Decoded byte length on the live side; absent when the key is added. */
  beforeBytes?: number;
  /** Decoded byte length on the desired side; absent when the key is removed. */
  afterBytes?: number;
}

export interface RedactedPair {
  live?: KubeObject;
  desired?: KubeObject;
  /** One entry per key of `data` and `stringData` together, in the desired object's order. */
  keys: SecretKeyChange[];
}

/** True for the core `v1` Secret, the only kind whose values we hide. */
export function isSecret(obj: KubeObject | undefined): obj is KubeObject {
  return obj !== undefined && obj.apiVersion === 'v1' && obj.kind === 'Secret';
}

/** `(hidden, 21 bytes)`, or `(hidden, 23 bytes, changed)` on the desired side of a changed key. */
export function hiddenMarker(bytes: number, changed = false): string {
  const size = bytes === 1 ? '1 byte' : `${bytes} bytes`;
  return changed ? `(hidden, ${size}, changed)` : `(hidden, ${size})`;
}

/** True for a string this module wrote in place of a secret value. */
export function isHiddenMarker(value: unknown): boolean {
  return typeof value === 'string' && /^\(hidden(, \d+ bytes?)?(, changed)?\)$/.test(value);
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? '');
}

/**
 * The bytes each key will hold on the server: `data` is base64, `stringData` is plain text and wins over
 * `data` for the same key (the API server merges it so).
 */
function secretBytes(obj: KubeObject | undefined): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (!isSecret(obj)) return out;
  if (isRecord(obj.data)) {
    for (const [key, value] of Object.entries(obj.data)) out.set(key, Buffer.from(asText(value), 'base64'));
  }
  if (isRecord(obj.stringData)) {
    for (const [key, value] of Object.entries(obj.stringData))
      out.set(key, Buffer.from(asText(value), 'utf8'));
  }
  return out;
}

/**
 * Every form in which a Secret's values could show up in text: the base64 of `data`, its decoded text,
 * `stringData` as written, its base64, and both JSON-escaped (as inside `last-applied-configuration`).
 * Longest first, so `scrub` replaces a value before any shorter value it contains.
 */
export function collectSecretValues(objs: readonly (KubeObject | undefined)[]): string[] {
  const found = new Set<string>();
  /** Both forms of one value, or neither: the base64 of `ab` is as guessable as `ab`. */
  const add = (plain: string, encoded: string) => {
    if (plain.length < MIN_SECRET_LENGTH) return;
    for (const text of [plain, encoded]) {
      found.add(text);
      const escaped = JSON.stringify(text).slice(1, -1);
      if (escaped !== text) found.add(escaped);
    }
  };
  for (const obj of objs) {
    if (!isSecret(obj)) continue;
    if (isRecord(obj.data)) {
      for (const value of Object.values(obj.data)) {
        const encoded = asText(value);
        add(Buffer.from(encoded, 'base64').toString('utf8'), encoded);
      }
    }
    if (isRecord(obj.stringData)) {
      for (const value of Object.values(obj.stringData)) {
        const plain = asText(value);
        add(plain, Buffer.from(plain, 'utf8').toString('base64'));
      }
    }
  }
  return [...found].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/**
 * Replaces every occurrence of any value in `text` with `***`: the last line of defence for log lines and
 * server error messages, which may echo what they were sent. `values` as `collectSecretValues` returns them.
 */
export function scrub(text: string, values: readonly string[]): string {
  let out = text;
  const ordered = [...values].sort((a, b) => b.length - a.length);
  for (const value of ordered) {
    if (value.length >= MIN_SECRET_LENGTH && out.includes(value)) out = out.split(value).join('***');
  }
  return out;
}

function containsAny(text: string, values: readonly string[]): boolean {
  return values.some((value) => value.length >= MIN_SECRET_LENGTH && text.includes(value));
}

/**
 * A copy of `obj` whose annotations that embed any of `values` (and, on a Secret, its
 * `last-applied-configuration`) read `(hidden)`; `(hidden, changed)` where `before` had a different value
 * under the same key. Works on any kind: a ConfigMap may copy a Secret's value into an annotation too.
 */
export function redactAnnotations(
  obj: KubeObject,
  values: readonly string[],
  before?: KubeObject,
): KubeObject {
  const copy = cloneJson(obj);
  const annotations = copy.metadata?.annotations;
  if (!isRecord(annotations)) return copy;
  const previous = before?.metadata?.annotations;
  for (const [key, value] of Object.entries(annotations)) {
    const text = asText(value);
    const hide = (key === Annotations.LastApplied && isSecret(obj)) || containsAny(text, values);
    if (!hide) continue;
    const changed = isRecord(previous) && key in previous && asText(previous[key]) !== text;
    annotations[key] = changed ? HIDDEN_CHANGED : HIDDEN;
  }
  return copy;
}

/** Replaces `data`/`stringData` by one `data` map of markers, in the order the keys were written. */
function maskValues(obj: KubeObject, bytes: Map<string, Buffer>, changedKeys: Set<string>): void {
  if (!isRecord(obj.data) && !isRecord(obj.stringData)) return;
  const data: Record<string, string> = {};
  for (const [key, value] of bytes) data[key] = hiddenMarker(value.length, changedKeys.has(key));
  delete obj.stringData;
  obj.data = data;
}

function keyChanges(before: Map<string, Buffer>, after: Map<string, Buffer>): SecretKeyChange[] {
  const changes: SecretKeyChange[] = [];
  for (const [key, value] of after) {
    const old = before.get(key);
    if (old === undefined) changes.push({ key, change: 'added', afterBytes: value.length });
    else {
      const change = old.equals(value) ? 'unchanged' : 'changed';
      changes.push({ key, change, beforeBytes: old.length, afterBytes: value.length });
    }
  }
  for (const [key, value] of before) {
    if (!after.has(key)) changes.push({ key, change: 'removed', beforeBytes: value.length });
  }
  return changes;
}

/**
 * Redacted copies of a Secret's live and desired states plus what happened to each key, so a preview can
 * say "`password` changed (23 bytes)" without holding the value. `stringData` is folded into `data` on both
 * sides, as the API server does, so a key moved from one to the other with the same value is unchanged.
 * Objects that are not Secrets come back as copies with only their value-bearing annotations hidden;
 * `otherValues` (from `collectSecretValues` over the whole package) extends that to values of other Secrets.
 */
export function redactSecretPair(
  live?: KubeObject,
  desired?: KubeObject,
  otherValues: readonly string[] = [],
): RedactedPair {
  const values = [...collectSecretValues([live, desired]), ...otherValues];
  const before = secretBytes(live);
  const after = secretBytes(desired);
  const keys = isSecret(live) || isSecret(desired) ? keyChanges(before, after) : [];
  const changed = new Set(keys.filter((k) => k.change === 'changed').map((k) => k.key));
  const redact = (
    obj: KubeObject | undefined,
    bytes: Map<string, Buffer>,
    marks: Set<string>,
    prev?: KubeObject,
  ) => {
    if (obj === undefined) return undefined;
    const copy = redactAnnotations(obj, values, prev);
    if (isSecret(copy)) maskValues(copy, bytes, marks);
    return copy;
  };
  return {
    live: redact(live, before, new Set()),
    desired: redact(desired, after, changed, live),
    keys,
  };
}
