import { type DriftRunResult, runDriftPackage } from '../pipeline/drift-package.js';
import { driftDocument, driftPackageJson } from '../report/drift-json.js';
import { renderDriftText } from '../report/drift-text.js';
import { type CliContext, type ExitCode, printError } from './cli-io.js';
import { forEachPackage } from './for-each-package.js';
import { type RunFlags, runOptionsFrom } from './options.js';
import { explainFatal, locatePackage } from './package-dir.js';

/**
 * `kpt-live drift DIR...`: whether the cluster still matches each package, read-only (server-side
 * dry-runs and reads; no lock, no history). Exit 0 in sync, 4 drift found, 1 when a package could not be
 * checked (never applied, forbidden, a dry-run refused).
 */
export async function runDrift(dirs: readonly string[], flags: RunFlags, ctx: CliContext): Promise<ExitCode> {
  const options = runOptionsFrom(flags);
  const json = flags.output === 'json';
  const byDir = new Map<string, DriftRunResult>();
  const code = await forEachPackage(
    dirs,
    { ...flags, progress: 'never' },
    ctx,
    { mode: 'drift', verb: 'checking' },
    (conn) => async (arg, progress, ctx) => {
      const loc = locatePackage(arg, ctx.cwd);
      const result = await runDriftPackage(conn.client, loc.dir, {
        repoRoot: loc.root,
        defaultNamespace: flags.namespace ?? conn.access.namespace,
        options,
        previewContext: { cluster: conn.access.clusterName },
        signal: ctx.signal,
        onProgress: (line) => progress.line(line),
      });
      if (loc.root !== ctx.cwd) result.path = arg;
      byDir.set(arg, result);
      for (const notice of result.notices) ctx.stderr.write(`note: ${notice}\n`);
      if (result.error) printError(ctx, `${arg}: ${explainFatal(result.error, conn.access)}`);
      if (!json) {
        progress.out(
          renderDriftText(driftPackageJson(result), {
            preview: result.preview,
            namespace: result.prepared?.inventory.namespace,
          }),
        );
      }
      return result.exitCode;
    },
  );
  // in the DIRs' order, however many ran at once
  const results = dirs.flatMap((d) => byDir.get(d) ?? []);
  if (json) ctx.stdout.write(`${JSON.stringify(driftDocument(results), null, 2)}\n`);
  return code;
}
