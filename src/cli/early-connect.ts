import path from 'node:path';
import { connect } from '../kube/connect.js';
import { connectAhead, type EarlyConnection } from '../kube/early-connection.js';

/** The commands whose first step is the cluster connection (init, migrate and the rest connect later or never). */
const Connecting = new Set(['preview', 'apply', 'destroy', 'status', 'drift']);

/** A connection started before the command line is parsed, with the flags it was started for. */
export interface EarlyCliConnection {
  kubeconfigPath?: string;
  context?: string;
  connection: EarlyConnection;
}

/**
 * The `--kubeconfig` and `--context` of a command that connects first, read from argv before commander
 * (and the rest of the program) is loaded; undefined for other commands and for help. A guess, checked
 * later: connectCluster takes the early connection only when the parsed flags name the same kubeconfig and
 * context.
 */
export function earlyClusterFlags(
  argv: readonly string[],
): { kubeconfig?: string; context?: string } | undefined {
  if (!Connecting.has(argv[0] ?? '')) return undefined;
  const flags: { kubeconfig?: string; context?: string } = {};
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') break;
    if (arg === '-h' || arg === '--help') return undefined;
    for (const name of ['kubeconfig', 'context'] as const) {
      if (arg === `--${name}`) flags[name] = argv[++i];
      else if (arg.startsWith(`--${name}=`)) flags[name] = arg.slice(name.length + 3);
    }
  }
  return flags;
}

/**
 * Starts connecting (and the first discovery request) for a command that will need the cluster, while the
 * rest of the program loads: a start of the process costs its first round trip once, not after everything
 * else.
 */
export function connectBeforeParsing(argv: readonly string[], cwd: string): EarlyCliConnection | undefined {
  const flags = earlyClusterFlags(argv);
  if (!flags) return undefined;
  const kubeconfigPath = flags.kubeconfig ? path.resolve(cwd, flags.kubeconfig) : undefined;
  // connect() throws for a bad kubeconfig: as a rejected promise, it surfaces where connectCluster takes it
  const connecting = Promise.resolve().then(() =>
    connect({ kubeconfigPath, context: flags.context, setting: '--kubeconfig' }),
  );
  return { kubeconfigPath, context: flags.context, connection: connectAhead(connecting) };
}
