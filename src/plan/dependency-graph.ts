import { Annotations } from '../common/constants.js';
import { getPath, type KubeObject } from '../common/kube-object.js';
import { compareIds, idKey, idOf, type ObjectId, parseDependsOn, parseRef } from '../common/object-id.js';
import {
  duplicateDependencyMessage,
  externalDependencyMessage,
  invalidAnnotationMessage,
  type PlanError,
} from './errors.js';

/** `from` depends on `to`: `to` is applied first and deleted last. */
export interface PlanEdge {
  from: ObjectId;
  to: ObjectId;
  /** True for edges kpt adds by itself (custom resource → CRD, namespaced object → Namespace). */
  implicit: boolean;
}

export interface DependencyGraph {
  /** Every object once, in input order. */
  ids: ObjectId[];
  /** Unique edges, sorted by from then to (group, kind, namespace, name). */
  edges: PlanEdge[];
  /** Invalid depends-on annotations, in object order then reference order. */
  errors: PlanError[];
}

const CRD_GROUP = 'apiextensions.k8s.io';
const CRD_KIND = 'CustomResourceDefinition';

const edgeKey = (from: ObjectId, to: ObjectId): string => `${idKey(from)}\t${idKey(to)}`;
const groupKindKey = (group: string, kind: string): string => `${group}/${kind}`;

/** The GroupKind a CRD defines (spec.group + spec.names.kind), as cli-utils' GetCRDGroupKind reads it. */
function crdGroupKind(obj: KubeObject): string | undefined {
  const group = getPath(obj, ['spec', 'group']);
  const kind = getPath(obj, ['spec', 'names', 'kind']);
  return typeof group === 'string' && typeof kind === 'string' ? groupKindKey(group, kind) : undefined;
}

/**
 * Parses one object's depends-on annotation. kpt rejects an empty value (its parser sees one empty
 * reference), where the shared parseDependsOn returns no references, so that case is handled here.
 */
function readDependsOn(value: string): ObjectId[] | string {
  try {
    if (value.trim() === '') parseRef(value, 0);
    return parseDependsOn(value);
  } catch (err) {
    const message = (err as Error).message;
    return message.startsWith('invalid "')
      ? message
      : invalidAnnotationMessage(Annotations.DependsOn, message);
  }
}

/** The CRDs (by the GroupKind they define) and Namespaces among the objects: implicit edges point at them. */
function implicitTargets(objs: readonly KubeObject[], ids: readonly ObjectId[]) {
  const crds = new Map<string, ObjectId>();
  const namespaces = new Map<string, ObjectId>();
  objs.forEach((obj, i) => {
    const id = ids[i];
    if (id.group === CRD_GROUP && id.kind === CRD_KIND) {
      const gk = crdGroupKind(obj);
      if (gk !== undefined) crds.set(gk, id);
    }
    if (id.group === '' && id.kind === 'Namespace') namespaces.set(id.name, id);
  });
  return { crds, namespaces };
}

/**
 * What `id` implicitly depends on among the objects: its CRD and its Namespace. Implicit self-edges (a CRD
 * defining CRDs, a Namespace carrying a namespace) would only make a cycle out of an object the server rejects
 * anyway; they are left out.
 */
function implicitDependencies(id: ObjectId, targets: ReturnType<typeof implicitTargets>): ObjectId[] {
  const out: ObjectId[] = [];
  const crd = targets.crds.get(groupKindKey(id.group, id.kind));
  if (crd && idKey(crd) !== idKey(id)) out.push(crd);
  const ns = id.namespace ? targets.namespaces.get(id.namespace) : undefined;
  if (ns && idKey(ns) !== idKey(id)) out.push(ns);
  return out;
}

/**
 * The objects buildDependencyGraph gives no edge (the first wave, when nothing is in a cycle), without
 * building the graph: no depends-on annotation, and neither their CRD nor their Namespace among the objects.
 */
export function withoutDependencies(objects: readonly KubeObject[]): ObjectId[] {
  const ids = objects.map(idOf);
  const targets = implicitTargets(objects, ids);
  return ids.filter((id, i) => {
    const annotations = objects[i].metadata.annotations;
    if (annotations && Object.hasOwn(annotations, Annotations.DependsOn)) return false;
    return implicitDependencies(id, targets).length === 0;
  });
}

/**
 * Builds cli-utils' dependency graph over the objects (apply ∪ prune): implicit edges from custom
 * resources to their CRD and from namespaced objects to their Namespace when those are in the set,
 * and explicit `config.kubernetes.io/depends-on` edges, which must point inside the set. Duplicate
 * edges collapse into one (explicit wins the `implicit` flag); bad annotations become errors, never
 * exceptions, so the caller can report all of them at once. O(objects + references).
 */
export function buildDependencyGraph(objects: readonly KubeObject[]): DependencyGraph {
  const ids: ObjectId[] = [];
  const objs: KubeObject[] = [];
  const known = new Set<string>();
  for (const obj of objects) {
    const id = idOf(obj);
    const key = idKey(id);
    if (known.has(key)) continue;
    known.add(key);
    ids.push(id);
    objs.push(obj);
  }

  const targets = implicitTargets(objs, ids);

  const edges = new Map<string, PlanEdge>();
  const addEdge = (from: ObjectId, to: ObjectId, implicit: boolean): void => {
    const key = edgeKey(from, to);
    const existing = edges.get(key);
    if (existing) existing.implicit &&= implicit;
    else edges.set(key, { from, to, implicit });
  };

  for (const id of ids) for (const to of implicitDependencies(id, targets)) addEdge(id, to, true);

  const errors: PlanError[] = [];
  objs.forEach((obj, i) => {
    const annotations = obj.metadata.annotations;
    if (!annotations || !Object.hasOwn(annotations, Annotations.DependsOn)) return;
    const from = ids[i];
    const deps = readDependsOn(annotations[Annotations.DependsOn]);
    if (typeof deps === 'string') {
      errors.push({ id: from, message: deps });
      return;
    }
    const seen = new Set<string>();
    for (const to of deps) {
      const key = idKey(to);
      if (seen.has(key)) {
        errors.push({ id: from, message: duplicateDependencyMessage(from, to) });
        continue;
      }
      seen.add(key);
      if (!known.has(key)) {
        errors.push({ id: from, message: externalDependencyMessage(from, to) });
        continue;
      }
      addEdge(from, to, false);
    }
  });

  const sorted = [...edges.values()].sort((a, b) => compareIds(a.from, b.from) || compareIds(a.to, b.to));
  return { ids, edges: sorted, errors };
}
