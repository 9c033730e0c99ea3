import { createHash, randomInt } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  Labels,
  ResourceGroupApiVersion,
  ResourceGroupFile,
  ResourceGroupKind,
} from '../common/constants.js';
import { splitApiVersion } from '../common/kube-object.js';
import { loadYaml } from '../startup/yaml-module.js';
import { isKnownClusterScoped } from './cluster-scoped-kinds.js';
import { type InventoryInfo, scanResourceGroups } from './inventory-info.js';
import { readKptfile } from './kptfile.js';
import { loadPackage } from './load-package.js';
import type { LoadedObject } from './loaded-object.js';
import type { PackageError } from './package-error.js';
import { KptfileName, owningPackage, walkTree } from './package-tree.js';
import { resolveInside } from './path-safety.js';
import { packageCrds } from './scope.js';

export interface InitOptions {
  /** The repository root: `dir` must be inside it. Defaults to `dir` itself. */
  root?: string;
  /** `--name`; default `inventory-<8 random digits>`. */
  name?: string;
  /** `--namespace`: wins over the heuristic. */
  namespace?: string;
  /** The kubeconfig context's namespace, used when the package does not agree on one; default `default`. */
  defaultNamespace?: string;
  /** `--inventory-id`; default `sha1("<ns>:<name>")-<unix nanos>`. */
  inventoryId?: string;
  /** `--force`: overwrite resourcegroup.yaml and drop the Kptfile's `inventory:` section. */
  force?: boolean;
  /** Clock in Unix nanoseconds and name suffix source, replaceable for tests. */
  now?: () => bigint;
  randomSuffix?: () => string;
}

export interface InitResult {
  ok: boolean;
  /** kpt's line: `initializing "resourcegroup.yaml" data (namespace: <ns>)...success` (or `...failed`). */
  message: string;
  inventory?: InventoryInfo;
  errors: PackageError[];
}

/** Current time in Unix nanoseconds (ms clock plus the sub-ms part of the monotonic clock). */
export function unixNanos(): bigint {
  return BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
}

/** kpt's generateID: `hex(sha1("<namespace>:<name>"))-<unix nanos>`. */
export function generateInventoryId(namespace: string, name: string, nanos: bigint): string {
  return `${createHash('sha1').update(`${namespace}:${name}`).digest('hex')}-${nanos}`;
}

/**
 * The inventory namespace kpt's `live init` picks: the explicit one, else the one namespace every
 * namespaced object states (cluster-scoped kinds skipped, unknown kinds counted as namespaced, one object
 * without a namespace spoils it), else the fallback.
 */
export function inventoryNamespace(
  objects: readonly LoadedObject[],
  explicit: string | undefined,
  fallback: string,
): string {
  if (explicit) return explicit;
  const clusterCrds = packageCrds(objects).filter((c) => c.scope === 'Cluster');
  let shared: string | undefined;
  for (const { object } of objects) {
    if (isKnownClusterScoped(object.apiVersion, object.kind)) continue;
    const { group } = splitApiVersion(object.apiVersion);
    if (clusterCrds.some((c) => c.group === group && c.kind === object.kind)) continue;
    const ns = object.metadata.namespace;
    if (!ns || (shared !== undefined && ns !== shared)) return fallback;
    shared = ns;
  }
  return shared ?? fallback;
}

/** Quotes a value the way kpt's YAML encoder does when it would otherwise read as a number, bool or null. */
function yamlScalar(value: string): string {
  const ambiguous =
    /^(?:[-+]?[\d_]+(?:\.\d*)?(?:[eE][-+]?\d+)?|[-+]?\.\d+(?:[eE][-+]?\d+)?|0x[\da-fA-F]+|0o[0-7]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~|)$/;
  return ambiguous.test(value) || !/^[A-Za-z0-9][-A-Za-z0-9_.]*$/.test(value) ? JSON.stringify(value) : value;
}

/** resourcegroup.yaml exactly as `kpt live init` writes it. */
export function renderResourceGroup(name: string, namespace: string, id: string): string {
  return [
    `apiVersion: ${ResourceGroupApiVersion}`,
    `kind: ${ResourceGroupKind}`,
    'metadata:',
    `  name: ${yamlScalar(name)}`,
    `  namespace: ${yamlScalar(namespace)}`,
    '  labels:',
    `    ${Labels.InventoryId}: ${yamlScalar(id)}`,
    '',
  ].join('\n');
}

