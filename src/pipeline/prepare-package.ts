import { Annotations } from '../common/constants.js';
import type { ObjectId } from '../common/object-id.js';
import { readClusterInventory } from '../inventory/read-inventory.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import type { ResourceInfo } from '../kube/discovery.js';
import type { InventoryInfo } from '../package/inventory-info.js';
import { loadPackage } from '../package/load-package.js';
import type { LoadedObject } from '../package/loaded-object.js';
import { type PackageError, PackageFailure } from '../package/package-error.js';
import type { ScopeLookup } from '../package/scope.js';
import { validatePackage } from '../package/validate.js';

export interface PreparedPackage {
  /** Package path relative to the repository root. */
  dir: string;
  objects: LoadedObject[];
  inventory: InventoryInfo;
  notices: string[];
}

/**
 * load → validate for one deployable unit, with the scope of each kind taken from discovery. Every
 * problem is collected; any problem throws a PackageFailure carrying all of them (nothing has been sent
 * to the cluster yet).
 */
export async function preparePackage(
  client: ClusterClient,
  dir: string,
  options: {
    repoRoot: string;
    defaultNamespace: string;
    /**
     * Destroy: only the inventory information is needed (the objects come from the cluster's inventory),
     * so only files that can hold it are read, and a broken manifest does not stand in the way.
     */
    inventoryOnly?: boolean;
  },
): Promise<PreparedPackage> {
  // each kind's discovery is fetched as soon as a file names it, while the other files are still read
  const asked = new Set<string>();
  const loaded = await loadPackage(dir, {
    repoRoot: options.repoRoot,
    inventoryOnly: options.inventoryOnly,
    onKinds: (kinds) => {
      for (const { apiVersion, kind } of kinds) {
        const key = `${apiVersion}/${kind}`;
        if (asked.has(key)) continue;
        asked.add(key);
        client.resolve(apiVersion, kind).catch(() => {}); // asked again, and its failure reported, below
      }
    },
  });
  const errors: PackageError[] = [...loaded.errors];
  if (!loaded.inventory && !errors.some((e) => /inventory/i.test(e.message))) {
    errors.push({
      file: loaded.dir,
      message:
        'the package has no inventory information (resourcegroup.yaml or a Kptfile `inventory:` section)',
      fix: `create one with \`kpt-live init ${loaded.dir}\` (or \`kpt live init ${loaded.dir}\`) and commit it`,
    });
  }
  if (errors.length > 0 || !loaded.inventory) throw new PackageFailure(errors);
  if (options.inventoryOnly)
    return { dir: loaded.dir, objects: [], inventory: loaded.inventory, notices: loaded.notices };

  const scope = await scopeLookupFor(client, loaded.objects);
  let extraIds: ObjectId[] = [];
  // depends-on may name an object that is only in the inventory (about to be pruned): read it only then
  if (loaded.objects.some((o) => o.object.metadata?.annotations?.[Annotations.DependsOn] !== undefined)) {
    try {
      extraIds = (await readClusterInventory(client, loaded.inventory))?.ids ?? [];
    } catch {
      // no ResourceGroup CRD yet, or no permission to read it: nothing to prune, the apply will say more
    }
  }
  const validated = validatePackage(loaded, { scope, defaultNamespace: options.defaultNamespace, extraIds });
  if (validated.errors.length > 0) throw new PackageFailure(validated.errors);
  return {
    dir: loaded.dir,
    objects: validated.objects,
    inventory: loaded.inventory,
    notices: loaded.notices,
  };
}

/** A synchronous scope lookup over discovery answers fetched up front (one request per group-version). */
export async function scopeLookupFor(
  client: ClusterClient,
  objects: readonly LoadedObject[],
): Promise<ScopeLookup> {
  const known = new Map<string, ResourceInfo | undefined>();
  const kinds = new Map<string, { apiVersion: string; kind: string }>();
  for (const { object } of objects) {
    if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') continue;
    kinds.set(`${object.apiVersion}/${object.kind}`, { apiVersion: object.apiVersion, kind: object.kind });
  }
  // every group-version at once (discovery caches them): one round trip, not one per group
  await Promise.all(
    [...kinds].map(async ([key, k]) => known.set(key, await client.resolve(k.apiVersion, k.kind))),
  );
  return (group, version, kind) => {
    const info = known.get(`${group ? `${group}/${version}` : version}/${kind}`);
    if (!info) return undefined;
    return info.namespaced ? 'Namespaced' : 'Cluster';
  };
}
