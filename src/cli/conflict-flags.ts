import { type Command, Option } from 'commander';
import {
  ConflictModes,
  type ConflictSettings,
  ConflictSettingsError,
  conflictSettingsFrom,
} from '../common/conflict-settings.js';
import { CliError } from './cli-io.js';

/** The conflict flags as commander hands them over. */
export interface ConflictFlags {
  forceConflicts?: boolean;
  conflicts?: string;
  conflictsTake?: string[];
  conflictsKeep?: string[];
}

/** Repeated flag, or a comma-separated list: `--conflicts-take a --conflicts-take b,c`. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',')];
}

/**
 * `--conflicts`, `--conflicts-take`, `--conflicts-keep` (and kpt's `--force-conflicts`): what apply, preview
 * and drift do with a field of the package another field manager holds.
 */
export function addConflictFlags(cmd: Command, forceConflicts = true): Command {
  if (forceConflicts)
    cmd.option('--force-conflicts', 'take over fields another field manager owns (= --conflicts force)');
  return cmd
    .addOption(
      new Option(
        '--conflicts <mode>',
        "fields another manager holds: take-hand-edits (kubectl's imperative edits are reverted; the default), fail, force",
      ).choices(ConflictModes),
    )
    .option(
      '--conflicts-take <manager>',
      'a field manager whose fields the package sets are taken over, as a hand edit (repeat, or a,b)',
      collect,
    )
    .option(
      '--conflicts-keep <manager>',
      "a field manager whose fields stay conflicts, as a controller's (repeat, or a,b)",
      collect,
    );
}

/** The settings from the flags; contradictions are usage errors (exit 2) naming the flags. */
export function conflictSettingsOf(flags: ConflictFlags): ConflictSettings {
  try {
    return conflictSettingsFrom(
      {
        conflicts: flags.conflicts,
        forceConflicts: flags.forceConflicts ?? false,
        take: flags.conflictsTake ?? [],
        keep: flags.conflictsKeep ?? [],
      },
      {
        conflicts: '--conflicts',
        forceConflicts: '--force-conflicts',
        take: '--conflicts-take',
        keep: '--conflicts-keep',
      },
    );
  } catch (err) {
    if (err instanceof ConflictSettingsError) throw new CliError(err.message, 2);
    throw err;
  }
}
