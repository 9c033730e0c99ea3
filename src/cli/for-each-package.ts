import type { Connection } from '../kube/connect.js';
import { PackageLoop, packagesAtOnce } from '../pipeline/package-concurrency.js';
import { type CliContext, type ExitCode, type OutStream, worstExitCode } from './cli-io.js';
import type { RunFlags } from './options.js';
import { connectCluster } from './package-dir.js';
import { Progress, progressStyle } from './progress.js';

/** What one package's run hands back to the loop over DIRs; it writes through `ctx` and `progress`. */
type PackageRun = (arg: string, progress: Progress, ctx: CliContext) => Promise<ExitCode>;

interface LoopOptions {
  /** The command, for the package loop's rule (src/pipeline/package-concurrency.ts). */
  mode: string;
  verb: string;
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

/**
 * Runs one command over every DIR with one cluster connection, by the package loop's rule (the action's
 * too): apply and destroy one at a time (`--package-concurrency N` for more) and none after one that did not
 * succeed unless `--keep-going` (those are reported skipped, exit 3); the read-only commands several at once,
 * every package reported. One package at a time prints as it goes, with the progress display; several at
 * once hold each package's output and print it whole, in the DIRs' order. The exit code is the worst seen.
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
    return await loopPackages(dirs, flags, ctx, opts, run(conn));
  } finally {
    conn.client.close();
  }
}

/** forEachPackage's loop, on a connection the caller holds (so a command may loop twice on one). */
export async function loopPackages(
  dirs: readonly string[],
  flags: RunFlags,
  ctx: CliContext,
  opts: LoopOptions,
  one: PackageRun,
): Promise<ExitCode> {
  const rule = {
    mode: opts.mode,
    packageConcurrency: flags.packageConcurrency ?? 1,
    keepGoing: !!flags.keepGoing,
    signal: ctx.signal,
  };
  const atOnce = Math.min(packagesAtOnce(rule.mode, rule.packageConcurrency), dirs.length);
  const held = atOnce > 1;
  const shared = held ? undefined : new Progress(ctx, progressStyle(flags.progress, ctx, flags.output));
  const outputs: (HeldOutput | undefined)[] = dirs.map(() => undefined);
  let printed = 0;
  const printReady = () => {
    while (printed < dirs.length && outputs[printed]) outputs[printed++]?.printTo(ctx);
  };
  if (held) ctx.stderr.write(`kpt-live: ${opts.verb} ${dirs.length} packages, up to ${atOnce} at once\n`);
  try {
    const runOne = async (arg: string, i: number): Promise<ExitCode> => {
      const out = held ? new HeldOutput() : undefined;
      const pkgCtx: CliContext = out
        ? { ...ctx, stdout: out.stream('stdout'), stderr: out.stream('stderr') }
        : ctx;
      const progress = shared ?? new Progress(pkgCtx, progressStyle('never', pkgCtx, flags.output));
      if (dirs.length > 1) progress.err(`kpt-live: ${opts.verb} ${arg} (${i + 1}/${dirs.length})\n`);
      try {
        return await one(arg, progress, pkgCtx);
      } finally {
        if (out) {
          progress.stop();
          outputs[i] = out;
          printReady();
        }
      }
    };
    const codes: ExitCode[] = dirs.map(() => 3);
    const loop = new PackageLoop(dirs, rule, (arg) => arg);
    await Promise.all(
      loop.lanes().map(async () => {
        for (let next = loop.take(); next; next = loop.take()) {
          codes[next.index] = await runOne(next.item, next.index);
          loop.finished(next, codes[next.index] === 0);
        }
      }),
    );
    for (const o of outputs.slice(printed)) o?.printTo(ctx);
    const skipped = loop.skipped();
    if (skipped.length > 0) {
      const why = skipped[0]?.skipped ?? '';
      ctx.stderr.write(`kpt-live: ${why}: not starting ${skipped.map((e) => e.item).join(', ')}\n`);
    }
    return worstExitCode(codes);
  } finally {
    shared?.stop();
  }
}
