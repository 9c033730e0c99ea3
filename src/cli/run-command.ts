import type { RunEvent } from '../apply/events.js';
import type { Connection } from '../kube/connect.js';
import { type PackageRunResult, runPackage } from '../pipeline/run-package.js';
import { rollbackLine } from '../report/rollback-words.js';
import { type CliContext, printError } from './cli-io.js';
import { forEachPackage } from './for-each-package.js';
import { cliHistory } from './history-command.js';
import { type RunFlags, runOptionsFrom } from './options.js';
import { type EventFormat, eventPrinter, renderAllowedSkips, renderFailures } from './output.js';
import { explainFatal, locatePackage } from './package-dir.js';
import type { Progress } from './progress.js';

/** Notices, the fatal error or the failed objects of one package, on stderr. */
export function reportResult(
  ctx: CliContext,
  progress: Progress,
  result: PackageRunResult,
  conn?: Connection,
): void {
  progress.stop();
  for (const notice of result.notices) ctx.stderr.write(`note: ${notice}\n`);
  if (result.exitCode === 1 && result.error) printError(ctx, explainFatal(result.error, conn?.access));
  // a dry run the pre-flight would refuse exits 1 with no fatal error: its objects say why
  if ((result.exitCode === 3 || (result.exitCode === 1 && !result.error)) && result.run)
    ctx.stderr.write(renderFailures(result.run.objects));
  if (result.exitCode === 0 && result.run) ctx.stderr.write(renderAllowedSkips(result.run.objects));
  if (result.rollback) {
    const automatic = result.mode !== 'rollback';
    for (const notice of result.rollback.notices) ctx.stderr.write(`note: ${notice}\n`);
    const rollback = result.rollback.run;
    if (automatic && rollback && rollback.outcome !== 'success') {
      if (rollback.error) printError(ctx, `rollback: ${rollback.error}`);
      ctx.stderr.write(renderFailures(rollback.objects).replace(/^error: /, 'error: rollback: '));
    }
    const words = rollbackLine(result.rollback, { automatic, package: result.path });
    ctx.stderr.write(`kpt-live: ${result.path}: ${words}\n`);
  }
}

/** `kpt-live apply|destroy DIR...`: the engine's events printed as kpt prints them, live. */
export function runActuation(
  mode: 'apply' | 'destroy',
  dirs: readonly string[],
  flags: RunFlags,
  ctx: CliContext,
) {
  const options = runOptionsFrom(flags);
  const format = flags.output as EventFormat;
  return forEachPackage(
    dirs,
    flags,
    ctx,
    { mode, verb: mode === 'apply' ? 'applying' : 'destroying' },
    (conn) => async (arg, progress, ctx) => {
      const loc = locatePackage(arg, ctx.cwd);
      const newPrinter = () =>
        eventPrinter(format, (t) => progress.out(t), {
          showStatusEvents: flags.showStatusEvents,
          live: format === 'table' && !!ctx.stdout.isTTY,
        });
      let printer = newPrinter();
      const emit = (e: RunEvent) => {
        printer.event(e);
        progress.event(e);
      };
      // a dry run is the same walk with every write a server-side dry-run (apply) or left out (destroy)
      if (flags.dryRun && format === 'events') progress.out('Dry-run strategy: server\n');
      const result = await runPackage(
        conn.client,
        loc.dir,
        mode === 'apply' && flags.dryRun ? 'preview' : mode,
        {
          repoRoot: loc.root,
          defaultNamespace: flags.namespace ?? conn.access.namespace,
          options,
          dryRun: flags.dryRun,
          history: flags.dryRun ? undefined : cliHistory(loc.root, flags),
          signal: ctx.signal,
          emit,
          onProgress: (line) => progress.line(line),
          onFailure:
            mode === 'apply' && !flags.dryRun
              ? { rollback: !!flags.rollbackOnFailure, prune: !!flags.rollbackPrune }
              : undefined,
          // the failed apply's events end with its own summary; the rollback's are printed as a run of their own
          rollbackEvents: (to) => {
            printer.finish();
            progress.err(
              `kpt-live: the apply failed: rolling back to ${to.slice(0, 7)}, the last successful deploy\n`,
            );
            printer = newPrinter();
            return emit;
          },
        },
      );
      progress.stop();
      printer.finish();
      reportResult(ctx, progress, result, conn);
      return result.exitCode;
    },
  );
}
