import { Command, CommanderError, Option } from 'commander';
import { VERSION } from '../common/version.js';
import { connectAhead } from '../kube/connect.js';
import { PackageFailure } from '../package/package-error.js';
import { normaliseBoolFlags } from './bool-flags.js';
import { type CliContext, CliError, type ExitCode, printError } from './cli-io.js';
import { addDriftFlags } from './drift-flags.js';
import { addApplyFlags, addClusterFlags, addDestroyFlags, countArg, type RunFlags } from './options.js';
import { kubeconfigSource } from './package-dir.js';

/** The commands whose first step is the cluster connection (init, migrate and the rest connect later or never). */
const Connecting = new Set(['preview', 'apply', 'destroy', 'status', 'drift', 'rollback']);

const dirsArg = (dirs: string[]) => (dirs.length > 0 ? dirs : ['.']);

function outputOption(choices: string[], fallback: string): Option {
  return new Option('--output <format>', 'output format').choices(choices).default(fallback);
}

const EXIT_CODES = `
Exit codes: 0 success, 1 fatal error (nothing was changed), 2 usage error,
3 objects failed, timed out, or were blocked: skipped for a reason you did not choose (another
inventory owns them, a dependency failed or was skipped; --allow-skipped lets those pass, as kpt does),
4 drift found (drift only).`;

/**
 * The `kpt-live` program: every command, its flags and help. Actions store their exit code through
 * `done`; commander itself never exits the process (exitOverride) and writes through `ctx`.
 */
