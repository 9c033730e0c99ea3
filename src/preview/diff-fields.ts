import { isRecord } from '../common/kube-object.js';
import { formatPath, type PathSegment, shortValue } from './diff-format.js';
import type { FieldChange } from './types.js';

/**
 * The field-by-field comparison behind a preview: which paths the apply adds, changes or removes, plus a
 * copy of the live object reduced to what the comparison reports (so its YAML diff shows the same story).
 */

export interface FieldDiff {
  changes: FieldChange[];
  /** Live, with map keys in the desired object's order and unreported removals left out. */
  liveView: unknown;
}

/** Decides whether a field present only in the live object counts as removed. */
export type RemovalPolicy = (path: readonly PathSegment[]) => boolean;

const OMIT = Symbol('omit');
type View = unknown;

/** Deep equality of plain JSON data; map key order does not matter, list order does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** Lists whose elements all have a distinct string `name` (containers, env, ports, volumes) match by name. */
function namedList(list: unknown[]): Map<string, number> | undefined {
  const names = new Map<string, number>();
  for (const [i, item] of list.entries()) {
    if (!isRecord(item) || typeof item.name !== 'string' || names.has(item.name)) return undefined;
    names.set(item.name, i);
  }
  return names;
}

class Walker {
  readonly changes: FieldChange[] = [];
  constructor(private readonly reportRemoval: RemovalPolicy) {}

  private add(path: PathSegment[], after: unknown) {
    this.changes.push({ path: formatPath(path), op: 'add', after: shortValue(after) });
  }

  /** Records a removal when the policy reports it; returns what the live view keeps. */
  private remove(path: PathSegment[], before: unknown): View | typeof OMIT {
    if (!this.reportRemoval(path)) return OMIT;
    this.changes.push({ path: formatPath(path), op: 'remove', before: shortValue(before) });
    return before;
  }

  compare(live: unknown, desired: unknown, path: PathSegment[]): View {
    if (isRecord(live) && isRecord(desired)) return this.compareMaps(live, desired, path);
    if (Array.isArray(live) && Array.isArray(desired)) return this.compareLists(live, desired, path);
    return this.compareWhole(live, desired, path);
  }

  private compareWhole(live: unknown, desired: unknown, path: PathSegment[]): View {
    if (!jsonEqual(live, desired)) {
      this.changes.push({
        path: formatPath(path),
        op: 'change',
        before: shortValue(live),
        after: shortValue(desired),
      });
    }
    return live;
  }

  private compareMaps(live: Record<string, unknown>, desired: Record<string, unknown>, path: PathSegment[]) {
    const view: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(desired)) {
      if (key in live) view[key] = this.compare(live[key], value, [...path, key]);
      else this.add([...path, key], value);
    }
    for (const [key, value] of Object.entries(live)) {
      if (key in desired) continue;
      const kept = this.remove([...path, key], value);
      if (kept !== OMIT) view[key] = kept;
    }
    return view;
  }

  private compareLists(live: unknown[], desired: unknown[], path: PathSegment[]): View {
    const liveNames = namedList(live);
    const desiredNames = namedList(desired);
    if (liveNames && desiredNames && (live.length > 0 || desired.length > 0)) {
      return this.compareNamed(live, desired, liveNames, path);
    }
    const allMaps = [...live, ...desired].every(isRecord);
    if (!allMaps || live.length === 0 || desired.length === 0) return this.compareWhole(live, desired, path);
    const view: unknown[] = [];
    desired.forEach((value, i) => {
      if (i < live.length) view.push(this.compare(live[i], value, [...path, i]));
      else this.add([...path, i], value);
    });
    for (let i = desired.length; i < live.length; i++) {
      const kept = this.remove([...path, i], live[i]);
      if (kept !== OMIT) view.push(kept);
    }
    return view;
  }

  private compareNamed(
    live: unknown[],
    desired: unknown[],
    liveNames: Map<string, number>,
    path: PathSegment[],
  ) {
    const viewByIndex = new Map<number, View>();
    desired.forEach((value, i) => {
      const at = liveNames.get((value as { name: string }).name);
      if (at === undefined) this.add([...path, i], value);
      else viewByIndex.set(at, this.compare(live[at], value, [...path, i]));
    });
    const view: unknown[] = [];
    live.forEach((value, i) => {
      const kept = viewByIndex.has(i) ? viewByIndex.get(i) : this.remove([...path, i], value);
      if (kept !== OMIT) view.push(kept);
    });
    return view;
  }
}

/**
 * Compares two plain JSON values (already stripped of noise and redacted) and lists the changed paths,
 * deepest path that differs, in the desired object's order with removals after.
 */
export function diffFields(live: unknown, desired: unknown, reportRemoval: RemovalPolicy): FieldDiff {
  const walker = new Walker(reportRemoval);
  const liveView = walker.compare(live, desired, []);
  return { changes: walker.changes, liveView };
}
