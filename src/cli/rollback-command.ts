import type { RunEvent } from '../apply/events.js';
import type { RunOptions } from '../apply/run-options.js';
import { runRollback } from '../pipeline/rollback-package.js';
import { renderPreviewText } from '../report/preview-text.js';
import { rollbackPlanLine } from '../report/rollback-words.js';
import { type CliContext, CliError, type ExitCode } from './cli-io.js';
import { forEachPackage } from './for-each-package.js';
import { cliHistory } from './history-command.js';
import { type RunFlags, runOptionsFrom } from './options.js';
import { type EventFormat, eventPrinter } from './output.js';
import { locatePackage } from './package-dir.js';
import { reportResult } from './run-command.js';

export interface RollbackFlags extends RunFlags {
  to?: string;
  steps?: number;
}

/** Where commander says a flag's value came from (`cli` when the user gave it). */
export type FlagSource = (flag: string) => string | undefined;

/**
 * The settings the user gave on the command line: a rollback applies the deploy's recorded settings, and
 * these win over them. A setting counts as given when leaving its flags out would change it.
 */
export function explicitOptions(flags: RunFlags, source: FlagSource): Partial<RunOptions> {
  const withoutGiven = Object.fromEntries(
    Object.entries(flags).filter(([name]) => source(name) !== 'cli'),
  ) as unknown as RunFlags;
  const given = runOptionsFrom(flags);
  const unset = runOptionsFrom(withoutGiven);
  const explicit: Record<string, unknown> = {};
  for (const key of Object.keys(given) as (keyof RunOptions)[])
    if (JSON.stringify(given[key]) !== JSON.stringify(unset[key])) explicit[key] = given[key];
  return explicit as Partial<RunOptions>;
}

/**
 * `kpt-live rollback DIR... [--to COMMIT | --steps N] [--dry-run]`: applies each package as an earlier
 * successful deploy applied it (default: the one before the last), with the settings recorded with it.
 * First the preview (a dry-run walk: stdout with --dry-run, which changes nothing; else stderr), then the
 * apply's events on stdout, as `apply` prints them. The stale-commit guard does not apply.
 */
export async function runRollbackCommand(
  dirs: readonly string[],
  flags: RollbackFlags,
  ctx: CliContext,
  source: FlagSource,
): Promise<ExitCode> {
  if (flags.to !== undefined && flags.steps !== undefined)
    throw new CliError('--to and --steps both choose the deploy to return to: give one of them', 2);
  const options = runOptionsFrom(flags);
  const explicit = explicitOptions(flags, source);
  const format = flags.output as EventFormat;
  return forEachPackage(
    dirs,
    flags,
    ctx,
    { mode: 'rollback', verb: 'rolling back' },
    (conn) => async (arg, progress, ctx) => {
      const loc = locatePackage(arg, ctx.cwd);
      const printer = eventPrinter(format, (t) => progress.out(t), {
        showStatusEvents: flags.showStatusEvents,
        live: format === 'table' && !!ctx.stdout.isTTY,
      });
      const result = await runRollback(conn.client, loc.dir, {
        repoRoot: loc.root,
        defaultNamespace: flags.namespace ?? conn.access.namespace,
        options,
        explicit,
        prune: !!flags.rollbackPrune,
        to: flags.to,
        steps: flags.steps,
        dryRun: !!flags.dryRun,
        history: cliHistory(loc.root, flags),
        signal: ctx.signal,
        previewContext: { cluster: conn.access.clusterName },
        onPreview: (doc, report) => {
          const text = renderPreviewText(doc);
          const heading = `Rollback of ${doc.package} to ${report.to?.slice(0, 7)}${report.of ? ` (last deployed: ${report.of.slice(0, 7)})` : ''}\n`;
          if (!flags.dryRun) progress.err(`${heading}${text}\n`);
          else if (format === 'json') progress.out(`${JSON.stringify(doc, null, 2)}\n`);
          else progress.out(`${heading}${text}`);
        },
        emit: (e: RunEvent) => {
          printer.event(e);
          progress.event(e);
        },
        onProgress: (line) => progress.line(line),
      });
      progress.stop();
      if (!flags.dryRun) printer.finish();
      if (flags.dryRun && result.rollback?.preview) {
        const plan = rollbackPlanLine(result.rollback, { automatic: false, package: result.path });
        progress.err(`kpt-live: dry run, nothing was changed: ${plan}\n`);
      }
      reportResult(ctx, progress, flags.dryRun ? { ...result, rollback: undefined } : result, conn);
      return result.exitCode;
    },
  );
}
