import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Labels, ResourceGroupFile } from '../common/constants.js';
import { isRecord, type KubeObject } from '../common/kube-object.js';
import { idKey } from '../common/object-id.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { renderResourceGroup } from '../package/init.js';
import { readKptfile } from '../package/kptfile.js';
import { loadYaml } from '../startup/yaml-module.js';
import { deleteConfigMapInventory, readConfigMapInventory } from './configmap-inventory.js';
import { ensureResourceGroupCrd } from './install-crd.js';
import type { InventoryEntry, InventoryRef } from './inventory-types.js';
import { readResourceGroup, writeResourceGroup } from './resourcegroup.js';

/** cli-utils' `kapply init` template file, which `kpt live migrate` deletes. */
export const InventoryTemplateFile = 'inventory-template.yaml';

export interface MigrateOptions {
  /** The package directory (absolute). */
  dir: string;
  /** The package as the user named it, for messages. */
  display: string;
  /** Go through the steps without changing the cluster or the files. */
  dryRun?: boolean;
  /** ResourceGroup name and namespace; default the legacy inventory's own. */
  name?: string;
  namespace?: string;
  /** Overwrite an existing resourcegroup.yaml. */
  force?: boolean;
  /** Receives kpt's progress lines (`inventory migration...`, `  ensuring ResourceGroup CRD ...success`). */
  log: (line: string) => void;
}

export interface MigrateResult {
  ok: boolean;
  error?: string;
  inventory?: InventoryRef;
  /** How many object ids moved from the ConfigMap to the ResourceGroup. */
  objects: number;
}

/** Where the legacy inventory was declared in the package. */
interface LegacySource {
  kind: 'template' | 'kptfile' | 'resourcegroup';
  file: string;
  ref?: InventoryRef;
}

function templateRef(obj: KubeObject): InventoryRef | undefined {
  const id = obj.metadata?.labels?.[Labels.InventoryId];
  if (obj.apiVersion !== 'v1' || obj.kind !== 'ConfigMap' || !id) return undefined;
  return { name: obj.metadata.name, namespace: obj.metadata.namespace ?? '', id };
}

