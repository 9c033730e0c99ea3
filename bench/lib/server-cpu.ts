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
