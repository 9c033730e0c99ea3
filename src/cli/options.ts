import { type Command, InvalidArgumentError, Option } from 'commander';
import {
  defaultRunOptions,
  type RunOptions,
  StatusPolicies,
  type StatusPolicy,
} from '../apply/run-options.js';
import type { UpdateStrategy } from '../apply/update-strategy.js';
import { Defaults, type InventoryPolicy, type PropagationPolicy } from '../common/constants.js';
import { parseDuration } from '../common/duration.js';
import { addConflictFlags, type ConflictFlags, conflictSettingsOf } from './conflict-flags.js';

/** Every flag value the run commands read, as commander hands them over (names in camelCase). */
export interface RunFlags extends ConflictFlags {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  reconcileTimeout?: number;
  pruneTimeout?: number;
  deleteTimeout?: number;
  prunePropagationPolicy?: PropagationPolicy;
  deletePropagationPolicy?: PropagationPolicy;
  inventoryPolicy?: InventoryPolicy;
  fieldManager?: string;
  dryRun?: boolean;
  prune?: boolean;
  allowEmptyPrune?: boolean;
  allowSkipped?: boolean;
  wait?: boolean;
  waitForJobs?: boolean;
  waitForController?: number;
  failFast?: boolean;
  installResourceGroup?: boolean;
  showStatusEvents?: boolean;
  statusPolicy?: StatusPolicy;
  exitEarly?: boolean;
  preflight?: boolean;
  preflightAll?: boolean;
  applyDefaultUpdateStrategy?: UpdateStrategy;
  allowStale?: boolean;
  historyLimit?: number;
  output: string;
  outputFile?: string;
  progress?: ProgressMode;
  /** Packages run at once (several DIRs); 1 runs them in order. */
  packageConcurrency?: number;
  /** apply/destroy: go on with the next packages after one that did not succeed. */
  keepGoing?: boolean;
  /** apply: after a failed apply, apply the package as of the last successful deploy (`on-failure: rollback`). */
  rollbackOnFailure?: boolean;
  /** apply with a rollback, and rollback: prune the objects the package rolled back to lacks. */
  rollbackPrune?: boolean;
  /** drift: re-apply the drifted packages. */
  correct?: boolean;
}

export type ProgressMode = 'auto' | 'always' | 'never';

/** Parses kpt's durations (`2m`, `90s`, `1h30m`, `0`) for commander; a bad value is a usage error. */
export function durationArg(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) {
    throw new InvalidArgumentError(
      `"${value}" is not a duration: use a number with a unit, e.g. 90s, 2m or 1h30m (0 = no limit)`,
    );
  }
  return ms;
}

/** The flags every command that talks to a cluster takes, with kubectl's names. */
export function addClusterFlags(cmd: Command): Command {
  return cmd
    .option(
      '--kubeconfig <path>',
      'kubeconfig file (default: $KUBECONFIG, else ~/.kube/config, else the in-cluster service account)',
    )
    .option('--context <name>', 'kubeconfig context to use (default: the current context)')
    .option(
      '-n, --namespace <namespace>',
      'namespace for objects that name none (default: the context namespace, else "default")',
    )
    .option(
      '--package-concurrency <n>',
      'packages applied or destroyed at once when given several DIRs (default 1: in order, as packages may depend on each other); the read-only commands run at least 8 at once',
      countArg,
      1,
    )
    .option(
      '--keep-going',
      'apply/destroy: go on with the next packages after one that did not succeed (default: they are skipped, exit 3)',
    );
}

