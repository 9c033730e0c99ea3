import { getPath, isRecord, type KubeObject } from '../../common/kube-object.js';

/**
 * A workload's `spec.selector` as the API's `labelSelector` query (`app=web,tier in (a,b)`), or undefined
 * when it has none or one of a shape the API would not take (then nothing is filtered on it).
 */
export function selectorQuery(workload: KubeObject): string | undefined {
  const selector = getPath(workload, ['spec', 'selector']);
  if (!isRecord(selector)) return undefined;
  const parts: string[] = [];
  const labels = selector.matchLabels;
  if (isRecord(labels)) {
    for (const key of Object.keys(labels).sort()) {
      const value = labels[key];
      if (typeof value !== 'string') return undefined;
      parts.push(`${key}=${value}`);
    }
  }
  const expressions = selector.matchExpressions;
  if (Array.isArray(expressions)) {
    for (const e of expressions) {
      if (!isRecord(e) || typeof e.key !== 'string') return undefined;
      const values = Array.isArray(e.values) ? e.values.filter((v) => typeof v === 'string').sort() : [];
      switch (e.operator) {
        case 'In':
          parts.push(`${e.key} in (${values.join(',')})`);
          break;
        case 'NotIn':
          parts.push(`${e.key} notin (${values.join(',')})`);
          break;
        case 'Exists':
          parts.push(e.key);
          break;
        case 'DoesNotExist':
          parts.push(`!${e.key}`);
          break;
        default:
          return undefined;
      }
    }
  }
  return parts.length ? parts.join(',') : undefined;
}

/** Past this many values an `in (...)` set makes a long URL that filters little: the namespace is read whole. */
const MAX_SET = 50;

/**
 * One `labelSelector` that every pod of these workloads matches, for a single LIST/WATCH of a namespace:
 * their own selector when they share one; `key in (v1,v2,...)` when every one has a `matchLabels` entry
 * under the same key (`app` in most packages), for up to 50 values; else undefined (the whole namespace). The answer may match
 * other pods too: the caller still picks each workload's pods by owner.
 */
export function commonSelector(workloads: readonly KubeObject[]): string | undefined {
  const queries = workloads.map(selectorQuery);
  if (queries.length === 0 || queries.some((q) => q === undefined)) return undefined;
  const distinct = [...new Set(queries)];
  if (distinct.length === 1) return distinct[0];
  const labelSets = workloads.map((w) => getPath(w, ['spec', 'selector', 'matchLabels']));
  if (!labelSets.every(isRecord)) return undefined;
  const sets = labelSets as Record<string, unknown>[];
  const shared = Object.keys(sets[0]!)
    .sort()
    .find((key) => sets.every((s) => typeof s[key] === 'string'));
  if (!shared) return undefined;
  const values = [...new Set(sets.map((s) => s[shared] as string))].sort();
  return values.length <= MAX_SET ? `${shared} in (${values.join(',')})` : undefined;
}
