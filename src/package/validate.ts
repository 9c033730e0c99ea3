import { ConflictsAnnotation, parseConflictsAnnotation } from '../common/conflict-settings.js';
import { Labels } from '../common/constants.js';
import { splitApiVersion } from '../common/kube-object.js';
import { idKey, idOf, type ObjectId, shortName } from '../common/object-id.js';
import { checkDependencies } from './dependency-check.js';
import type { LoadedObject } from './loaded-object.js';
import { type PackageError, sortPackageErrors } from './package-error.js';
import { packageCrds, type ScopeLookup, scopeOf } from './scope.js';

export type { ResourceScope, ScopeLookup } from './scope.js';

export interface ValidateOptions {
  /** Scope of served types (from discovery); CRDs in the package cover their own custom resources. */
  scope: ScopeLookup;
  /** Namespace for namespaced objects that have none: `--namespace`, else the kubeconfig context's, else `default`. */
  defaultNamespace: string;
  /**
   * Ids that exist besides the package's objects (the objects about to be pruned): cli-utils checks
   * depends-on against apply ∪ prune, so depending on one of them is not "external".
   */
  extraIds?: readonly ObjectId[];
}

export interface ValidateResult {
  /** The objects with namespaces defaulted (copies; the input is not changed). */
  objects: LoadedObject[];
  /** The load errors followed by every rule's errors, sorted by file and line. Any error is fatal. */
  errors: PackageError[];
}

/**
 * Runs every package rule and returns all problems at once, before anything is sent to a cluster (kpt's
 * ExitEarly validation policy). Rules checked while loading (see loadPackage / shapeObject): invalid YAML,
 * missing apiVersion/kind/metadata.name, non-string label and annotation values, inventory info problems.
 * Rules checked here:
 * - objects carrying the inventory-id label (kpt: "Package has multiple inventory object templates");
 * - unknown types: not served (per `scope`) and not defined by a CRD in the package;
 * - a namespace on a cluster-scoped object; namespaced objects without one get `defaultNamespace`;
 * - duplicate objects (same group, kind, namespace and name, after defaulting), naming both places;
 * - `config.kubernetes.io/depends-on`: malformed, duplicate, external and cyclic (checkDependencies);
 * - `kpt-live-action.dev/conflicts`: an unknown mode or class, or a manager both taken and kept.
 */
export function validatePackage(
  loaded: { objects: readonly LoadedObject[]; errors: readonly PackageError[] },
  opts: ValidateOptions,
): ValidateResult {
  const errors: PackageError[] = [];
  const crds = packageCrds(loaded.objects);
  const objects: LoadedObject[] = [];

  for (const item of loaded.objects) {
    // only metadata.namespace is filled in below: a copy of the top level and of metadata is enough
    const object = { ...item.object, metadata: { ...item.object.metadata } };
    const at = { file: item.source.file, line: item.source.line, object: shortName(idOf(object)) };

    if (object.metadata.labels?.[Labels.InventoryId] !== undefined) {
      errors.push({
        ...at,
        message: `carries the inventory label "${Labels.InventoryId}": Package has multiple inventory object templates. The package should have one and only one inventory object template.`,
        fix: `remove the "${Labels.InventoryId}" label (only the ResourceGroup in resourcegroup.yaml carries it)`,
      });
    }

    const conflicts = object.metadata.annotations?.[ConflictsAnnotation];
    if (conflicts !== undefined) {
      try {
        parseConflictsAnnotation(conflicts);
      } catch (err) {
        errors.push({
          ...at,
          message: (err as Error).message,
          fix: `write a mode (take-hand-edits, fail, force) and/or take=MANAGER, keep=MANAGER, separated by commas or spaces, e.g. "${ConflictsAnnotation}: keep=kubectl-label"`,
        });
      }
    }

    const scope = scopeOf(object, opts.scope, crds);
    if (scope === undefined) {
      const { group } = splitApiVersion(object.apiVersion);
      const sameKind = crds.filter((c) => c.group === group && c.kind === object.kind);
      errors.push({
        ...at,
        message: `unknown resource type: apiVersion "${object.apiVersion}", kind "${object.kind}" is neither served by the cluster nor defined by a CustomResourceDefinition in the package`,
        fix:
          sameKind.length > 0
            ? `the CRD at ${sameKind[0].source.file}:${sameKind[0].source.line} defines ${object.kind} in version(s) ${sameKind[0].versions.join(', ')}: use one of them in apiVersion`
            : 'check apiVersion and kind for typos; for a custom resource, install its CRD first or add the CRD to the package',
      });
    } else if (scope === 'Cluster' && object.metadata.namespace) {
      errors.push({
        ...at,
        message: `resource is cluster-scoped but has a non-empty namespace "${object.metadata.namespace}"`,
        fix: `remove metadata.namespace (${object.kind} is cluster-scoped)`,
      });
    } else if (scope === 'Namespaced' && !object.metadata.namespace) {
      object.metadata.namespace = opts.defaultNamespace;
    }
    objects.push({ object, source: item.source });
  }

  const firstSeen = new Map<string, LoadedObject>();
  for (const item of objects) {
    const id = idOf(item.object);
    const key = idKey(id);
    const first = firstSeen.get(key);
    if (!first) {
      firstSeen.set(key, item);
      continue;
    }
    const where = id.namespace ? ` in namespace "${id.namespace}"` : '';
    errors.push({
      file: item.source.file,
      line: item.source.line,
      object: shortName(id),
      message: `duplicate object: ${shortName(id)}${where}${id.group ? ` (group ${id.group})` : ''} is also defined at ${first.source.file}:${first.source.line}`,
      fix: 'remove one of the two definitions, or give them different names',
    });
  }

  errors.push(...checkDependencies(objects, opts.extraIds));
  return { objects, errors: sortPackageErrors([...loaded.errors, ...errors]) };
}