/** --no-wait, --wait-for-jobs, --wait-for-controller and --progress: how long a run waits and how it shows it. */
export function addWaitFlags(cmd: Command): Command {
  return cmd
    .option('--no-wait', 'do not wait for objects to reconcile (or to be gone)')
    .option('--wait-for-jobs', 'wait for Jobs to complete (kpt counts a started Job as Current)')
    .option(
      '--wait-for-controller <duration>',
      'treat a custom resource without status as pending this long, until its controller writes status (e.g. 15s; default off)',
      durationArg,
    )
    .addOption(
      new Option('--progress <when>', 'live progress view while waiting: auto (on a terminal), always, never')
        .choices(['auto', 'always', 'never'])
        .default('auto'),
    );
}

/** kpt's accepted-but-no-op flags, so `alias kpt-live='kpt live'` style scripts keep working. */
function addKptCompatFlags(cmd: Command): Command {
  return cmd
    .option('--show-status-events', 'also print "<object> is <Status>: <message>" lines')
    .option('--server-side', 'accepted for kpt compatibility: kpt-live always uses server-side apply')
    .addOption(
      new Option(
        '--status-policy <policy>',
        "all: record every object's result in the ResourceGroup's status; none: leave the status alone",
      )
        .choices(StatusPolicies)
        .default('all'),
    );
}

const propagation = ['Background', 'Foreground', 'Orphan'];
const inventoryPolicies = ['strict', 'adopt', 'force-adopt'];

/** The flags of `apply` and `preview` (the action's settings, with kpt's names and defaults). */
export function addApplyFlags(cmd: Command): Command {
  addClusterFlags(cmd)
    .addOption(
      new Option(
        '--reconcile-timeout <duration>',
        'how long to wait for applied objects to become Current (0 = no limit)',
      )
        .argParser(durationArg)
        .default(Defaults.reconcileTimeoutMs, '5m'),
    )
    .addOption(
      new Option(
        '--prune-timeout <duration>',
        'how long to wait for pruned objects to be gone (0 = no limit)',
      )
        .argParser(durationArg)
        .default(Defaults.pruneTimeoutMs, '5m'),
    )
    .addOption(
      new Option('--prune-propagation-policy <policy>', 'propagation policy for pruning')
        .choices(propagation)
        .default(Defaults.prunePropagationPolicy),
    )
    .addOption(
      new Option('--inventory-policy <policy>', 'what to do with objects another inventory (or none) owns')
        .choices(inventoryPolicies)
        .default(Defaults.inventoryPolicy),
    )
    .option('--field-manager <name>', 'field manager for server-side apply', Defaults.fieldManager);
  addConflictFlags(cmd)
    .option('--dry-run', 'server-side dry-run: print what apply would do as kpt events, change nothing')
    .option('--no-prune', 'do not delete objects that left the package')
    .option('--allow-empty-prune', 'allow an empty package to prune everything its inventory lists')
    .option(
      '--allow-skipped',
      "exit 0 when objects are skipped because another inventory owns them or a dependency failed (kpt's behaviour; default: exit 3)",
    )
    .option('--install-resource-group', 'install the ResourceGroup CRD when it is missing (default)')
    .option('--no-install-resource-group', 'fail instead of installing the ResourceGroup CRD')
    .option(
      '--no-preflight',
      'no server-side dry-run before the first write (kpt: a rejection in a later wave leaves earlier waves applied)',
    )
    .option(
      '--preflight-all',
      "dry-run every object before the first write, the first wave's new ones and those proven unchanged too (one request more each)",
    )
    .option('--exit-early', "stop at the first wave with a failure (kapp's exit-early-on-apply-error)")
    .option(
      '--no-fail-fast',
      'wait for a rollout whose new pods crash-loop or cannot pull their image until the timeout, as kpt does (default: fail it at once, naming the pod and the kubelet\'s reason; per object: annotation kpt-live-action.dev/fail-fast: "false")',
    )
    .addOption(
      new Option(
        '--apply-default-update-strategy <strategy>',
        'update strategy for objects without kapp.k14s.io/update-strategy',
      ).choices(['fallback-on-replace', 'always-replace', 'skip']),
    )
    .option('--allow-stale', 'apply a commit older than the last one applied (the stale-commit guard)')
    .option('--history-limit <n>', 'deploy records kept per package', countArg, 20)
    .option(
      '--rollback-on-failure',
      'when the apply fails after its first write, apply the package as of the last successful deploy (its commit from git, its recorded inventory and settings), then exit 3',
    )
    .option(
      '--rollback-prune',
      'a rollback also prunes the objects the failed deploy added (default: kept, listed, still in the inventory)',
    );
  addWaitFlags(cmd);
  return addKptCompatFlags(cmd);
}

