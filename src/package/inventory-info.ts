import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  Labels,
  ResourceGroupApiVersion,
  ResourceGroupFile,
  ResourceGroupKind,
} from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import { loadYaml } from '../startup/yaml-module.js';
import { type KptfileInfo, readKptfile } from './kptfile.js';
import type { LoadedObject } from './loaded-object.js';
import { type ShapedObject, shapeObject } from './object-shape.js';
import type { PackageError } from './package-error.js';
import { KptfileName, owningPackage, type TreeFile, walkTree } from './package-tree.js';
import { resolveInside } from './path-safety.js';
import { parseYamlFile } from './read-yaml.js';
import { shapeFast } from './shape-file.js';

export type InventorySource = 'resourcegroup' | 'kptfile';

/** Where a package's inventory lives in the cluster: the ResourceGroup's name, namespace and inventory id. */
export interface InventoryInfo {
  name: string;
  namespace: string;
  /** The `cli-utils.sigs.k8s.io/inventory-id` label value. */
  id: string;
  source: InventorySource;
  /** The file it was read from, relative to the repository root (resourcegroup.yaml or the Kptfile). */
  file: string;
  line?: number;
  /** Kptfile `inventory.labels` / `inventory.annotations`, which kpt copies onto the cluster ResourceGroup. */
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** The same inventory object: name, namespace and inventory id (where it was read from aside). */
export function sameInventory(
  a: Pick<InventoryInfo, 'name' | 'namespace' | 'id'>,
  b: Pick<InventoryInfo, 'name' | 'namespace' | 'id'>,
): boolean {
  return a.name === b.name && a.namespace === b.namespace && a.id === b.id;
}

/** True for kpt's inventory object, `kpt.dev/v1alpha1` `ResourceGroup`, which is never applied as content. */
export function isResourceGroup(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): boolean {
  return obj.apiVersion === ResourceGroupApiVersion && obj.kind === ResourceGroupKind;
}

const initFix = (dir: string) =>
  `run "kpt-live init ${dir}" (or "kpt live init ${dir}") and commit the resourcegroup.yaml it writes`;

/**
 * Decides a package's inventory info from its root Kptfile and the ResourceGroups in its own files, with
 * kpt's rules (`Pkg.LocalInventory`): more than one ResourceGroup, or one plus a Kptfile `inventory:`, is
 * an error; none is an error that says how to create one; name, namespace and id must all be set.
 * Reading from the Kptfile adds kpt's migration notice.
 */
export function resolveInventoryInfo(input: {
  /** Package directory relative to the repository root, for messages. */
  dir: string;
  kptfile?: KptfileInfo;
  resourceGroups: readonly LoadedObject[];
}): { inventory?: InventoryInfo; errors: PackageError[]; notices: string[] } {
  const { dir, kptfile, resourceGroups } = input;
  const errors: PackageError[] = [];
  const notices: string[] = [];
  const rgName = (rg: LoadedObject) => `${ResourceGroupKind}/${rg.object.metadata.name}`;
  const where = (rg: LoadedObject) => `${rg.source.file}:${rg.source.line}`;
  if (resourceGroups.length > 1) {
    for (const rg of resourceGroups.slice(1)) {
      errors.push({
        message: `multiple ResourceGroup objects found in package (the first is at ${where(resourceGroups[0])})`,
        file: rg.source.file,
        line: rg.source.line,
        object: rgName(rg),
        fix: `keep exactly one ResourceGroup (in ${ResourceGroupFile}) and delete the others`,
      });
    }
    return { errors, notices };
  }
  const kfInv = kptfile?.inventory;
  const [rg] = resourceGroups;
  if (kfInv && rg) {
    errors.push({
      message: `inventory was found in both Kptfile and ResourceGroup object (${where(rg)})`,
      file: kptfile.file,
      line: kptfile.inventoryLine,
      fix: `keep one: delete the Kptfile's "inventory:" section if ${rg.source.file} describes the same inventory, otherwise delete ${rg.source.file}`,
    });
    return { errors, notices };
  }
  let inventory: InventoryInfo | undefined;
  if (rg) {
    inventory = {
      name: rg.object.metadata.name,
      namespace: rg.object.metadata.namespace ?? '',
      id: rg.object.metadata.labels?.[Labels.InventoryId] ?? '',
      source: 'resourcegroup',
      file: rg.source.file,
      line: rg.source.line,
    };
  } else if (kfInv && kptfile) {
    inventory = {
      name: kfInv.name ?? '',
      namespace: kfInv.namespace ?? '',
      id: kfInv.inventoryID ?? '',
      source: 'kptfile',
      file: kptfile.file,
      line: kptfile.inventoryLine,
      ...(kfInv.labels ? { labels: kfInv.labels } : {}),
      ...(kfInv.annotations ? { annotations: kfInv.annotations } : {}),
    };
    notices.push(
      `${kptfile.file}: inventory info is read from the Kptfile's "inventory:" section; kpt recommends a ${ResourceGroupFile} instead: migrate with "kpt live migrate"`,
    );
  } else {
    errors.push({
      message: `package has no inventory info (no ${ResourceGroupFile} and no "inventory:" in the Kptfile): Package uninitialized`,
      file: kptfile?.file ?? path.posix.join(dir, KptfileName),
      fix: initFix(dir),
    });
    return { errors, notices };
  }
  const fields: [keyof InventoryInfo, string, string][] = [
    ['name', 'inventory.name', rg ? 'set metadata.name' : 'set inventory.name'],
    ['namespace', 'inventory.namespace', rg ? 'set metadata.namespace' : 'set inventory.namespace'],
    [
      'id',
      'inventory.inventoryID',
      rg ? `add the label "${Labels.InventoryId}: <id>" to metadata.labels` : 'set inventory.inventoryID',
    ],
  ];
  for (const [key, field, fix] of fields) {
    if (inventory[key] === '') {
      errors.push({
        message: `the inventory information is not valid: "${field}" must not be empty`,
        file: inventory.file,
        line: inventory.line,
        object: rg ? rgName(rg) : undefined,
        fix: `${fix} (or regenerate it with "kpt-live init --force ${dir}")`,
      });
    }
  }
  return errors.length ? { errors, notices } : { inventory, errors, notices };
}

/**
 * The error for inventory info found inside a subpackage of a deployable unit: kpt would
 * ignore it, but two inventories would then both claim the subpackage's objects.
 */
export function nestedInventoryError(
  subpackage: string,
  unit: string,
  file: string,
  line?: number,
  object?: string,
): PackageError {
  return {
    message: `inventory info inside subpackage "${subpackage}" of the deployable unit "${unit}": two inventories would own the same objects`,
    file,
    line,
    object,
    fix: `remove it (the subpackage is applied with "${unit}"), or remove the inventory info of "${unit}" to deploy its subpackages on their own`,
  };
}

/**
 * Finds the ResourceGroups among YAML files (kpt reads them from any file of the package, not only
 * resourcegroup.yaml). Files that do not mention the kind are not parsed; syntax errors are left to the
 * loader, which reports them with everything else. A file the fast reader takes whole and well-formed is
 * read without the `yaml` package; any other is read with it, which also keeps a ResourceGroup with a
 * shape error (its coerced values are those of the text).
 */
export async function scanResourceGroups(files: readonly TreeFile[]): Promise<LoadedObject[]> {
  const found: LoadedObject[] = [];
  for (const f of files) {
    const text = await readFile(f.abs, 'utf8');
    if (!text.includes(ResourceGroupKind)) continue;
    for (const shaped of shapeFast(text, f.rel) ?? (await shapeFully(text, f.rel))) {
      if (shaped.object && isResourceGroup(shaped.object)) {
        found.push({ object: shaped.object, source: { file: f.rel, line: shaped.line } });
      }
    }
  }
  return found;
}

/** Every document of a file checked, as the `yaml` package reads it (documents with syntax errors left out). */
async function shapeFully(text: string, file: string): Promise<ShapedObject[]> {
  await loadYaml();
  return parseYamlFile(text, file).docs.map((doc) =>
    shapeObject(doc.doc.toJS(), doc.doc.contents ?? undefined, doc),
  );
}

/**
 * Reads the inventory info of the package at `dir` (relative to `repoRoot` or absolute, kept inside it):
 * the root Kptfile's `inventory:` and the ResourceGroups in the package's own files (subpackages are not
 * examined, as in kpt). For commands that need only the inventory (status, destroy) and for `init`.
 */
export async function readInventoryInfo(
  dir: string,
  opts: { repoRoot: string },
): Promise<{ inventory?: InventoryInfo; errors: PackageError[]; notices: string[] }> {
  const safe = await resolveInside(opts.repoRoot, dir, 'package path');
  const tree = await walkTree(safe.realRoot, safe.abs);
  const own = tree.yamlFiles.filter((f) => (owningPackage(tree.packages, f.rel) ?? safe.rel) === safe.rel);
  const kptfile = tree.packages.includes(safe.rel)
    ? await readKptfile(path.join(safe.abs, KptfileName), path.posix.join(safe.rel, KptfileName))
    : undefined;
  const resolved = resolveInventoryInfo({
    dir: safe.rel,
    kptfile,
    resourceGroups: await scanResourceGroups(own),
  });
  return { ...resolved, errors: [...(kptfile?.errors ?? []), ...resolved.errors] };
}