const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function checkValues(name: string, namespace: string, id: string): PackageError[] {
  const errors: PackageError[] = [];
  if (!dnsSubdomain.test(name) || name.length > 253) {
    errors.push({
      message: `inventory name "${name}" is not a valid object name`,
      fix: 'use lower-case letters, digits, "-" and "." (a DNS subdomain), e.g. --name inventory-web',
    });
  }
  if (!dnsLabel.test(namespace) || namespace.length > 63) {
    errors.push({
      message: `inventory namespace "${namespace}" is not a valid namespace name`,
      fix: 'use at most 63 lower-case letters, digits and "-", e.g. --namespace web',
    });
  }
  if (!id || !labelValue.test(id) || id.length > 63) {
    errors.push({
      message: `inventory id "${id}" is not a valid label value`,
      fix: 'use at most 63 letters, digits, "-", "_" and "." that start and end with a letter or digit, or leave --inventory-id out to generate one',
    });
  }
  return errors;
}

/**
 * Writes `resourcegroup.yaml` like `kpt live init <dir>`, so either tool can apply the package afterwards.
 * Refuses when inventory info already exists (Kptfile `inventory:` or a ResourceGroup), unless `force`,
 * which overwrites resourcegroup.yaml and removes the Kptfile's section. Never throws for package
 * problems: they come back as errors with kpt's wording and a fix; a path outside `root` throws.
 * `dir` is relative to `root` when a root is given.
 */
export async function initPackage(dir: string, opts: InitOptions = {}): Promise<InitResult> {
  const root = opts.root ?? dir;
  const safe = await resolveInside(root, opts.root ? dir : '.', 'package path');
  const rgRel = path.posix.join(safe.rel, ResourceGroupFile);
  const rgPath = await resolveInside(root, path.join(safe.abs, ResourceGroupFile), 'inventory file');
  const kptfileExists = await stat(path.join(safe.abs, KptfileName)).then(
    (s) => s.isFile(),
    () => false,
  );
  const fallback = opts.defaultNamespace || 'default';
  const fail = (errors: PackageError[], ns = fallback): InitResult => ({
    ok: false,
    message: `initializing "${ResourceGroupFile}" data (namespace: ${ns})...failed`,
    errors,
  });
  if (!kptfileExists) {
    return fail([
      {
        message: `"${safe.rel}" is not a kpt package: it has no Kptfile`,
        file: safe.rel,
        fix: `create one with "kpt pkg init ${safe.rel}" first`,
      },
    ]);
  }

  const loaded = opts.namespace ? undefined : await loadPackage(safe.abs, { repoRoot: root });
  const namespace = inventoryNamespace(loaded?.objects ?? [], opts.namespace, fallback).trim();
  const kptfile = await readKptfile(path.join(safe.abs, KptfileName), path.posix.join(safe.rel, KptfileName));
  if (kptfile.errors.length > 0) return fail(kptfile.errors, namespace);

  const tree = await walkTree(safe.realRoot, safe.abs);
  const own = tree.yamlFiles.filter((f) => owningPackage(tree.packages, f.rel) === safe.rel);
  const groups = await scanResourceGroups(own);
  const errors: PackageError[] = [];
  if (kptfile.inventory && !opts.force) {
    errors.push({
      message: 'inventory information already set within Kptfile for package',
      file: kptfile.file,
      line: kptfile.inventoryLine,
      fix: `migrate it with "kpt live migrate", or pass --force to replace it with ${ResourceGroupFile} (add --name and --inventory-id with the Kptfile's values to keep the same inventory)`,
    });
  }
  for (const rg of groups) {
    if (rg.source.file === rgRel && opts.force) continue;
    errors.push({
      message: 'inventory information already set for package',
      file: rg.source.file,
      line: rg.source.line,
      object: `${ResourceGroupKind}/${rg.object.metadata.name}`,
      fix:
        rg.source.file === rgRel
          ? 'changing it after the package has been applied can lead to undesired results (the objects stay owned by the old inventory id); pass --force to overwrite it'
          : `delete this ResourceGroup first: init writes ${rgRel}, and a package may have only one`,
    });
  }
  if (errors.length > 0) return fail(errors, namespace);

  const name =
    opts.name ||
    `inventory-${(opts.randomSuffix ?? (() => String(randomInt(0, 100_000_000)).padStart(8, '0')))()}`;
  const id = opts.inventoryId || generateInventoryId(namespace, name, (opts.now ?? unixNanos)());
  const invalid = checkValues(name, namespace, id);
  if (invalid.length > 0) return fail(invalid, namespace);

  await writeFile(rgPath.abs, renderResourceGroup(name, namespace, id), { mode: 0o600 });
  if (kptfile.inventory) {
    const kptfileAbs = path.join(safe.abs, KptfileName);
    const doc = (await loadYaml()).parseDocument(await readFile(kptfileAbs, 'utf8'));
    doc.delete('inventory');
    await writeFile(kptfileAbs, doc.toString());
  }
  return {
    ok: true,
    message: `initializing "${ResourceGroupFile}" data (namespace: ${namespace})...success`,
    inventory: { name, namespace, id, source: 'resourcegroup', file: rgRel, line: 1 },
    errors: [],
  };
}
