import type { Connection } from '../kube/connect.js';
import { type CliContext, type ExitCode, worstExitCode } from './cli-io.js';
import type { RunFlags } from './options.js';
import { connectCluster } from './package-dir.js';
import { Progress, progressStyle } from './progress.js';

/** What one package's run hands back to the loop over DIRs. */
type PackageRun = (arg: string, progress: Progress) => Promise<ExitCode>;

/**
 * Runs one command over every DIR in order with one cluster connection and one progress display.
 * `apply` and `destroy` stop at the first package that fails (later packages may depend on it); `preview`
 * and `status` report every package. The exit code is the worst one seen.
 */
export async function forEachPackage(
  dirs: readonly string[],
  flags: RunFlags,
  ctx: CliContext,
  opts: { stopOnFailure: boolean; verb: string },
  run: (conn: Connection) => PackageRun,
): Promise<ExitCode> {
  const conn = await connectCluster(flags, ctx);
  const progress = new Progress(ctx, progressStyle(flags.progress, ctx, flags.output));
  const codes: ExitCode[] = [];
  try {
    const one = run(conn);
    for (const [i, arg] of dirs.entries()) {
      if (dirs.length > 1) progress.err(`kpt-live: ${opts.verb} ${arg} (${i + 1}/${dirs.length})\n`);
      const code = await one(arg, progress);
      codes.push(code);
      const rest = dirs.slice(i + 1);
      if (ctx.signal?.aborted) {
        if (rest.length > 0) progress.err(`kpt-live: interrupted: not starting ${rest.join(', ')}\n`);
        break;
      }
      if (code !== 0 && opts.stopOnFailure && rest.length > 0) {
        progress.err(`kpt-live: ${arg} did not succeed: not starting ${rest.join(', ')}\n`);
        break;
      }
    }
  } finally {
    progress.stop();
    conn.client.close();
  }
  return worstExitCode(codes);
}
