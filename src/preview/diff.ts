import type { KubeObject } from '../common/kube-object.js';
import { yamlLib } from '../startup/yaml-module.js';
import { diffFields } from './diff-fields.js';
import { formatPath, type PathSegment } from './diff-format.js';
import { unifiedDiff } from './diff-lines.js';
import {
  collectSecretValues,
  isHiddenMarker,
  isSecret,
  redactSecretPair,
  type SecretKeyChange,
  scrub,
} from './redact.js';
import { stripNoise } from './strip-noise.js';
import type { FieldChange } from './types.js';

export interface DiffOptions {
  /**
   * Report every field that is in the live object but not in `desired` as removed. Off by default: then
   * only removals under `metadata.labels`, `metadata.annotations`, `data` and `stringData` are reported,
   * because a field elsewhere that only the live object has is usually one the server or a controller set.
   * Turn it on when `desired` is the server's dry-run result of the apply (then anything missing from it
   * really is removed by the apply).
   */
  reportRemovals?: boolean;
  /** Unchanged lines around each change in `diff`; default 3. */
  context?: number;
  /** Values of every Secret in the package (`collectSecretValues`), hidden wherever they appear. */
  secretValues?: readonly string[];
}

export interface ObjectDiff {
  changes: FieldChange[];
  /** Unified diff of the YAML, `-` live and `+` desired; '' when nothing changes. */
  diff: string;
}

/** Paths under which a field missing from `desired` is always reported as removed. */
function alwaysReported(path: readonly PathSegment[]): boolean {
  const [first, second] = path;
  if (first === 'data' || first === 'stringData') return true;
  return first === 'metadata' && (second === 'labels' || second === 'annotations') && path.length >= 2;
}

function toYaml(value: unknown): string {
  return yamlLib().stringify(value, { lineWidth: 0, indentSeq: false, aliasDuplicateObjects: false });
}

function secretChange(key: SecretKeyChange): FieldChange | undefined {
  const ops = { added: 'add', removed: 'remove', changed: 'change' } as const;
  if (key.change === 'unchanged') return undefined;
  const change: FieldChange = { path: formatPath(['data', key.key]), op: ops[key.change], redacted: true };
  if (key.beforeBytes !== undefined) change.beforeBytes = key.beforeBytes;
  if (key.afterBytes !== undefined) change.afterBytes = key.afterBytes;
  return change;
}

function isSecretValuePath(path: string): boolean {
  return /^(data|stringData)([.[]|$)/.test(path);
}

/** Marks changes whose values were hidden by redaction, and scrubs the rest as a last line of defence. */
function finishChange(change: FieldChange, values: readonly string[]): FieldChange {
  if (isHiddenMarker(change.before) || isHiddenMarker(change.after)) {
    const { before: _before, after: _after, ...rest } = change;
    return { ...rest, redacted: true };
  }
  const out = { ...change };
  if (out.before !== undefined) out.before = scrub(out.before, values);
  if (out.after !== undefined) out.after = scrub(out.after, values);
  return out;
}

/**
 * What applying `desired` over `live` changes, as field paths and as a unified YAML diff a reviewer can
 * read. Both sides are compared after `stripNoise` and Secret redaction, so neither result ever holds a
 * Secret value: Secret keys are reported with `redacted: true` and their sizes only. `live` undefined
 * means a create: no field changes, and the diff adds every line.
 */
export function diffObjects(
  live: KubeObject | undefined,
  desired: KubeObject,
  opts: DiffOptions = {},
): ObjectDiff {
  const values = [...collectSecretValues([live, desired]), ...(opts.secretValues ?? [])];
  const pair = redactSecretPair(live && stripNoise(live), stripNoise(desired), values);
  const after = pair.desired!;
  if (pair.live === undefined) {
    return { changes: [], diff: scrub(unifiedDiff('', toYaml(after), opts.context ?? 3), values) };
  }
  const policy = (path: readonly PathSegment[]) => opts.reportRemovals === true || alwaysReported(path);
  const fields = diffFields(pair.live, after, policy);
  const secret = isSecret(live) || isSecret(desired);
  const changes = fields.changes
    .filter((change) => !(secret && isSecretValuePath(change.path)))
    .map((change) => finishChange(change, values));
  if (secret) changes.push(...pair.keys.map(secretChange).filter((c): c is FieldChange => c !== undefined));
  if (changes.length === 0) return { changes, diff: '' };
  const diff = unifiedDiff(toYaml(fields.liveView), toYaml(after), opts.context ?? 3);
  return { changes, diff: scrub(diff, values) };
}
