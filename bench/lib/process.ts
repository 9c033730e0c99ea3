import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** Epoch milliseconds with sub-millisecond precision (comparable with the audit log and other processes). */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

export interface TimedRun {
  code: number;
  /** Just before spawn and at the child's `exit` event (epoch ms). */
  startMs: number;
  endMs: number;
  wallMs: number;
  stdout: string;
  /** The last 4 KB of stderr, for failure reports. */
  stderrTail: string;
}

/**
 * Runs one command as its own process and times it from spawn to exit (cold start and shutdown included).
 * A command that outlives `timeoutMs` is killed (by its pid) and reported with code -1.
 */
export function spawnTimed(
  cmd: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<TimedRun> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const startMs = nowMs();
    const child = spawn(cmd, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.length > 1_000_000) stdout = stdout.slice(-500_000);
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString()).slice(-4096);
    });
    const timer = setTimeout(
      () => child.pid && process.kill(child.pid, 'SIGKILL'),
      options.timeoutMs ?? 900_000,
    );
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('exit', (code) => {
      const endMs = nowMs();
      clearTimeout(timer);
      // stdout may still be draining: give it until 'close'
      child.on('close', () =>
        resolve({ code: code ?? -1, startMs, endMs, wallMs: endMs - startMs, stdout, stderrTail: stderr }),
      );
    });
  });
}

/** `/usr/bin/time -v` output → peak RSS in KB. */
export function parseMaxRss(timeOutput: string): number | undefined {
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(timeOutput);
  return m ? Number(m[1]) : undefined;
}

/** `/usr/bin/time -v` output → the command's user + system CPU in ms. */
export function parseCpuMs(timeOutput: string): number | undefined {
  const user = /User time \(seconds\): ([\d.]+)/.exec(timeOutput);
  const system = /System time \(seconds\): ([\d.]+)/.exec(timeOutput);
  return user && system ? Math.round((Number(user[1]) + Number(system[1])) * 1000) : undefined;
}
