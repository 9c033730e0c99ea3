import { type Command, Option } from 'commander';
import { Defaults } from '../common/constants.js';
import { type DriftRunResult, runDriftPackage } from '../pipeline/drift-package.js';
import { driftDocument, driftPackageJson } from '../report/drift-json.js';
import { renderDriftText } from '../report/drift-text.js';
import { type CliContext, type ExitCode, printError } from './cli-io.js';
import { addConflictFlags } from './conflict-flags.js';
import { forEachPackage } from './for-each-package.js';
import { addClusterFlags, durationArg, type RunFlags, runOptionsFrom } from './options.js';
import { explainFatal, locatePackage } from './package-dir.js';

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
    .addOption(new Option('--output <format>', 'output format').choices(['text', 'json']).default('text'));
  // the rule for fields other managers hold is apply's: a hand edit is drift, a co-owner's field is not
  return addConflictFlags(cmd, false);
}

/**
 * `kpt-live drift DIR...`: whether the cluster still matches each package, read-only (server-side
 * dry-runs and reads; no lock, no history). Exit 0 in sync, 4 drift found, 1 when a package could not be
 * checked (never applied, forbidden, a dry-run refused).
 */
export async function runDrift(dirs: readonly string[], flags: RunFlags, ctx: CliContext): Promise<ExitCode> {
  const options = runOptionsFrom(flags);
  const json = flags.output === 'json';
  const byDir = new Map<string, DriftRunResult>();
  const code = await forEachPackage(
    dirs,
    { ...flags, progress: 'never' },
    ctx,
    { mode: 'drift', verb: 'checking' },
    (conn) => async (arg, progress, ctx) => {
      const loc = locatePackage(arg, ctx.cwd);
      const result = await runDriftPackage(conn.client, loc.dir, {
        repoRoot: loc.root,
        defaultNamespace: flags.namespace ?? conn.access.namespace,
        options,
        previewContext: { cluster: conn.access.clusterName },
        signal: ctx.signal,
        onProgress: (line) => progress.line(line),
      });
      if (loc.root !== ctx.cwd) result.path = arg;
      byDir.set(arg, result);
      for (const notice of result.notices) ctx.stderr.write(`note: ${notice}\n`);
      if (result.error) printError(ctx, `${arg}: ${explainFatal(result.error, conn.access)}`);
      if (!json) {
        progress.out(
          renderDriftText(driftPackageJson(result), {
            preview: result.preview,
            namespace: result.prepared?.inventory.namespace,
          }),
        );
      }
      return result.exitCode;
    },
  );
  // in the DIRs' order, however many ran at once
  const results = dirs.flatMap((d) => byDir.get(d) ?? []);
  if (json) ctx.stdout.write(`${JSON.stringify(driftDocument(results), null, 2)}\n`);
  return code;
}
