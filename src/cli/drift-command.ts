import { driftExitCode } from '../drift/correction.js';
import { correctionWithoutApply, reapply, skippedCorrection } from '../pipeline/drift-correction.js';
import { type DriftRunResult, runDriftPackage } from '../pipeline/drift-package.js';
import { renderCorrectionText } from '../report/drift-correction.js';
import { driftDocument, driftPackageJson } from '../report/drift-json.js';
import { renderDriftText } from '../report/drift-text.js';
import { type CliContext, type ExitCode, printError, worstExitCode } from './cli-io.js';
import { loopPackages } from './for-each-package.js';
import { cliHistory } from './history-command.js';
import { type RunFlags, runOptionsFrom } from './options.js';
import { eventPrinter } from './output.js';
import { connectCluster, explainFatal, locatePackage, type PackageLocation } from './package-dir.js';
import { reportResult } from './run-command.js';

/**
 * `kpt-live drift DIR...`: whether the cluster still matches each package, read-only (server-side
 * dry-runs and reads; no lock, no history). Exit 0 in sync, 4 drift found, 1 when a package could not be
 * checked (never applied, forbidden, a dry-run refused).
 *
 * With `--correct`, once every package is checked, each drifted one is re-applied by the apply's own run
 * (src/pipeline/drift-correction.ts), under apply's package loop rule (one at a time, none after a failed
 * one unless --keep-going), its events printed as `apply` prints them. Exit 0 when every drifted package
 * was corrected, 3 when a correction failed, 4 when drift was left (a held package, status drift only).
 */
export async function runDrift(dirs: readonly string[], flags: RunFlags, ctx: CliContext): Promise<ExitCode> {
  const options = runOptionsFrom(flags);
  const json = flags.output === 'json';
  const checked = new Map<string, { loc: PackageLocation; result: DriftRunResult }>();
  const conn = await connectCluster(flags, ctx);
  try {
    const checkCode = await loopPackages(
      dirs,
      { ...flags, progress: 'never' },
      ctx,
      { mode: 'drift', verb: 'checking' },
      async (arg, progress, ctx) => {
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
        checked.set(arg, { loc, result });
        for (const notice of result.notices) ctx.stderr.write(`note: ${notice}\n`);
        if (result.error) printError(ctx, `${arg}: ${explainFatal(result.error, conn.access)}`);
        if (!json) {
          progress.out(
            renderDriftText(driftPackageJson(result), {
              preview: result.preview,
              namespace: result.prepared?.inventory.namespace,
              correcting: flags.correct,
            }),
          );
        }
        return result.exitCode;
      },
    );
    const drifted = dirs.filter((d) => checked.get(d)?.result.outcome === 'drifted');
    let code = checkCode;
    if (flags.correct && drifted.length > 0) {
      const out = (text: string) => (json ? ctx.stderr : ctx.stdout).write(text);
      // held packages and status drift are reported, not re-applied: only the others enter apply's loop
      const toApply: string[] = [];
      for (const d of drifted) {
        const { loc, result } = checked.get(d)!;
        const left = await correctionWithoutApply(conn.client, result, {
          dir: loc.dir,
          repoRoot: loc.root,
          retry: `not corrected until ${d} changes or \`kpt-live apply ${d}\` succeeds`,
        });
        if (left) out(renderCorrectionText(d, left));
        else toApply.push(d);
      }
      if (toApply.length > 0)
        await loopPackages(
          toApply,
          flags,
          ctx,
          { mode: 'apply', verb: 'correcting' },
          async (arg, progress, ctx) => {
            const { loc, result: drift } = checked.get(arg)!;
            const printer = json
              ? undefined
              : eventPrinter('events', (t) => progress.out(t), { showStatusEvents: flags.showStatusEvents });
            let started = false;
            const fix = await reapply(conn.client, drift, {
              dir: loc.dir,
              repoRoot: loc.root,
              defaultNamespace: flags.namespace ?? conn.access.namespace,
              options,
              history: cliHistory(loc.root, flags),
              signal: ctx.signal,
              emit: (e) => {
                if (!printer) return;
                if (!started) progress.out(`\nCorrecting ${arg}: re-applying the package\n`);
                started = true;
                printer.event(e);
                progress.event(e);
              },
              onProgress: (line) => progress.line(line),
            });
            progress.stop();
            printer?.finish();
            reportResult(ctx, progress, fix.run, conn);
            const verdict = renderCorrectionText(arg, fix.correction);
            if (json) ctx.stderr.write(verdict);
            else progress.out(verdict);
            return fix.run.exitCode === 0 ? 0 : 3;
          },
        );
      for (const d of toApply) {
        const drift = checked.get(d)!.result;
        if (drift.correction) continue;
        const why = ctx.signal?.aborted
          ? 'cancelled before its correction started'
          : 'an earlier correction did not succeed (--keep-going corrects the others anyway)';
        skippedCorrection(drift, why);
      }
      // the check's own codes (1 for a package that could not be checked) and each drifted one's verdict
      code = worstExitCode(
        dirs.map((d) => {
          const r = checked.get(d)?.result;
          return r ? driftExitCode(r) : 3; // never checked: cancelled
        }),
      );
    }
    // in the DIRs' order, however many ran at once
    const results = dirs.flatMap((d) => checked.get(d)?.result ?? []);
    if (json) ctx.stdout.write(`${JSON.stringify(driftDocument(results), null, 2)}\n`);
    return code;
  } finally {
    conn.client.close();
  }
}
