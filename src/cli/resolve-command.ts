import path from 'node:path';
import { parseNameStatus } from '../changes/changed-file.js';
import { type ChangedUnit, changedPackages } from '../changes/changed-packages.js';
import { git } from '../changes/git.js';
import { findUnits } from '../package/find-packages.js';
import { type CliContext, CliError, type ExitCode } from './cli-io.js';

export interface ResolveFlags {
  base?: string;
  head?: string;
}

/** The top of the git checkout that holds `dir`; not being in one is a fatal error. */
async function repoRootOf(dir: string): Promise<string> {
  const r = await git(dir, ['rev-parse', '--show-toplevel'], { allowFail: true }).catch((err: Error) => {
    throw new CliError(err.message, 1);
  });
  if (r.code !== 0)
    throw new CliError(`${dir} is not inside a git repository: resolve compares git commits`, 1);
  return r.stdout.trim();
}

/** A revision as a commit SHA; an unknown one is a bad flag value (exit 2). */
async function commitOf(repoRoot: string, flag: string, rev: string): Promise<string> {
  const r = await git(repoRoot, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { allowFail: true });
  if (r.code !== 0) throw new CliError(`${flag} ${rev}: no such commit in ${repoRoot}`, 2);
  return r.stdout.trim();
}

/** The JSON entry of one unit: `removed` is always there; the base commit only for removed units. */
function entry(u: ChangedUnit): Record<string, unknown> {
  return u.removed
    ? { path: u.path, removed: true, baseCommit: u.baseCommit }
    : { path: u.path, removed: false };
}

/**
 * `kpt-live resolve [DIR] --base REF [--head REF]`: the deployable units a change touched, as one line of
 * JSON (`[{"path":"deploy/app","removed":false}]`), ready for a workflow matrix. Files map to units as
 * the action maps a pull request's files (`git diff --name-status -M base head`); units the change deleted
 * are listed with `"removed": true`. The checkout must be at `head`, since files are located in it.
 * Without --base every unit in the repository is listed. Notes go to stderr.
 */
export async function runResolve(
  dir: string | undefined,
  flags: ResolveFlags,
  ctx: CliContext,
): Promise<ExitCode> {
  const repoRoot = await repoRootOf(path.resolve(ctx.cwd, dir ?? '.'));
  if (flags.base === undefined) {
    if (flags.head !== undefined) throw new CliError('--head needs --base: resolve compares two commits', 2);
    const units = await findUnits(repoRoot);
    ctx.stdout.write(`${JSON.stringify(units.map((u) => ({ path: u.dir, removed: false })))}\n`);
    return 0;
  }
  const base = await commitOf(repoRoot, '--base', flags.base);
  const head = await commitOf(repoRoot, '--head', flags.head ?? 'HEAD');
  const diff = await git(repoRoot, ['diff', '--name-status', '-z', '-M', '--no-ext-diff', base, head, '--']);
  const result = await changedPackages(repoRoot, {
    all: false,
    files: parseNameStatus(diff.stdout),
    base,
    head,
    source: 'git',
    notes: [],
  });
  for (const note of result.notes) ctx.stderr.write(`note: ${note}\n`);
  for (const warning of result.warnings) ctx.stderr.write(`warning: ${warning}\n`);
  ctx.stdout.write(`${JSON.stringify(result.units.map(entry))}\n`);
  return 0;
}
