import type { RunEvent } from '../../src/apply/events.js';
import { defaultRunOptions, type RunOptions } from '../../src/apply/run-options.js';
import type { Connection } from '../../src/kube/connect.js';
import { type Mode, runPackage } from '../../src/pipeline/run-package.js';

/** Runs one package through the same pipeline the CLI and the action use, collecting events. */
export async function runPkg(
  conn: Connection,
  pkg: { repo: string; rel: string },
  mode: Mode,
  options: Partial<RunOptions> = {},
  defaultNamespace = 'default',
) {
  const events: RunEvent[] = [];
  const result = await runPackage(conn.client, pkg.rel, mode, {
    repoRoot: pkg.repo,
    defaultNamespace,
    options: defaultRunOptions({ reconcileTimeoutMs: 90_000, pruneTimeoutMs: 60_000, ...options }),
    emit: (e) => events.push(e),
  });
  return { result, events };
}

/** `kind/name action` lines for apply/prune/delete events, in order. */
export function actions(events: RunEvent[]): string[] {
  return events.flatMap((e) =>
    e.type === 'apply' || e.type === 'prune' || e.type === 'delete'
      ? [
          `${e.type} ${e.id.kind}/${e.id.name} ${e.status}${e.type === 'apply' && e.operation ? ` ${e.operation}` : ''}`,
        ]
      : [],
  );
}
