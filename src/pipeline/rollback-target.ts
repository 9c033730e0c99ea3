import type { DeployRecord } from '../inventory/deploy-history.js';

/**
 * Which earlier deploy a rollback returns to, from the package's deploy history (newest first). Pure:
 * records in, a record or the reason there is none out.
 */

/** `first`: the history has no successful deploy at all (a first deploy). */
export type RollbackTarget = { record: DeployRecord } | { none: string; first?: boolean };

const short = (commit: string) => commit.slice(0, 7);
/** An apply of some commit's package: an apply, or a rollback (an apply of an earlier commit). */
const isApply = (r: DeployRecord) => r.mode === 'apply' || r.mode === 'rollback';
const succeeded = (r: DeployRecord) => isApply(r) && r.result === 'success';

/**
 * The records that still describe the package's life in the cluster: those after its last destroy (a
 * package destroyed and applied again starts over; nothing before the destroy can be returned to).
 */
function sinceLastDestroy(records: readonly DeployRecord[]): DeployRecord[] {
  const at = records.findIndex((r) => r.mode === 'destroy');
  return at < 0 ? [...records] : records.slice(0, at);
}

/**
 * The deploy a failed apply of `failedCommit` rolls back to: the last successful apply before it (a
 * rollback's own record counts: it applied its commit successfully). None for a first deploy, when the
 * last successful one recorded no commit (applied from outside git), or when it was this same commit
 * (the cluster ran it before this run: going further back would undo a deploy that worked).
 */
export function lastGoodDeploy(records: readonly DeployRecord[], failedCommit?: string): RollbackTarget {
  const good = sinceLastDestroy(records).find(succeeded);
  if (!good)
    return {
      none: "this was the package's first deploy: its deploy history has no earlier successful one to return to",
      first: true,
    };
  if (!good.commit)
    return {
      none: `the last successful deploy (${good.finishedAt}, by ${good.trigger}) recorded no commit (applied from outside a git checkout): there is no tree to return to`,
    };
  if (failedCommit && good.commit === failedCommit)
    return {
      none: `the last successful deploy was this same commit ${short(good.commit)}: there is no earlier version to return to without undoing a deploy that worked`,
    };
  return { record: good };
}

/**
 * The target of `kpt-live rollback` / `mode: rollback`: `to` (a commit, or a prefix of at least 4
 * characters, of a successful deploy), else the `steps`-th successful deploy (by distinct commit) before
 * the last deploy (default 1: the one before the last). The last deploy's own commit is skipped when
 * counting: it is what the cluster has (or half has, when it failed).
 */
export function chosenTarget(
  records: readonly DeployRecord[],
  choice: { to?: string; steps?: number },
): RollbackTarget & { last?: DeployRecord } {
  const life = sinceLastDestroy(records);
  const last = life.find(isApply);
  if (!last) return { none: 'the deploy history names no apply of this package since it was last destroyed' };
  const good = life.filter((r) => succeeded(r) && r.commit);
  if (choice.to !== undefined) {
    const to = choice.to.trim().toLowerCase();
    if (!/^[0-9a-f]{4,64}$/.test(to))
      return { none: `"${choice.to}" is not a commit SHA (at least 4 hexadecimal characters)`, last };
    const found = good.find((r) => r.commit!.toLowerCase().startsWith(to));
    if (found) return { record: found, last };
    return { none: `no successful deploy of commit ${choice.to} in the deploy history${listed(good)}`, last };
  }
  const steps = choice.steps ?? 1;
  const seen = new Set<string>([last.commit ?? '']);
  const earlier: DeployRecord[] = [];
  for (const r of good) {
    if (seen.has(r.commit!)) continue;
    seen.add(r.commit!);
    earlier.push(r);
  }
  const found = earlier[steps - 1];
  if (found) return { record: found, last };
  const n = earlier.length;
  return {
    none: `the deploy history holds ${n === 0 ? 'no' : `only ${n}`} successful deploy${n === 1 ? '' : 's'} of another commit before the last one${steps > 1 ? ` (asked for ${steps} steps back)` : ''}${listed(good)}`,
    last,
  };
}

function listed(good: readonly DeployRecord[]): string {
  const commits = [...new Set(good.map((r) => short(r.commit!)))];
  return commits.length > 0 ? `; successful deploys: ${commits.join(', ')}` : '';
}
