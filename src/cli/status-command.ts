import { runPackage } from '../pipeline/run-package.js';
import type { CliContext, ExitCode } from './cli-io.js';
import { forEachPackage } from './for-each-package.js';
import { type RunFlags, runOptionsFrom } from './options.js';
import { type EventFormat, renderStatus } from './output.js';
import { locatePackage } from './package-dir.js';
import { reportResult } from './run-command.js';

/**
 * `kpt-live status DIR...`: the kstatus of every object the package's inventory lists, as
 * `kpt live status` prints it. Exit 3 when an object is Failed.
 */
export async function runStatus(
  dirs: readonly string[],
  flags: RunFlags,
  ctx: CliContext,
): Promise<ExitCode> {
  const options = runOptionsFrom(flags);
  return forEachPackage(
    dirs,
    { ...flags, progress: 'never' },
    ctx,
    { mode: 'status', verb: 'reading' },
    (conn) => async (arg, progress, ctx) => {
      const loc = locatePackage(arg, ctx.cwd);
      const result = await runPackage(conn.client, loc.dir, 'status', {
        repoRoot: loc.root,
        defaultNamespace: flags.namespace ?? conn.access.namespace,
        options,
      });
      if (result.status && result.prepared) {
        progress.out(
          renderStatus(flags.output as EventFormat, result.prepared.inventory.name, result.status),
        );
      }
      reportResult(ctx, progress, result, conn);
      return result.exitCode;
    },
  );
}
