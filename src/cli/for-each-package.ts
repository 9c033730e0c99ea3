import type { Connection } from '../kube/connect.js';
import { forEachAtMost } from '../pipeline/package-concurrency.js';
import { type CliContext, type ExitCode, type OutStream, worstExitCode } from './cli-io.js';
import type { RunFlags } from './options.js';
import { connectCluster } from './package-dir.js';
import { Progress, progressStyle } from './progress.js';

/** What one package's run hands back to the loop over DIRs; it writes through `ctx` and `progress`. */
type PackageRun = (arg: string, progress: Progress, ctx: CliContext) => Promise<ExitCode>;

interface LoopOptions {
  /** `apply` and `destroy`: start no package after one that did not succeed (later ones may depend on it). */
  stopOnFailure: boolean;
  verb: string;
}

/**
 * Runs one command over every DIR with one cluster connection. By default the packages run in order with
 * one progress display; `--package-concurrency N` (N > 1, several DIRs) runs up to N at once, each
 * package's output held and printed whole, in the DIRs' order. `apply` and `destroy` start no package after
 * one that did not succeed; `preview` and `status` report every package. The exit code is the worst seen.
 */
export async function forEachPackage(
  dirs: readonly string[],
  flags: RunFlags,
  ctx: CliContext,
  opts: LoopOptions,
  run: (conn: Connection) => PackageRun,
): Promise<ExitCode> {
  const conn = await connectCluster(flags, ctx);
  try {
    const limit = flags.packageConcurrency ?? 1;
    const one = run(conn);
    return limit > 1 && dirs.length > 1
      ? await concurrently(dirs, limit, flags, ctx, opts, one)
      : await inOrder(dirs, flags, ctx, opts, one);
  } finally {
    conn.client.close();
  }
}

async function inOrder(
  dirs: readonly string[],
  flags: RunFlags,
  ctx: CliContext,
  opts: LoopOptions,
  one: PackageRun,
): Promise<ExitCode> {
  const progress = new Progress(ctx, progressStyle(flags.progress, ctx, flags.output));
  const codes: ExitCode[] = [];
  try {
    for (const [i, arg] of dirs.entries()) {
      if (dirs.length > 1) progress.err(`kpt-live: ${opts.verb} ${arg} (${i + 1}/${dirs.length})\n`);
      const code = await one(arg, progress, ctx);
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
  }
  return worstExitCode(codes);
}

/** One package's stdout and stderr, held in the order written until the package is printed. */
class HeldOutput {
  private readonly chunks: { to: 'stdout' | 'stderr'; text: string }[] = [];

  stream(to: 'stdout' | 'stderr'): OutStream {
    return { write: (text: string) => this.chunks.push({ to, text }), isTTY: false };
  }

  printTo(ctx: CliContext): void {
    for (const c of this.chunks) ctx[c.to].write(c.text);
  }
}

async function concurrently(
  dirs: readonly string[],
  limit: number,
  flags: RunFlags,
  ctx: CliContext,
  opts: LoopOptions,
  one: PackageRun,
): Promise<ExitCode> {
  const held: (HeldOutput | undefined)[] = dirs.map(() => undefined);
  const codes: ExitCode[] = [];
  let printed = 0;
  let failedArg: string | undefined;
  const printReady = () => {
    while (printed < dirs.length && held[printed]) {
      held[printed]?.printTo(ctx);
      printed++;
    }
  };
  ctx.stderr.write(`kpt-live: ${opts.verb} ${dirs.length} packages, up to ${limit} at once\n`);
  const started = new Set<number>();
  await forEachAtMost(
    dirs,
    limit,
    async (arg, i) => {
      started.add(i);
      const out = new HeldOutput();
      const pkgCtx: CliContext = { ...ctx, stdout: out.stream('stdout'), stderr: out.stream('stderr') };
      const progress = new Progress(pkgCtx, progressStyle('never', pkgCtx, flags.output));
      pkgCtx.stderr.write(`kpt-live: ${opts.verb} ${arg} (${i + 1}/${dirs.length})\n`);
      try {
        const code = await one(arg, progress, pkgCtx);
        codes.push(code);
        if (code !== 0 && opts.stopOnFailure) failedArg ??= arg;
      } finally {
        progress.stop();
        held[i] = out;
        printReady();
      }
    },
    () => failedArg !== undefined || !!ctx.signal?.aborted,
  );
  // packages never started leave a gap: print what the later ones wrote, in order
  for (let i = printed; i < dirs.length; i++) held[i]?.printTo(ctx);
  const rest = dirs.filter((_, i) => !started.has(i));
  if (rest.length > 0) {
    const why = ctx.signal?.aborted ? 'interrupted' : `${failedArg} did not succeed`;
    ctx.stderr.write(`kpt-live: ${why}: not starting ${rest.join(', ')}\n`);
  }
  return worstExitCode(codes);
}
