import type { RunEvent } from '../apply/events.js';
import { exitCodeOf } from '../common/run-outcome.js';
import type { Connection } from '../kube/connect.js';
import { formatPackageError, readInventoryInfo } from '../package/index.js';
import { type PackageRunResult, runPackage } from '../pipeline/run-package.js';
import { collectSecretValues } from '../preview/redact.js';
import { outcomeOf } from '../report/event-stats.js';
import { type CliContext, printError } from './cli-io.js';
import { destroyPreviewEvents, previewEvents } from './dry-run.js';
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
  if (result.exitCode === 3 && result.run) ctx.stderr.write(renderFailures(result.run.objects));
  if (result.exitCode === 0 && result.run) ctx.stderr.write(renderAllowedSkips(result.run.objects));
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
    { stopOnFailure: true, verb: mode === 'apply' ? 'applying' : 'destroying' },
    (conn) => async (arg, progress, ctx) => {
      const loc = locatePackage(arg, ctx.cwd);
      const secretValues: string[] = [];
      const printer = eventPrinter(format, (t) => progress.out(t), {
        showStatusEvents: flags.showStatusEvents,
        secretValues,
        live: format === 'table' && !!ctx.stdout.isTTY,
      });
      const defaultNamespace = flags.namespace ?? conn.access.namespace;
      if (flags.dryRun) {
        if (format === 'events') progress.out('Dry-run strategy: server\n');
        let events: RunEvent[];
        if (mode === 'apply') {
          const result = await runPackage(conn.client, loc.dir, 'preview', {
            repoRoot: loc.root,
            defaultNamespace,
            options,
          });
          if (!result.preview) {
            reportResult(ctx, progress, result, conn);
            return 1;
          }
          events = previewEvents(result.preview);
        } else {
          const info = await readInventoryInfo(loc.dir, { repoRoot: loc.root });
          if (!info.inventory || info.errors.length > 0) {
            printError(
              ctx,
              info.errors.map(formatPackageError).join('\n') || `${arg}: no inventory information`,
            );
            return 1;
          }
          events = await destroyPreviewEvents(conn.client, info.inventory);
        }
        for (const e of events) printer.event(e);
        printer.finish();
        return exitCodeOf(outcomeOf(printer.stats));
      }
      const result = await runPackage(conn.client, loc.dir, mode, {
        repoRoot: loc.root,
        defaultNamespace,
        options,
        history: cliHistory(loc.root, flags),
        signal: ctx.signal,
        emit: (e) => {
          printer.event(e);
          progress.event(e);
        },
        onProgress: (line) => progress.line(line),
        onPrepared: (prepared) =>
          secretValues.push(...collectSecretValues(prepared.objects.map((o) => o.object))),
      });
      progress.stop();
      printer.finish();
      reportResult(ctx, progress, result, conn);
      return result.exitCode;
    },
  );
}
