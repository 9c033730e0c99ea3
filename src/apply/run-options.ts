import { type ConflictSettings, DefaultConflictSettings } from '../common/conflict-settings.js';
import { Defaults, type InventoryPolicy, type PropagationPolicy } from '../common/constants.js';
import type { UpdateStrategy } from './update-strategy.js';

/** Every setting of an apply, destroy or preview run (names and defaults as the README's inputs table). */
export interface RunOptions {
  fieldManager: string;
  /** Take every field another manager holds (`conflicts: force` sets it too). */
  forceConflicts: boolean;
  /**
   * What apply does with a field of the package another field manager holds with another value: `conflicts`
   * (take-hand-edits, fail, force), `conflicts-take`, `conflicts-keep`; per object, the annotation
   * kpt-live-action.dev/conflicts overrides it (objectConflictSettings).
   */
  conflicts: ConflictSettings;
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
  /**
   * Fail a rollout whose new pods cannot succeed (crash loop, missing image, ...) as soon as that is known,
   * naming the pod and the kubelet's reason, instead of waiting for the timeout. Default true; false is kpt's
   * wait. Per object: annotation `kpt-live-action.dev/fail-fast: "false"`.
   */
  failFast: boolean;
  allowEmptyPrune: boolean;
  /**
   * Let objects skipped for a reason the user did not choose (another inventory owns them, a dependency
   * failed or was skipped) pass, as kpt does (exit 0). Default false: they fail the run (exit 3).
   */
  allowSkipped: boolean;
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
   * Server-side dry-runs before the first write, so a rejected object stops the run with nothing changed.
   * `all`: every object. `auto` (default): every object that exists (its dry-run also tells an unchanged
   * object, which then needs no write) and every object of the later waves, but only one new object per
   * kind and namespace of the first wave (permissions, namespace, admission): the rest of the first wave's
   * new objects are judged by their own write, as kpt and kubectl do, saving one request each; one rejected
   * there fails (exit 3, file and line) after its valid siblings were applied, and nothing that depends on it
   * is. `off`: none (kpt: a rejection in a later wave leaves earlier waves applied).
   */
  preflight: PreflightMode;
  /** kapp's --apply-default-update-strategy: for objects without a `kapp.k14s.io/update-strategy` annotation. */
  defaultUpdateStrategy: UpdateStrategy;
  /**
   * kpt's --status-policy. `all` (default): the ResourceGroup's `status.resourceStatuses` records every
   * object's strategy, actuation and reconcile result at the end of an apply or destroy. `none`: the status is
   * neither written nor cleared (it may belong to another controller, e.g. Config Sync's resource-group
   * controller), which saves the API server the largest write of a run.
   */
  statusPolicy: StatusPolicy;
}

export const StatusPolicies = ['all', 'none'] as const;
export type StatusPolicy = (typeof StatusPolicies)[number];

export const PreflightModes = ['auto', 'all', 'off'] as const;
export type PreflightMode = (typeof PreflightModes)[number];

export function defaultRunOptions(overrides: Partial<RunOptions> = {}): RunOptions {
  return {
    fieldManager: Defaults.fieldManager,
    forceConflicts: false,
    conflicts: DefaultConflictSettings,
    reconcileTimeoutMs: Defaults.reconcileTimeoutMs,
    prune: true,
    prunePropagationPolicy: Defaults.prunePropagationPolicy,
    pruneTimeoutMs: Defaults.pruneTimeoutMs,
    inventoryPolicy: Defaults.inventoryPolicy,
    wait: true,
    waitForJobs: false,
    waitForControllerMs: 0,
    failFast: true,
    allowEmptyPrune: false,
    allowSkipped: false,
    installResourceGroup: true,
    concurrency: Defaults.applyConcurrency,
    lockTimeoutMs: 10 * 60_000,
    lockLeaseSeconds: 30,
    exitEarly: false,
    defaultUpdateStrategy: '',
    preflight: 'auto',
    statusPolicy: 'all',
    ...overrides,
  };
}
