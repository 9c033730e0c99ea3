import { Annotations } from '../common/constants.js';
import {
  compareIds,
  formatRef,
  idKey,
  idOf,
  type ObjectId,
  parseDependsOn,
  sameId,
  shortName,
} from '../common/object-id.js';
import { layerGraph } from '../plan/waves.js';
import type { LoadedObject } from './loaded-object.js';
import type { PackageError } from './package-error.js';
import { isCrd } from './scope.js';

interface Edge {
  from: ObjectId;
  to: ObjectId;
}

const annotationPrefix = `invalid "${Annotations.DependsOn}" annotation`;
const refFormats =
  'write each reference as <group>/namespaces/<namespace>/<Kind>/<name> (namespaced) or <group>/<Kind>/<name> (cluster-scoped), comma-separated; the core group is empty, e.g. /namespaces/default/ConfigMap/cm';

/**
 * Checks `config.kubernetes.io/depends-on` the way cli-utils validates its dependency graph, with its
 * messages: malformed references, the same reference twice (duplicate), a reference to an object that is
 * neither in the package nor in `extraIds` (external: not supported), and cycles, including the implicit
 * edges from objects to their Namespace and CRD when those are in the package. `objects` must already
 * have their namespaces defaulted, since references name namespaces explicitly.
 */
export function checkDependencies(
  objects: readonly LoadedObject[],
  extraIds: readonly ObjectId[] = [],
): PackageError[] {
  const errors: PackageError[] = [];
  const known = new Map<string, ObjectId>();
  for (const id of extraIds) known.set(idKey(id), id);
  for (const o of objects) known.set(idKey(idOf(o.object)), idOf(o.object));
  const edges: Edge[] = [];

  for (const o of objects) {
    const value = o.object.metadata.annotations?.[Annotations.DependsOn];
    if (value === undefined) continue;
    const from = idOf(o.object);
    const at = { file: o.source.file, line: o.source.line, object: shortName(from) };
    let refs: ObjectId[];
    try {
      refs = parseDependsOn(value);
    } catch (err) {
      errors.push({ ...at, message: (err as Error).message, fix: refFormats });
      continue;
    }
    const seen: ObjectId[] = [];
    for (const to of refs) {
      const edgeText = `${formatRef(from)} -> ${formatRef(to)}`;
      if (seen.some((s) => sameId(s, to))) {
        errors.push({
          ...at,
          message: `${annotationPrefix}: duplicate dependency: ${edgeText}`,
          fix: `list ${formatRef(to)} only once`,
        });
        continue;
      }
      seen.push(to);
      if (!known.has(idKey(to))) {
        const near = [...known.values()].find(
          (k) =>
            k.group === to.group && k.kind === to.kind && k.name === to.name && k.namespace !== to.namespace,
        );
        const hint = near
          ? `did you mean "${formatRef(near)}"? (a namespaced dependency must spell its namespace)`
          : `add ${shortName(to)} to the package, or remove it from the annotation (dependencies outside the package are not supported)`;
        errors.push({ ...at, message: `${annotationPrefix}: external dependency: ${edgeText}`, fix: hint });
        continue;
      }
      edges.push({ from, to });
    }
  }

  // Implicit edges, as cli-utils adds them: a custom resource depends on its CRD, a namespaced object on its
  // Namespace, when those are applied by the same package.
  const crds = objects.filter((o) => isCrd(o.object));
  const namespaces = objects.filter((o) => o.object.kind === 'Namespace' && o.object.apiVersion === 'v1');
  for (const o of objects) {
    const from = idOf(o.object);
    for (const crd of crds) {
      const spec = crd.object.spec as { group?: unknown; names?: { kind?: unknown } } | undefined;
      if (spec?.group === from.group && spec?.names?.kind === from.kind)
        edges.push({ from, to: idOf(crd.object) });
    }
    const ns = namespaces.find((n) => n.object.metadata.name === from.namespace);
    if (ns && from.namespace) edges.push({ from, to: idOf(ns.object) });
  }

  const uniqueEdges = new Map(edges.map((e) => [`${idKey(e.from)}|${idKey(e.to)}`, e]));
  // what cli-utils' graph.Sort leaves unsorted, as the plan lays it out: on, or depending on, a cycle
  const cyclic = new Set(
    (layerGraph([...known.values()], [...uniqueEdges.values()]).cycle?.ids ?? []).map(idKey),
  );
  if (cyclic.size > 0) {
    const cycleEdges = [...uniqueEdges.values()]
      .filter((e) => cyclic.has(idKey(e.from)) && cyclic.has(idKey(e.to)))
      .sort((a, b) => compareIds(a.from, b.from) || compareIds(a.to, b.to));
    const message = `cyclic dependency:${cycleEdges.map((e) => `\n- ${formatRef(e.from)} -> ${formatRef(e.to)}`).join('')}`;
    for (const o of objects) {
      const id = idOf(o.object);
      if (!cyclic.has(idKey(id))) continue;
      errors.push({
        file: o.source.file,
        line: o.source.line,
        object: shortName(id),
        message,
        fix: `remove one of these ${Annotations.DependsOn} references to break the cycle (objects also depend on their Namespace and CRD when the package applies them)`,
      });
    }
  }
  return errors;
}
