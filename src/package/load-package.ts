import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Annotations, ResourceGroupKind } from '../common/constants.js';
import {
  type InventoryInfo,
  isResourceGroup,
  nestedInventoryError,
  resolveInventoryInfo,
} from './inventory-info.js';
import { type KptfileInfo, readKptfile } from './kptfile.js';
import type { LoadedObject } from './loaded-object.js';
import { type PackageError, sortPackageErrors } from './package-error.js';
import { KptfileName, owningPackage, walkTree } from './package-tree.js';
import { resolveInside } from './path-safety.js';
import { decodeUtf8 } from './read-yaml.js';
import { shapeFile } from './shape-file.js';

export type { LoadedObject } from './loaded-object.js';

/** A deployable unit read from disk: its objects, its inventory info, and everything wrong with it. */
export interface LoadResult {
  /** The unit directory relative to the repository root (posix, `.` for the root). */
  dir: string;
  objects: LoadedObject[];
  inventory?: InventoryInfo;
  /** Things the user should know that do not stop a run (pipeline not rendered, Kptfile inventory). */
  notices: string[];
  errors: PackageError[];
}

export interface LoadOptions {
  /** Paths in sources and errors are relative to it, and nothing outside it is read. */
  repoRoot: string;
  /**
   * Read only what the inventory information can come from (the Kptfiles and files that mention a
   * ResourceGroup); the objects are not loaded. Destroy needs no more.
   */
  inventoryOnly?: boolean;
  /** Hears the kinds as the files are read (to look them up while the rest loads). */
  onKinds?: (kinds: { apiVersion: string; kind: string }[]) => void;
}

/** kpt keeps an object annotated local-config only when the value is exactly "false". */
export function isLocalConfig(annotations: Record<string, string> | undefined): boolean {
  const value = annotations?.[Annotations.LocalConfig];
  return value !== undefined && value !== 'false';
}

/**
 * Reads the deployable unit at `dir` as `kpt live apply <dir>` would: every `*.yaml`/`*.yml` below it,
 * subpackages included, every document, `kind: List` flattened; the Kptfile, kpt's ResourceGroup and
 * `config.kubernetes.io/local-config` objects are left out. Every object keeps its file and line.
 * Nothing is thrown for bad content: syntax and shape errors, inventory problems (none, several, or one
 * inside a subpackage) are all returned together. A Kptfile with a `pipeline:` gets a notice, because the
 * committed YAML is applied as is. Throws a PackageFailure only when `dir` leaves the repository.
 */
export async function loadPackage(dir: string, opts: LoadOptions): Promise<LoadResult> {
  const safe = await resolveInside(opts.repoRoot, dir, 'package path');
  const result: LoadResult = { dir: safe.rel, objects: [], notices: [], errors: [] };
  const kind = await stat(safe.abs).then(
    (s) => (s.isDirectory() ? 'dir' : 'file'),
    () => 'missing',
  );
  const isDir = kind === 'dir';
  const tree = isDir ? await walkTree(safe.realRoot, safe.abs) : undefined;
  if (!tree?.packages.includes(safe.rel)) {
    result.errors.push({
      message: isDir
        ? `"${safe.rel}" is not a kpt package: it has no Kptfile`
        : kind === 'file'
          ? `package path "${safe.rel}" is a file, not a directory`
          : `package directory "${safe.rel}" does not exist`,
      file: safe.rel,
      fix: isDir
        ? `create one with "kpt pkg init ${safe.rel}", or point at the directory that has the Kptfile`
        : 'name the directory that holds the Kptfile',
    });
    return result;
  }
  result.errors.push(...tree.errors);

  const kptfiles = new Map<string, KptfileInfo>();
  for (const pkg of tree.packages) {
    const info = await readKptfile(
      path.join(safe.realRoot, pkg, KptfileName),
      path.posix.join(pkg, KptfileName),
    );
    kptfiles.set(pkg, info);
    result.errors.push(...info.errors);
    if (info.pipeline) {
      result.notices.push(
        `${info.file} declares a pipeline: the committed YAML is applied as is; run \`kpt fn render ${pkg}\` first (and commit the result) if it is not rendered`,
      );
    }
    if (pkg !== safe.rel && info.inventory)
      result.errors.push(nestedInventoryError(pkg, safe.rel, info.file, info.inventoryLine));
  }

  const resourceGroups: LoadedObject[] = [];
  for (const file of tree.yamlFiles) {
    const decoded = decodeUtf8(await readFile(file.abs), file.rel);
    if (decoded.error) {
      if (!opts.inventoryOnly) result.errors.push(decoded.error);
      continue;
    }
    if (opts.inventoryOnly && !decoded.text?.includes(ResourceGroupKind)) continue;
    const pkg = owningPackage(tree.packages, file.rel) ?? safe.rel;
    for (const shaped of await shapeFile(decoded.text ?? '', file.rel, result.errors, opts.onKinds)) {
      const loaded: LoadedObject = { object: shaped.object, source: { file: file.rel, line: shaped.line } };
      if (isResourceGroup(shaped.object)) {
        if (pkg === safe.rel) resourceGroups.push(loaded);
        else
          result.errors.push(
            nestedInventoryError(
              pkg,
              safe.rel,
              file.rel,
              shaped.line,
              `${shaped.object.kind}/${shaped.object.metadata.name}`,
            ),
          );
      } else if (!opts.inventoryOnly && !isLocalConfig(shaped.object.metadata.annotations)) {
        result.objects.push(loaded);
      }
    }
  }

  const inv = resolveInventoryInfo({ dir: safe.rel, kptfile: kptfiles.get(safe.rel), resourceGroups });
  if (inv.inventory) result.inventory = inv.inventory;
  result.notices.push(...inv.notices);
  result.errors = sortPackageErrors([...result.errors, ...inv.errors]);
  return result;
}