/** A whole number of at least 1, for commander; anything else is a usage error. */
export function countArg(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError(`"${value}" is not a whole number of at least 1`);
  return Number(value);
}

/** The flags of `destroy`: kpt's, plus the prune names for the same settings. */
export function addDestroyFlags(cmd: Command): Command {
  addClusterFlags(cmd)
    .addOption(
      new Option(
        '--prune-timeout <duration>',
        'how long to wait for deleted objects to be gone (0 = no limit)',
      )
        .argParser(durationArg)
        .default(Defaults.pruneTimeoutMs, '5m'),
    )
    .addOption(new Option('--delete-timeout <duration>', 'alias of --prune-timeout').argParser(durationArg))
    .addOption(
      new Option('--prune-propagation-policy <policy>', 'propagation policy for deleting')
        .choices(propagation)
        .default(Defaults.prunePropagationPolicy),
    )
    .addOption(
      new Option('--delete-propagation-policy <policy>', 'alias of --prune-propagation-policy').choices(
        propagation,
      ),
    )
    .addOption(
      new Option('--inventory-policy <policy>', 'what to do with objects another inventory owns')
        .choices(inventoryPolicies)
        .default(Defaults.inventoryPolicy),
    )
    .option(
      '--allow-skipped',
      "exit 0 when objects are not deleted because another inventory owns them (kpt's behaviour; default: exit 3)",
    )
    .option('--dry-run', 'print what destroy would delete, change nothing');
  addWaitFlags(cmd);
  return addKptCompatFlags(cmd);
}

/** The engine's settings from the flags; anything a command does not offer keeps its contract default. */
export function runOptionsFrom(flags: RunFlags): RunOptions {
  const o = defaultRunOptions();
  const conflicts = conflictSettingsOf(flags);
  return {
    ...o,
    fieldManager: flags.fieldManager ?? o.fieldManager,
    forceConflicts: conflicts.mode === 'force',
    conflicts,
    reconcileTimeoutMs: flags.reconcileTimeout ?? o.reconcileTimeoutMs,
    prune: flags.prune ?? o.prune,
    prunePropagationPolicy:
      flags.deletePropagationPolicy ?? flags.prunePropagationPolicy ?? o.prunePropagationPolicy,
    pruneTimeoutMs: flags.deleteTimeout ?? flags.pruneTimeout ?? o.pruneTimeoutMs,
    inventoryPolicy: flags.inventoryPolicy ?? o.inventoryPolicy,
    wait: flags.wait ?? o.wait,
    waitForJobs: flags.waitForJobs ?? o.waitForJobs,
    waitForControllerMs: flags.waitForController ?? o.waitForControllerMs,
    failFast: flags.failFast ?? o.failFast,
    allowEmptyPrune: flags.allowEmptyPrune ?? o.allowEmptyPrune,
    allowSkipped: flags.allowSkipped ?? o.allowSkipped,
    installResourceGroup: flags.installResourceGroup ?? o.installResourceGroup,
    exitEarly: flags.exitEarly ?? o.exitEarly,
    preflight: flags.preflight === false ? 'off' : flags.preflightAll ? 'all' : o.preflight,
    defaultUpdateStrategy: flags.applyDefaultUpdateStrategy ?? o.defaultUpdateStrategy,
    statusPolicy: flags.statusPolicy ?? o.statusPolicy,
  };
}
