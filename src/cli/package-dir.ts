import path from 'node:path';
import { type Connection, connect } from '../kube/connect.js';
import { type CliContext, CliError } from './cli-io.js';

/** A DIR argument as the package model takes it: a root nothing is read outside of, and the path inside it. */
export interface PackageLocation {
  /** Absolute; file paths in messages are relative to it. */
  root: string;
  /** Posix path relative to `root` (`.` for the root itself). */
  dir: string;
  /** The argument as the user wrote it. */
  display: string;
}

/**
 * The current directory is the root when DIR is inside it, so messages name files the way the user sees them
 * (`deploy/app/cm.yaml:3`); a DIR elsewhere (`../other`, `/srv/pkg`) is its own root.
 */
export function locatePackage(arg: string, cwd: string): PackageLocation {
  const abs = path.resolve(cwd, arg);
  const rel = path.relative(cwd, abs);
  if (rel === '') return { root: cwd, dir: '.', display: arg };
  if (!rel.startsWith('..') && !path.isAbsolute(rel)) {
    return { root: cwd, dir: rel.split(path.sep).join('/'), display: arg };
  }
  return { root: abs, dir: '.', display: arg };
}

/** The kubeconfig source of a command's flags (paths relative to the working directory). */
export function kubeconfigSource(flags: { kubeconfig?: string; context?: string }, cwd: string) {
  const kubeconfigPath = flags.kubeconfig ? path.resolve(cwd, flags.kubeconfig) : undefined;
  return { kubeconfigPath, context: flags.context, setting: '--kubeconfig' };
}

/** The one cluster connection of a command; a kubeconfig problem is a fatal error naming the fix. */
export async function connectCluster(
  flags: { kubeconfig?: string; context?: string },
  ctx: CliContext,
): Promise<Connection> {
  try {
    return await connect(kubeconfigSource(flags, ctx.cwd));
  } catch (err) {
    throw new CliError(`cannot use the kubeconfig: ${(err as Error).message}`, 1);
  }
}

const NETWORK_ERROR =
  /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EAI_AGAIN|socket hang up|certificate|self[- ]signed/i;

/**
 * A fatal error as the user should read it: a network or TLS failure names the server and kubeconfig
 * context it was trying, since the bare `connect ECONNREFUSED 127.0.0.1:6443` does not say what to fix.
 */
export function explainFatal(error: string, access?: { server: string; contextName: string }): string {
  if (!access || !NETWORK_ERROR.test(error)) return error;
  return `cannot reach the cluster at ${access.server} (kubeconfig context "${access.contextName}"): ${error}; check --kubeconfig and --context, and that the API server is running`;
}