export function buildProgram(ctx: CliContext, done: (code: ExitCode) => void): Command {
  const program = new Command('kpt-live')
    .description(
      'Preview, apply and destroy kpt packages the way `kpt live` does: waves, server-side apply, ResourceGroup inventory, pruning, reconcile waits.',
    )
    .version(VERSION, '-V, --version', 'print the version of kpt-live')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
      // one line: commander puts "(Did you mean ...?)" on a second one
      outputError: (s, write) => write(`${s.trim().replace(/\s*\n\s*/g, ' ')}\n`),
    })
    .addHelpText('after', EXIT_CODES)
    // the command line is parsed once; a command that connects first starts connecting now, while its
    // implementation (the engine, the reports: a chunk of their own) loads
    .hook('preAction', (_program, command) => {
      if (Connecting.has(command.name())) connectAhead(kubeconfigSource(command.opts(), ctx.cwd));
    });
  const run = (fn: () => Promise<ExitCode>) => fn().then(done);

  addClusterFlags(program.command('init').argument('[DIR...]', 'package directories (default: .)'))
    .description('write resourcegroup.yaml (the inventory) into a package, as `kpt live init` does')
    .option('--name <name>', 'inventory (ResourceGroup) name (default: inventory-<8 random digits>)')
    .option('--inventory-id <id>', 'inventory id (default: sha1 of namespace:name plus a timestamp)')
    .option('--force', 'overwrite existing inventory information')
    .option('--quiet', 'print nothing on success')
    .action((dirs: string[], flags) =>
      run(async () => (await import('./inventory-commands.js')).runInit(dirsArg(dirs), flags, ctx)),
    );

  addApplyFlags(program.command('preview').argument('[DIR...]', 'package directories (default: .)'))
    .description('show what apply would change (server-side dry-run), as text, JSON or the PR comment')
    .addOption(outputOption(['text', 'json', 'markdown'], 'text'))
    .option('--output-file <file>', 'write the output to this file instead of stdout')
    .action((dirs: string[], flags: RunFlags) =>
      run(async () => (await import('./preview-command.js')).runPreview(dirsArg(dirs), flags, ctx)),
    );

  addApplyFlags(program.command('apply').argument('[DIR...]', 'package directories (default: .)'))
    .description('apply packages in dependency waves, wait for reconcile, prune what left them')
    .addOption(outputOption(['events', 'json', 'table'], 'events'))
    .addHelpText('after', EXIT_CODES)
    .action((dirs: string[], flags: RunFlags) =>
      run(async () => (await import('./run-command.js')).runActuation('apply', dirsArg(dirs), flags, ctx)),
    );

  addDestroyFlags(program.command('destroy').argument('[DIR...]', 'package directories (default: .)'))
    .description("delete every object in the packages' inventories, in reverse waves, then the inventory")
    .addOption(outputOption(['events', 'json', 'table'], 'events'))
    .addHelpText('after', EXIT_CODES)
    .action((dirs: string[], flags: RunFlags) =>
      run(async () => (await import('./run-command.js')).runActuation('destroy', dirsArg(dirs), flags, ctx)),
    );

  const rollback = addApplyFlags(
    program.command('rollback').argument('[DIR...]', 'package directories (default: .)'),
  );
  // apply's flags, but a rollback is not itself rolled back, and its dry run prints the preview
  for (const o of rollback.options) {
    if (o.long === '--rollback-on-failure') o.hideHelp();
    if (o.long === '--dry-run')
      o.description = 'print the preview of the rollback (a server-side dry-run), change nothing';
  }
  rollback
    .description(
      'apply each package as an earlier successful deploy applied it (default: the one before the last): its commit from git, its recorded inventory and settings; a preview first',
    )
    .option('--to <commit>', 'the commit of the successful deploy to return to (see `kpt-live history`)')
    .option(
      '--steps <n>',
      'go back this many successful deploys (default 1: the one before the last)',
      countArg,
    )
    .addOption(outputOption(['events', 'json', 'table'], 'events'))
    .addHelpText(
      'after',
      `
The settings the deploy recorded are used (flags you give override them); objects the package at that
commit lacks are kept and listed unless --rollback-prune. --dry-run prints the preview and changes nothing.
${EXIT_CODES}`,
    )
    .action((dirs: string[], flags: RunFlags, cmd: Command) =>
      run(async () =>
        (await import('./rollback-command.js')).runRollbackCommand(dirsArg(dirs), flags, ctx, (name) =>
          cmd.getOptionValueSource(name),
        ),
      ),
    );

  addClusterFlags(program.command('status').argument('[DIR...]', 'package directories (default: .)'))
    .description("print the status of every object in the packages' inventories, as `kpt live status`")
    .addOption(outputOption(['events', 'json', 'table'], 'events'))
    .option('--wait-for-jobs', 'a Job is Current only once it completed')
    .action((dirs: string[], flags: RunFlags) =>
      run(async () => (await import('./status-command.js')).runStatus(dirsArg(dirs), flags, ctx)),
    );

  addDriftFlags(program.command('drift').argument('[DIR...]', 'package directories (default: .)'))
    .description(
      'check, read-only, that the cluster still matches the packages: changed, missing, extra or unhealthy objects; --correct re-applies the drifted ones',
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 in sync (--correct: every drifted package corrected), 1 a package could not be checked,\n2 usage error, 3 a correction failed (--correct), 4 drift found (--correct: drift left, a held package\nor status drift only).',
    )
    .action((dirs: string[], flags: RunFlags) =>
      run(async () => (await import('./drift-command.js')).runDrift(dirsArg(dirs), flags, ctx)),
    );

  program
    .command('resolve')
    .argument('[DIR]', 'any directory inside the git repository (default: .)')
    .description('print, as JSON, the deployable packages a git change touched (all of them without --base)')
    .option('--base <ref>', 'the commit the change starts from (e.g. origin/main)')
    .option('--head <ref>', 'the commit the change ends at; the checkout must be at it (default: HEAD)')
    .action((dir: string | undefined, flags) =>
      run(async () => (await import('./resolve-command.js')).runResolve(dir, flags, ctx)),
    );

  addClusterFlags(program.command('install-resource-group'))
    .description("install kpt's ResourceGroup CRD (needs permission to create CRDs)")
    .action((flags) =>
      run(async () => (await import('./inventory-commands.js')).runInstallResourceGroup(flags, ctx)),
    );

  addClusterFlags(program.command('migrate').argument('[DIR...]', 'package directories (default: .)'))
    .description(
      'move packages from the legacy ConfigMap inventory to a ResourceGroup, as `kpt live migrate`',
    )
    .option('--name <name>', 'ResourceGroup name (default: the ConfigMap inventory name)')
    .option('--dry-run', 'print the steps, change nothing')
    .option('--force', 'overwrite an existing resourcegroup.yaml')
    .action((dirs: string[], flags) =>
      run(async () => (await import('./inventory-commands.js')).runMigrate(dirsArg(dirs), flags, ctx)),
    );

  addClusterFlags(program.command('history').argument('[DIR...]', 'package directories (default: .)'))
    .description("list the deploy records kept next to the packages' inventories, newest first")
    .addOption(outputOption(['text', 'json'], 'text'))
    .action((dirs: string[], flags: RunFlags) =>
      run(async () => (await import('./history-command.js')).runHistory(dirsArg(dirs), flags, ctx)),
    );

  return program;
}

/** Which exit code a commander stop means: help asked for is success, anything else a usage error. */
function commanderExit(err: CommanderError): ExitCode {
  if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return 0;
  return 2;
}

/**
 * Runs `kpt-live` with the user's arguments (without `node` and the script) and returns the exit code;
 * never throws. Usage errors are one line on stderr (exit 2); fatal errors one `error:` message without a
 * stack trace (exit 1; set KPT_LIVE_DEBUG=1 for the stack).
 */
export async function main(args: readonly string[], ctx: CliContext): Promise<ExitCode> {
  let code: ExitCode = 0;
  try {
    const program = buildProgram(ctx, (c) => {
      code = c;
    });
    await program.parseAsync(normaliseBoolFlags(args), { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) return commanderExit(err);
    if (err instanceof CliError) {
      printError(ctx, err.message);
      return err.exitCode;
    }
    printError(ctx, err instanceof PackageFailure || err instanceof Error ? err.message : String(err));
    if (ctx.env.KPT_LIVE_DEBUG && err instanceof Error && err.stack) ctx.stderr.write(`${err.stack}\n`);
    return 1;
  }
}
