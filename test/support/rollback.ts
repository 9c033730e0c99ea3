import type { RunEvent } from '../../src/apply/events.js';
import { defaultRunOptions, type RunOptions } from '../../src/apply/run-options.js';
import { type DeployRecord, readHistory } from '../../src/inventory/deploy-history.js';
import type { Connection } from '../../src/kube/connect.js';
import type { OnFailure } from '../../src/pipeline/rollback-report.js';
import { runPackage } from '../../src/pipeline/run-package.js';
import { adminClient } from './cluster.js';
import { git } from './git-repo.js';
import { inlinePackage } from './packages.js';

// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from the API server
type Obj = Record<string, any>;

/**
 * A package in its own git repository (inlinePackage, committed): each `commit` replaces its YAML files
 * and returns the new commit's SHA, so deploys record real commits a rollback can read back from git.
 */
export function gitPackage(namespace: string, files: Record<string, string>) {
  const pkg = inlinePackage(namespace, files);
  git(pkg.repo, 'init', '-q');
  const commit = (next?: Record<string, string>, message = 'change') => {
    if (next) pkg.rewrite(next);
    git(pkg.repo, 'add', '-A');
    git(pkg.repo, 'commit', '-q', '--allow-empty', '-m', message);
    return git(pkg.repo, 'rev-parse', 'HEAD');
  };
  return { ...pkg, first: commit(undefined, 'first'), commit };
}

/**
 * An apply of `commit` through the pipeline both front ends use, with the deploy history (and so the
 * stale-commit guard and a rollback's target) and `onFailure`; the failed apply's events and the
 * rollback's are collected apart.
 */
export async function applyAt(
  conn: Connection,
  pkg: { repo: string; rel: string },
  commit: string,
  o: { namespace: string; onFailure?: OnFailure; options?: Partial<RunOptions> },
) {
  const events: RunEvent[] = [];
  const rollbackEvents: RunEvent[] = [];
  let rollbackTo: string | undefined;
  const result = await runPackage(conn.client, pkg.rel, 'apply', {
    repoRoot: pkg.repo,
    defaultNamespace: o.namespace,
    options: defaultRunOptions({ reconcileTimeoutMs: 60_000, pruneTimeoutMs: 60_000, ...o.options }),
    emit: (e) => events.push(e),
    history: { commit, trigger: 'test@rollback', keep: 20, allowStale: false },
    onFailure: o.onFailure,
    rollbackEvents: (to) => {
      rollbackTo = to;
      return (e) => rollbackEvents.push(e);
    },
  });
  return { result, events, rollbackEvents, rollbackTo };
}

/** The package's deploy records, newest first. */
export function historyOf(conn: Connection, inventory: { name: string; namespace: string; id: string }) {
  return readHistory(conn.client, inventory) as Promise<DeployRecord[]>;
}

/** `Kind/name` of every object the cluster's ResourceGroup lists, sorted. */
export async function inventoryNames(inventory: { name: string; namespace: string }): Promise<string[]> {
  const rg = await adminClient().request<Obj>(
    'GET',
    `/apis/kpt.dev/v1alpha1/namespaces/${inventory.namespace}/resourcegroups/${inventory.name}`,
  );
  return ((rg.body.spec?.resources ?? []) as Obj[]).map((r) => `${r.kind}/${r.name}`).sort();
}

/** GET a namespaced object's path; its body, or undefined when it is not there. */
export async function getObject(path: string): Promise<Obj | undefined> {
  const res = await adminClient().request<Obj>('GET', path);
  return res.status === 200 ? res.body : undefined;
}
