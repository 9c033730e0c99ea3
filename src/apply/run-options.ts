import { Defaults, type InventoryPolicy, type PropagationPolicy } from '../common/constants.js';
import type { UpdateStrategy } from './update-strategy.js';

/** Every setting of an apply, destroy or preview run (names and defaults as ../shared/CONTRACT.md). */
export interface RunOptions {
  fieldManager: string;
  forceConflicts: boolean;
  /** 0 = no limit. */
  reconcileTimeoutMs: number;
  prune: boolean;
  prunePropagationPolicy: PropagationPolicy;
  pruneTimeoutMs: number;
  inventoryPolicy: InventoryPolicy;
  wait: boolean;
  waitForJobs: boolean;
  /** wait-for-controller grace period; 0 = off. */
  waitForControllerMs: number;
  allowEmptyPrune: boolean;
  /** Install the ResourceGroup CRD when it is missing. */
  installResourceGroup: boolean;
  /** Parallel requests within a wave. */
  concurrency: number;
  /** How long to wait for another run of the same package to finish. */
  lockTimeoutMs: number;
  /** How long the lock outlives a run that died without releasing it. */
  lockLeaseSeconds: number;
  /** Stop after the first failed wave instead of applying independent waves (kapp's exit-early-on-apply-error). */
  exitEarly: boolean;
  /**
   * Server-side dry-run every object before the first write, so a rejected object changes nothing (on by
   * default). Off saves one request per object, at the cost of kpt's behaviour: earlier waves stay applied.
   */
  preflight: boolean;
  /** kapp's --apply-default-update-strategy: for objects without a `kapp.k14s.io/update-strategy` annotation. */
  defaultUpdateStrategy: UpdateStrategy;
}

export function defaultRunOptions(overrides: Partial<RunOptions> = {}): RunOptions {
  return {
    fieldManager: Defaults.fieldManager,
    forceConflicts: false,
    reconcileTimeoutMs: Defaults.reconcileTimeoutMs,
    prune: true,
    prunePropagationPolicy: Defaults.prunePropagationPolicy,
    pruneTimeoutMs: Defaults.pruneTimeoutMs,
    inventoryPolicy: Defaults.inventoryPolicy,
    wait: true,
    waitForJobs: false,
    waitForControllerMs: 0,
    allowEmptyPrune: false,
    installResourceGroup: true,
    concurrency: Defaults.applyConcurrency,
    lockTimeoutMs: 10 * 60_000,
    lockLeaseSeconds: 30,
    exitEarly: false,
    defaultUpdateStrategy: '',
    preflight: true,
    ...overrides,
  };
}
