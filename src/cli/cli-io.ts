/** Where the CLI writes and what it knows about its terminal; tests pass collectors instead of process streams. */
export interface OutStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliContext {
  stdout: OutStream;
  stderr: OutStream;
  /** Package paths, kubeconfig paths and --output-file are relative to it. */
  cwd: string;
  env: Record<string, string | undefined>;
  /** Aborted on SIGINT/SIGTERM: the engine stops starting work and saves the inventory. */
  signal?: AbortSignal;
}

/** The contract's exit codes: 0 ok, 1 fatal error, 2 usage error, 3 objects failed or timed out, 4 drift found. */
export type ExitCode = 0 | 1 | 2 | 3 | 4;

/**
 * A failure the CLI reports as one `error: ...` line (no stack trace) and turns into an exit code: usage
 * problems found after parsing (2) and fatal problems (1).
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The most severe of several exit codes: a fatal error (1) outranks failed objects (3), then drift (4). */
export function worstExitCode(codes: readonly ExitCode[]): ExitCode {
  if (codes.includes(2)) return 2;
  if (codes.includes(1)) return 1;
  if (codes.includes(3)) return 3;
  if (codes.includes(4)) return 4;
  return 0;
}

/** Prints an error (possibly several lines, e.g. every package problem) with kubectl's `error: ` prefix. */
export function printError(ctx: CliContext, message: string): void {
  ctx.stderr.write(`error: ${message.trimEnd()}\n`);
}
