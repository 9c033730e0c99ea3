import type { KubeObject } from '../common/kube-object.js';
import { idKey, type ObjectId } from '../common/object-id.js';
import type { SourceRef } from '../common/source-ref.js';
import type { InventoryEntry, InventoryRef } from '../inventory/inventory-types.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import type { Plan } from '../plan/plan.js';
import type { ObjectWatcher } from '../status/object-watcher.js';
import type { Decision } from './decision.js';
import type { RunEventSink, WaitStatus } from './events.js';
import type { LiveSnapshot } from './live-snapshot.js';
import type { RunOptions } from './run-options.js';
import { type Decided, DecidedOn, type ObjectOutcome } from './run-result.js';
import type { DependencyCause, OwnerInventory } from './skip-reason.js';

/**
 * Everything one run shares between its phases; the engine's only mutable state. The rules:
 * - what the run starts from (client to `previous`) is set once by `newRunState` and never changed;
 * - every other field has one writer, named on it; a field two files write goes through a function here
 *   (`outcomeFor`, `markBlocked`, `recordDeleted`), so the rule between the fields lives in one place;
 * - everyone may read everything. What follows from other fields is derived, never stored: the final
 *   inventory (`finalInventory`), and which ids were abandoned (`isAbandoned`: their outcome says so).
 */
export interface RunState {
  readonly client: ClusterClient;
  readonly options: RunOptions;
  readonly inventory: InventoryRef;
  readonly emit: RunEventSink;
  readonly signal?: AbortSignal;
  /** A dry run: every write is a server-side dry-run or left out; nothing in the cluster changes. */
  readonly dryRun: boolean;
  /** Which objects a dry run asks the server about (the rest are decided locally: `decideLocally`, `unjudged`). */
  readonly ask: AskPolicy;
  readonly plan: Plan;
  /** Package objects by idKey (with the owning-inventory annotation added). */
  readonly manifests: ReadonlyMap<string, KubeObject>;
  readonly sources: ReadonlyMap<string, SourceRef>;
  /** The live objects as the run found them (null: absent), read before the first write. */
  readonly live: LiveSnapshot;
  /** Ids the cluster inventory listed before this run. */
  readonly previous: ReadonlyMap<string, ObjectId>;
  /** What happened to each object. Written through `outcomeFor` by the phase handling the object. */
  outcomes: Map<string, ObjectOutcome>;
  /**
   * Successful applies: the UIDs and generations they returned (for waits and the just-applied prune
   * filter). Writer: apply-wave.ts.
   */
  applied: Map<string, AppliedObject>;
  /**
   * Each object's decision, by idKey: apply objects' (decide-object.ts) and prune or delete objects'
   * (prune-wave.ts), in the order the walk made them. Writer: the dry-run walk; a real run carries out the
   * decisions its pre-flight walk recorded (`planned`) and records the prune decisions it takes.
   */
  decisions: Map<string, Decision>;
  /** The pre-flight's decisions, which a real run carries out (empty for a dry run and for destroy). */
  readonly planned: ReadonlyMap<string, Decision>;
  /** Ids whose DELETE the server accepted. Written through `recordDeleted`. */
  deleted: Set<string>;
  /** Deleted ids the server removed with the DELETE itself (it answered Success): no need to wait for them. Written through `recordDeleted`. */
  gone: Set<string>;
  /** Ids that failed or were skipped, and how: what depends on them is skipped. Written through `markBlocked`. */
  blocked: Map<string, DependencyCause>;
  /** Owning inventories looked up by id (their ResourceGroup), once per run. Writer: owner-lookup.ts. */
  owners: Map<string, Promise<OwnerInventory>>;
  /** Started by the first wait (wait-wave.ts), stopped when the run ends (locked-run.ts). */
  watcher?: ObjectWatcher;
  readonly startedAt: number;
  cancelled(): boolean;
}

/**
 * Which objects a dry run asks the server about: `all` (a preview: every object it can judge; with
 * `exhaustive`, unchanged ones too), `sample` (the pre-flight's `auto`: see `preflightAsks`), `none`.
 */
export type AskPolicy =
  | {
      kind: 'all';
      exhaustive: boolean;
      /**
       * Drift's reading of the ownership rule: a field a co-owner holds with another value is not apply's to
       * change, so it is left at its live value instead of failing the object (see ask-server.ts).
       */
      keepCoOwners?: boolean;
    }
  | { kind: 'sample' }
  | { kind: 'none' };

