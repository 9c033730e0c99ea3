import { type Command, Option } from 'commander';
import { Defaults } from '../common/constants.js';
import { addConflictFlags } from './conflict-flags.js';
import { addClusterFlags, countArg, durationArg } from './options.js';

const propagation = ['Background', 'Foreground', 'Orphan'];

/** The flags of `drift`: what decides the preview (field manager, inventory policy, prune) and health. */
export function addDriftFlags(cmd: Command): Command {
  addClusterFlags(cmd)
    .addOption(
      new Option(
        '--reconcile-timeout <duration>',
        'how long an object still reconciling gets to become Current before it counts as drift (0 = no limit)',
      )
        .argParser(durationArg)
        .default(Defaults.reconcileTimeoutMs, '5m'),
    )
    .option('--field-manager <name>', 'field manager the package is applied with', Defaults.fieldManager)
    .addOption(
      new Option('--inventory-policy <policy>', 'the inventory policy the package is applied with')
        .choices(['strict', 'adopt', 'force-adopt'])
        .default(Defaults.inventoryPolicy),
    )
    .option('--no-prune', 'the package is applied without pruning: objects that left it are not drift')
    .option('--wait-for-jobs', 'a Job is Current only once it completed')
    .addOption(new Option('--output <format>', 'output format').choices(['text', 'json']).default('text'))
    .option(
      '--correct',
      're-apply each drifted package (a normal apply: lock, deploy history, pre-flight), one at a time; not a package whose last apply of its current tree failed (held) nor one with status drift only',
    )
    // how the correction applies, as `apply` takes them
    .addOption(
      new Option('--prune-timeout <duration>', '--correct: how long to wait for pruned objects to be gone')
        .argParser(durationArg)
        .default(Defaults.pruneTimeoutMs, '5m'),
    )
    .addOption(
      new Option('--prune-propagation-policy <policy>', '--correct: propagation policy for pruning')
        .choices(propagation)
        .default(Defaults.prunePropagationPolicy),
    )
    .option('--no-wait', '--correct: do not wait for re-applied objects to reconcile')
    .option('--no-fail-fast', '--correct: wait for a failing rollout until the timeout, as kpt does')
    .option('--allow-stale', '--correct: re-apply even a commit older than the last one applied')
    .option('--history-limit <n>', '--correct: deploy records kept per package', countArg, 20);
  // the rule for fields other managers hold is apply's: a hand edit is drift, a co-owner's field is not
  return addConflictFlags(cmd, false);
}