/** The package's own inventory declaration: a ConfigMap template, else the Kptfile's `inventory:`, else a ResourceGroup file. */
async function findLegacySource(dir: string): Promise<LegacySource | undefined> {
  const names = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort();
  for (const file of [InventoryTemplateFile, ...names.filter((f) => f !== InventoryTemplateFile)]) {
    const text = await readFile(path.join(dir, file), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    for (const doc of (await loadYaml()).parseAllDocuments(text)) {
      const value: unknown = doc.toJS();
      if (!isRecord(value) || !isRecord(value.metadata)) continue;
      const ref = templateRef(value as KubeObject);
      if (ref) return { kind: 'template', file, ref };
    }
  }
  const kptfile = await readKptfile(path.join(dir, 'Kptfile'), 'Kptfile');
  const inv = kptfile.inventory;
  if (inv?.name && inv.namespace && inv.inventoryID) {
    return {
      kind: 'kptfile',
      file: 'Kptfile',
      ref: { name: inv.name, namespace: inv.namespace, id: inv.inventoryID },
    };
  }
  const rg = await stat(path.join(dir, ResourceGroupFile)).catch(() => undefined);
  return rg ? { kind: 'resourcegroup', file: ResourceGroupFile } : undefined;
}

/**
 * `kpt live migrate`: moves a package from the legacy ConfigMap inventory (an `inventory-template.yaml`
 * ConfigMap, or a Kptfile `inventory:` section) to a ResourceGroup, keeping the inventory id so the objects'
 * `config.k8s.io/owning-inventory` annotations stay valid: installs the CRD, writes resourcegroup.yaml,
 * copies the ConfigMap's object ids into the cluster's ResourceGroup (merged with one that already exists),
 * deletes the ConfigMap, then the template file (or the Kptfile section). Prints kpt's step lines; a
 * failed step stops the migration and names what to fix.
 */
export async function migrateInventory(client: ClusterClient, opts: MigrateOptions): Promise<MigrateResult> {
  const { log } = opts;
  const step = async <T>(label: string, fn: () => Promise<T>, detail?: (value: T) => string): Promise<T> => {
    try {
      const value = await fn();
      log(`${label}...success${detail ? ` ${detail(value)}` : ''}`);
      return value;
    } catch (err) {
      log(`${label}...failed`);
      throw new Error((err as Error).message);
    }
  };
  log('inventory migration...');
  try {
    const source = await findLegacySource(opts.dir);
    if (!source) {
      throw new Error(
        `${opts.display} has no inventory to migrate: no ConfigMap labelled ${Labels.InventoryId} (${InventoryTemplateFile}) and no Kptfile inventory section; for a new package run "kpt-live init ${opts.display}"`,
      );
    }
    if (source.kind === 'resourcegroup' || !source.ref) {
      log(`  ${opts.display} already uses a ResourceGroup (${ResourceGroupFile}): nothing to migrate`);
      log('inventory migration...success');
      return { ok: true, objects: 0 };
    }
    const legacy = source.ref;
    const target: InventoryRef = {
      name: opts.name ?? legacy.name,
      namespace: opts.namespace ?? legacy.namespace,
      id: legacy.id,
    };
    await step('  ensuring ResourceGroup CRD exists in cluster', async () => {
      if (opts.dryRun) return;
      await ensureResourceGroupCrd(client, { install: true });
    });
    log(`  retrieve the current ConfigMap inventory...success (inventory-id: ${legacy.id})`);
    const rgPath = path.join(opts.dir, ResourceGroupFile);
    await step('  creating ResourceGroup object file', async () => {
      const exists = await stat(rgPath).then(
        () => true,
        () => false,
      );
      if (exists && !opts.force) {
        throw new Error(
          `${path.join(opts.display, ResourceGroupFile)} already exists: pass --force to overwrite it`,
        );
      }
      if (!opts.dryRun)
        await writeFile(rgPath, renderResourceGroup(target.name, target.namespace, target.id), {
          mode: 0o600,
        });
    });
    const cm = await step(
      '  retrieve ConfigMap inventory objs',
      () => readConfigMapInventory(client, legacy),
      (found) => `(${found?.ids.length ?? 0} inventory objects)`,
    );
    await step('  migrate inventory to ResourceGroup', async () => {
      if (opts.dryRun) return;
      const current = await readResourceGroup(client, target);
      const ids = new Map<string, InventoryEntry>();
      for (const id of [...(current?.ids ?? []), ...(cm?.ids ?? [])]) {
        ids.set(idKey(id), { id, strategy: 'Apply', actuation: 'Pending', reconcile: 'Pending' });
      }
      await writeResourceGroup(client, target, [...ids.values()], current?.object);
    });
    await step('  deleting old ConfigMap inventory object', async () => {
      if (cm && !opts.dryRun) await deleteConfigMapInventory(client, cm.object);
    });
    if (source.kind === 'template') {
      await step(`deleting inventory template file: ${path.join(opts.display, source.file)}`, async () => {
        if (!opts.dryRun) await rm(path.join(opts.dir, source.file));
      });
    } else {
      await step('removing the inventory section from the Kptfile', async () => {
        if (opts.dryRun) return;
        const kptfile = path.join(opts.dir, 'Kptfile');
        const doc = (await loadYaml()).parseDocument(await readFile(kptfile, 'utf8'));
        doc.delete('inventory');
        await writeFile(kptfile, doc.toString());
      });
    }
    log('inventory migration...success');
    return { ok: true, inventory: target, objects: cm?.ids.length ?? 0 };
  } catch (err) {
    log('inventory migration...failed');
    return { ok: false, error: (err as Error).message, objects: 0 };
  }
}
