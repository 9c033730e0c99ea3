import { PreflightModes, type RunOptions, StatusPolicies } from '../apply/run-options.js';
import { UpdateStrategies } from '../apply/update-strategy.js';
import { ConflictModes } from '../common/conflict-settings.js';
import type { DeployRecord } from '../inventory/deploy-history.js';
import type { InventoryRef } from '../inventory/inventory-types.js';

/**
 * The settings a deploy ran with, kept in its deploy record so that a rollback applies that commit the way
 * it was applied (field manager, inventory policy, timeouts, waits, ...). What belongs to the machine that
 * runs it (request concurrency, the lock's timings, whether it may install the ResourceGroup CRD) is not
 * recorded: a rollback takes today's.
 */
const Recorded = [
  'fieldManager',
  'forceConflicts',
  'conflicts',
  'reconcileTimeoutMs',
  'prune',
  'prunePropagationPolicy',
  'pruneTimeoutMs',
  'inventoryPolicy',
  'wait',
  'waitForJobs',
  'waitForControllerMs',
  'failFast',
  'allowEmptyPrune',
  'allowSkipped',
  'exitEarly',
  'preflight',
  'defaultUpdateStrategy',
  'statusPolicy',
] as const satisfies readonly (keyof RunOptions)[];

/** The values a recorded setting may take; anything else in a record (edited by hand, a newer format) is ignored. */
const Allowed: Partial<Record<(typeof Recorded)[number], readonly unknown[]>> = {
  prunePropagationPolicy: ['Background', 'Foreground', 'Orphan'],
  inventoryPolicy: ['strict', 'adopt', 'force-adopt'],
  preflight: PreflightModes,
  defaultUpdateStrategy: UpdateStrategies,
  statusPolicy: StatusPolicies,
};

/** What a deploy record keeps of a run's settings and inventory. */
export function recordedSettings(
  options: RunOptions,
  defaultNamespace: string,
  inventory: InventoryRef,
): Pick<DeployRecord, 'inventory' | 'namespace' | 'options'> {
  const kept: Record<string, unknown> = {};
  for (const key of Recorded) kept[key] = options[key];
  return {
    inventory: { name: inventory.name, namespace: inventory.namespace, id: inventory.id },
    namespace: defaultNamespace,
    options: kept,
  };
}

function validConflicts(v: unknown): v is RunOptions['conflicts'] {
  if (!v || typeof v !== 'object') return false;
  const c = v as Record<string, unknown>;
  const names = (x: unknown) => Array.isArray(x) && x.every((m) => typeof m === 'string');
  return (ConflictModes as readonly unknown[]).includes(c.mode) && names(c.take) && names(c.keep);
}

/**
 * The settings to apply a recorded deploy with: each setting the record holds (of the right type and a
 * known value) over `today`'s. `recorded` is false when the record holds none (it predates them): the
 * caller says that today's settings were used.
 */
export function settingsOf(
  record: Pick<DeployRecord, 'options'>,
  today: RunOptions,
): { options: RunOptions; recorded: boolean } {
  const stored = record.options;
  if (!stored || typeof stored !== 'object') return { options: today, recorded: false };
  const options: RunOptions = { ...today };
  const target = options as unknown as Record<string, unknown>;
  for (const key of Recorded) {
    const value = stored[key];
    if (value === undefined) continue;
    const allowed = Allowed[key];
    const ok =
      key === 'conflicts'
        ? validConflicts(value)
        : allowed
          ? allowed.includes(value)
          : typeof value === typeof today[key] && (typeof value !== 'number' || Number.isFinite(value));
    if (ok) target[key] = value;
  }
  return { options, recorded: true };
}

const describe = (i: { name: string; namespace: string; id: string }) =>
  `${i.namespace}/${i.name} (inventory-id ${i.id})`;

/**
 * Why the package as of an earlier commit must not be applied with today's inventory: its inventory info
 * (in its tree, or as its deploy record names it) is another one. Applying it would move the objects to
 * another inventory, or prune today's through an inventory that no longer exists. Undefined when they agree.
 */
export function inventoryDifference(
  today: Pick<InventoryRef, 'name' | 'namespace' | 'id'>,
  then: { inventory?: Pick<InventoryRef, 'name' | 'namespace' | 'id'>; where: string }[],
): string | undefined {
  for (const t of then) {
    if (!t.inventory) continue;
    const same =
      t.inventory.name === today.name &&
      t.inventory.namespace === today.namespace &&
      t.inventory.id === today.id;
    if (!same)
      return (
        `the inventory ${t.where} is ${describe(t.inventory)}, today's is ${describe(today)}: ` +
        "applying it would hand its objects to another inventory. Roll back by hand (kpt-live apply of that commit with today's inventory info)"
      );
  }
  return undefined;
}
