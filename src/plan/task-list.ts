import type { ObjectId } from '../common/object-id.js';
import type { Plan } from './plan.js';

/** What a task does: kpt's action groups. */
export type TaskAction = 'Inventory' | 'Apply' | 'Prune' | 'Delete' | 'Wait';

/** One named task of a run (kpt's task names: `inventory-add-0`, `apply-0`, `wait-0`, `prune-0`, ...). */
export interface Task {
  name: string;
  action: TaskAction;
  ids: ObjectId[];
}

/** A wave's write task and the wait that follows it. */
export interface WaveTasks {
  act: Task;
  wait: Task;
}

/**
 * The named task list a plan yields, walked by apply, destroy, preview (`--dry-run`) and the live table:
 * apply: inventory, apply waves with waits, prune waves with waits, final inventory;
 * destroy: delete waves with waits, then the inventory.
 */
export interface TaskList {
  /** The inventory write before the first object (apply only). */
  first?: Task;
  applyWaves: WaveTasks[];
  /** Prune waves (apply) or delete waves (destroy). */
  deleteWaves: WaveTasks[];
  /** The final inventory write (apply), or its deletion (destroy). */
  last: Task;
  /** Every task in the order they run. */
  tasks: Task[];
}

/** The one place task names are made. */
export const taskName = {
  inventoryAdd: 'inventory-add-0',
  inventorySet: 'inventory-set-0',
  inventoryDelete: 'inventory-delete-or-update-0',
  apply: (i: number) => `apply-${i}`,
  prune: (j: number) => `prune-${j}`,
  delete: (j: number) => `delete-${j}`,
  wait: (i: number) => `wait-${i}`,
};

export function taskList(plan: Plan, options: { prune: boolean }): TaskList {
  const wave = (action: TaskAction, name: string, ids: ObjectId[]): Task => ({ name, action, ids });
  if (plan.destroy) {
    const deleteWaves = plan.pruneWaves.map((ids, i) => ({
      act: wave('Delete', taskName.delete(i), ids),
      wait: wave('Wait', taskName.wait(i), ids),
    }));
    const last = wave('Inventory', taskName.inventoryDelete, []);
    return { applyWaves: [], deleteWaves, last, tasks: [...flat(deleteWaves), last] };
  }
  const applyWaves = plan.applyWaves.map((ids, i) => ({
    act: wave('Apply', taskName.apply(i), ids),
    wait: wave('Wait', taskName.wait(i), ids),
  }));
  const base = plan.applyWaves.length;
  const deleteWaves = options.prune
    ? plan.pruneWaves.map((ids, j) => ({
        act: wave('Prune', taskName.prune(j), ids),
        wait: wave('Wait', taskName.wait(base + j), ids),
      }))
    : [];
  const first = wave('Inventory', taskName.inventoryAdd, []);
  const last = wave('Inventory', taskName.inventorySet, []);
  return {
    first,
    applyWaves,
    deleteWaves,
    last,
    tasks: [first, ...flat(applyWaves), ...flat(deleteWaves), last],
  };
}

const flat = (waves: WaveTasks[]) => waves.flatMap((w) => [w.act, w.wait]);
