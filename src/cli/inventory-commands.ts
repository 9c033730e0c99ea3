import path from 'node:path';
import { ensureResourceGroupCrd } from '../inventory/install-crd.js';
import { migrateInventory } from '../inventory/migrate.js';
import { loadClusterAccess } from '../kube/kube-config.js';
import { formatPackageError, initPackage } from '../package/index.js';
import { type CliContext, type ExitCode, printError, worstExitCode } from './cli-io.js';
import { connectCluster, locatePackage } from './package-dir.js';

export interface InitFlags {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  name?: string;
  inventoryId?: string;
  force?: boolean;
  quiet?: boolean;
}

/** The kubeconfig context's namespace, without contacting the cluster; `default` when there is no kubeconfig. */
function contextNamespace(flags: InitFlags, ctx: CliContext): string {
  try {
    return loadClusterAccess({
      kubeconfigPath: flags.kubeconfig ? path.resolve(ctx.cwd, flags.kubeconfig) : undefined,
      context: flags.context,
    }).namespace;
  } catch {
    return 'default';
  }
}

/**
 * `kpt-live init DIR...`: writes resourcegroup.yaml as `kpt live init` does (same file, same namespace
 * choice, same `initializing ...` line on stderr). Refuses existing inventory info unless --force.
 */
export async function runInit(dirs: readonly string[], flags: InitFlags, ctx: CliContext): Promise<ExitCode> {
  const defaultNamespace = flags.namespace ? undefined : contextNamespace(flags, ctx);
  const codes: ExitCode[] = [];
  for (const arg of dirs) {
    const loc = locatePackage(arg, ctx.cwd);
    const result = await initPackage(loc.dir, {
      root: loc.root,
      name: flags.name,
      namespace: flags.namespace,
      defaultNamespace,
      inventoryId: flags.inventoryId,
      force: flags.force,
    });
    if (result.ok) {
      if (!flags.quiet) ctx.stderr.write(`${result.message}\n`);
      codes.push(0);
    } else {
      ctx.stderr.write(`${result.message}\n`);
      printError(ctx, result.errors.map(formatPackageError).join('\n'));
      codes.push(1);
    }
  }
  return worstExitCode(codes);
}

/** `kpt-live install-resource-group`: installs kpt's ResourceGroup CRD (a no-op when it is there). */
export async function runInstallResourceGroup(
  flags: { kubeconfig?: string; context?: string },
  ctx: CliContext,
): Promise<ExitCode> {
  const conn = await connectCluster(flags, ctx);
  try {
    await ensureResourceGroupCrd(conn.client, { install: true });
    ctx.stdout.write('installing inventory ResourceGroup CRD...success\n');
    return 0;
  } catch (err) {
    ctx.stdout.write('installing inventory ResourceGroup CRD...failed\n');
    printError(ctx, (err as Error).message);
    return 1;
  } finally {
    conn.client.close();
  }
}

export interface MigrateFlags {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  name?: string;
  dryRun?: boolean;
  force?: boolean;
}

/**
 * `kpt-live migrate DIR...`: moves each package from the legacy ConfigMap inventory to a ResourceGroup,
 * printing `kpt live migrate`'s lines on stdout.
 */
export async function runMigrate(
  dirs: readonly string[],
  flags: MigrateFlags,
  ctx: CliContext,
): Promise<ExitCode> {
  const conn = await connectCluster(flags, ctx);
  const codes: ExitCode[] = [];
  try {
    for (const arg of dirs) {
      const result = await migrateInventory(conn.client, {
        dir: path.resolve(ctx.cwd, arg),
        display: arg,
        dryRun: flags.dryRun,
        name: flags.name,
        namespace: flags.namespace,
        force: flags.force,
        log: (line) => ctx.stdout.write(`${line}\n`),
      });
      if (!result.ok) printError(ctx, result.error ?? 'migration failed');
      codes.push(result.ok ? 0 : 1);
    }
  } finally {
    conn.client.close();
  }
  return worstExitCode(codes);
}
