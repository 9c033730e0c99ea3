/**
 * The package model: everything the engine knows about a kpt package before it talks to a cluster.
 * find → load → validate, plus inventory info and `init`. Every problem is a PackageError with file,
 * line, object and fix; nothing here throws for bad package content.
 */
export {
  type FileLocation,
  findPackages,
  findUnits,
  groupUnits,
  locateFile,
  type PackageInfo,
  type Unit,
  unitForFile,
} from './find-packages.js';
export {
  generateInventoryId,
  type InitOptions,
  type InitResult,
  initPackage,
  inventoryNamespace,
  renderResourceGroup,
} from './init.js';
export {
  type InventoryInfo,
  type InventorySource,
  isResourceGroup,
  readInventoryInfo,
  resolveInventoryInfo,
  sameInventory,
} from './inventory-info.js';
export { type KptfileInfo, type KptfileInventory, parseKptfile } from './kptfile.js';
export { isLocalConfig, type LoadOptions, type LoadResult, loadPackage } from './load-package.js';
export type { LoadedObject } from './loaded-object.js';
export { formatPackageError, type PackageError, PackageFailure, sortPackageErrors } from './package-error.js';
export { resolveInside, type SafePath } from './path-safety.js';
export {
  isCrd,
  type PackageCrd,
  packageCrds,
  type ResourceScope,
  type ScopeLookup,
  scopeOf,
} from './scope.js';
export { type ValidateOptions, type ValidateResult, validatePackage } from './validate.js';
