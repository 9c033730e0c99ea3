import { hostname, userInfo } from 'node:os';
import { git } from '../changes/git.js';
import { readHeadCommit } from '../changes/head-commit.js';
import { readHistory } from '../inventory/deploy-history.js';
import { readInventoryInfo } from '../package/inventory-info.js';
import { formatPackageError } from '../package/package-error.js';
import type { HistoryOptions } from '../pipeline/run-package.js';
import type { CliContext, ExitCode } from './cli-io.js';
import { forEachPackage } from './for-each-package.js';
import type { RunFlags } from './options.js';
import { locatePackage } from './package-dir.js';

/**
 * What the CLI records with each apply/destroy: the checkout's HEAD commit (if any) and user@host. The commit
 * is read from .git (readHeadCommit), or else looked up with git (~15–25 ms) while the run starts: only the
 * stale-commit guard and the record wait for it.
 */
export function cliHistory(repoRoot: string, flags: RunFlags): HistoryOptions {
  // read from .git when it says for certain; else git (not a git checkout, or no git: no commit, so no
  // stale-commit guard)
  const known = readHeadCommit(repoRoot);
  const commit =
    known !== undefined
      ? Promise.resolve(known ?? undefined)
      : git(repoRoot, ['rev-parse', 'HEAD'], { allowFail: true }).then(
          (head) => (head.code === 0 ? head.stdout.trim() || undefined : undefined),
          () => undefined,
        );
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (containers)
  }
  return {
    commit,
    trigger: `${user}@${hostname()}`,
    keep: flags.historyLimit ?? 20,
    allowStale: !!flags.allowStale,
  };
}

/** `kpt-live history DIR...`: the deploy records next to each package's inventory, newest first. */
export async function runHistory(
  dirs: readonly string[],
  flags: RunFlags,
  ctx: CliContext,
): Promise<ExitCode> {
  return forEachPackage(
    dirs,
    { ...flags, progress: 'never' },
    ctx,
    { mode: 'status', verb: 'reading' },
    (conn) => async (arg, progress, ctx) => {
      const loc = locatePackage(arg, ctx.cwd);
      const info = await readInventoryInfo(loc.dir, { repoRoot: loc.root });
      if (!info.inventory || info.errors.length > 0) {
        ctx.stderr.write(
          `error: ${info.errors.map(formatPackageError).join('\n') || `${arg}: no inventory information`}\n`,
        );
        return 1;
      }
      const records = await readHistory(conn.client, info.inventory);
      if (flags.output === 'json') {
        progress.out(`${JSON.stringify(records, null, 2)}\n`);
        return 0;
      }
      if (records.length === 0) progress.out(`${arg}: no deploy history\n`);
      for (const r of records) {
        const counts = Object.entries(r.counts)
          .filter(([, n]) => n > 0)
          .map(([k, n]) => `${n} ${k}`)
          .join(', ');
        progress.out(
          `${r.startedAt}  ${r.mode.padEnd(8)} ${r.result.padEnd(7)} ${(r.commit ?? '-').slice(0, 12).padEnd(12)}  ${counts || 'no changes'}  by ${r.trigger}\n`,
        );
        if (r.rollback?.of) progress.out(`    rolled back from ${r.rollback.of.slice(0, 12)}\n`);
        if (r.rollback?.kept?.length) progress.out(`    kept: ${r.rollback.kept.join(', ')}\n`);
        if (r.rollback?.pruned?.length) progress.out(`    pruned: ${r.rollback.pruned.join(', ')}\n`);
        for (const f of r.failed) progress.out(`    ${f}\n`);
        if (r.error) progress.out(`    error: ${r.error}\n`);
      }
      return 0;
    },
  );
}