export interface AppliedObject {
  uid?: string;
  generation?: number;
  touched: boolean;
  hasStatus: boolean;
  /** The object as the apply (or the pre-flight dry-run of an unchanged object) returned it. */
  object?: KubeObject;
}

/** A fresh state for one run. */
export function newRunState(
  base: Pick<
    RunState,
    | 'client'
    | 'options'
    | 'inventory'
    | 'emit'
    | 'signal'
    | 'plan'
    | 'manifests'
    | 'sources'
    | 'live'
    | 'previous'
  > &
    Partial<Pick<RunState, 'dryRun' | 'ask' | 'planned'>>,
  startedAt: number,
): RunState {
  return {
    dryRun: false,
    ask: { kind: 'none' },
    planned: new Map(),
    ...base,
    decisions: new Map(),
    outcomes: new Map(),
    applied: new Map(),
    deleted: new Set(),
    gone: new Set(),
    blocked: new Map(),
    owners: new Map(),
    startedAt,
    cancelled: () => !!base.signal?.aborted,
  };
}

export function outcomeFor(state: RunState, id: ObjectId): ObjectOutcome {
  const key = idKey(id);
  let o = state.outcomes.get(key);
  if (!o) {
    o = { id, action: 'none', source: state.sources.get(key) };
    state.outcomes.set(key, o);
  }
  return o;
}

/** From now on, what depends on this object is skipped, and says why (kpt's DependencyFilter). */
export function markBlocked(state: RunState, id: ObjectId, cause: DependencyCause): void {
  state.blocked.set(idKey(id), cause);
}

/**
 * Forgotten instead of deleted (a keep annotation, a kind alias just applied, a Namespace left in place):
 * the phase that decided it set its outcome's action to `abandoned`.
 */
function isAbandoned(state: RunState, key: string): boolean {
  return state.outcomes.get(key)?.action === 'abandoned';
}

/** A DELETE the server accepted; `gone` when it answered that the object is removed already. */
export function recordDeleted(state: RunState, id: ObjectId, gone: boolean): void {
  state.deleted.add(idKey(id));
  if (gone) state.gone.add(idKey(id));
}

/**
 * The inventory after the run, as cli-utils' inventory-set task computes it: what was there before, minus
 * what was deleted, abandoned or already gone, plus every object applied successfully. New objects that
 * failed or were skipped are not recorded; objects we could not delete stay tracked.
 */
export function finalInventory(state: RunState): InventoryEntry[] {
  const entries = new Map<string, InventoryEntry>();
  for (const [key, id] of state.previous) {
    if (state.deleted.has(key) || isAbandoned(state, key)) continue;
    if (state.live.get(key) === null && !state.manifests.has(key)) continue;
    const o = state.outcomes.get(key);
    const isApply = state.manifests.has(key);
    entries.set(key, {
      id,
      strategy: isApply ? 'Apply' : 'Delete',
      actuation: actuationOf(o),
      reconcile: reconcileOf(o?.reconcile),
    });
  }
  // `applied` holds successful applies only
  for (const key of state.applied.keys()) {
    const o = state.outcomes.get(key)!;
    entries.set(key, {
      id: o.id,
      strategy: 'Apply',
      actuation: 'Succeeded',
      reconcile: reconcileOf(o.reconcile),
    });
  }
  return [...entries.values()];
}

function actuationOf(o: ObjectOutcome | undefined): InventoryEntry['actuation'] {
  if (!o || o.action === 'none') return 'Pending';
  if (o.action === 'failed') return 'Failed';
  if (o.action === 'skipped' || o.action === 'abandoned') return 'Skipped';
  return 'Succeeded';
}

function reconcileOf(w: WaitStatus | undefined): InventoryEntry['reconcile'] {
  switch (w) {
    case 'Successful':
      return 'Succeeded';
    case 'Failed':
      return 'Failed';
    case 'Timeout':
      return 'Timeout';
    case 'Skipped':
      return 'Skipped';
    default:
      return 'Pending';
  }
}

/**
 * The outcomes in the order the walk reached them, each with what the run decided for it and the objects
 * that decision was taken on (the views in src/preview read them).
 */
export function withDecisions(state: RunState): ObjectOutcome[] {
  return [...state.outcomes.values()].map((o) => {
    const key = idKey(o.id);
    const decision = state.decisions.get(key);
    if (!decision) return o;
    const manifest = state.manifests.get(key);
    const decided: Decided = {
      decision,
      ...(manifest ? { manifest } : {}),
      live: state.live.get(key) ?? null,
    };
    return { ...o, [DecidedOn]: decided };
  });
}
