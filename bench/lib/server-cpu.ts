import fs from 'node:fs';
import path from 'node:path';

/** CPU (user + system) the control plane's processes have used so far, in ms, from /proc (Linux only). */
export interface ServerCpu {
  apiserverMs: number;
  etcdMs: number;
}

const clockTick = 100; // USER_HZ on Linux: /proc/<pid>/stat counts CPU time in 1/100 s

/**
 * The kube-apiserver and etcd of the control plane whose files live in `dir` (its kubeconfig's directory): the
 * processes whose command line names that directory. Undefined where /proc is not there to read.
 */
export function serverCpu(dir: string): ServerCpu | undefined {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return undefined;
  }
  const cpu: ServerCpu = { apiserverMs: 0, etcdMs: 0 };
  for (const pid of pids) {
    let cmdline: string;
    let stat: string;
    try {
      cmdline = fs.readFileSync(path.join('/proc', pid, 'cmdline'), 'utf8');
      if (!cmdline.includes(dir)) continue;
      stat = fs.readFileSync(path.join('/proc', pid, 'stat'), 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const exe = path.basename(cmdline.split('\0')[0]);
    // fields after the parenthesised command name: utime and stime are the 12th and 13th of them
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTick;
    if (exe === 'kube-apiserver') cpu.apiserverMs += ms;
    else if (exe === 'etcd') cpu.etcdMs += ms;
  }
  return cpu;
}

/**
 * Waits until the control plane is idle again: a window of `windowMs` in which kube-apiserver and etcd together
 * used at most `busyPercent` of one core, or `maxMs` at most. A run that follows a heavy one (kubectl's and kpt's
 * thousands of requests, a namespace of a thousand objects deleted) otherwise starts while the server is still
 * collecting garbage and answering watches, and which tool follows which then decides part of its time.
 * Returns how long it waited (undefined where /proc is not there to read).
 */
export async function waitForQuietServer(
  dir: string,
  options: { windowMs?: number; busyPercent?: number; maxMs?: number } = {},
): Promise<number | undefined> {
  const windowMs = options.windowMs ?? 500;
  const busy = ((options.busyPercent ?? 10) / 100) * windowMs;
  const maxMs = options.maxMs ?? 20_000;
  const start = Date.now();
  const total = (c: ServerCpu) => c.apiserverMs + c.etcdMs;
  for (;;) {
    const before = serverCpu(dir);
    if (!before) return undefined;
    await new Promise((r) => setTimeout(r, windowMs));
    const after = serverCpu(dir);
    if (!after) return undefined;
    if (total(after) - total(before) <= busy || Date.now() - start >= maxMs) return Date.now() - start;
  }
}
