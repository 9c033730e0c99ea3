import type { Connection } from '../kube/connect.js';
import { PackageLoop, packagesAtOnce } from '../pipeline/package-concurrency.js';
import { type PackageRunResult, packageSecretValues, runPackage } from '../pipeline/run-package.js';
import { renderPreviewText } from '../report/preview-text.js';
import type { ApplyFeedback } from './apply-feedback.js';
import type { EventContext } from './github/index.js';
import type { ActionInputs } from './inputs.js';
import type { PreviewComments } from './preview-comments.js';
import { forUntrustedReaders } from './pull-request-trust.js';
import { runRemovedPackage } from './removed-package.js';
import { eventLogger, reportPackage } from './report-package.js';
import { reportRollback } from './rollback-report.js';
import { skippedResult } from './run-outputs.js';
import type { RunMode } from './run-scope.js';
import type { SelectedUnit } from './select-packages.js';
import * as core from './toolkit.js';

export interface UnitsContext {
  inputs: ActionInputs;
  ctx: EventContext;
  mode: Exclude<RunMode, 'resolve' | 'drift'>;
  repoRoot: string;
  conn: Connection;
  /** The preview's PR comments (preview mode only). */
  comments?: PreviewComments;
  feedback?: ApplyFeedback;
  /** A fork's or Dependabot's pull request: its results are shown without cluster values. */
  untrusted?: string;
  signal: AbortSignal;
}

/**
 * Runs the selected packages by the package loop's rule (src/pipeline/package-concurrency.ts): each one's
 * run, log group, job summary section, PR comment and Applied section; a package the loop did not start is
 * reported skipped. GitHub is asked before a package's run (the reviewed plan) and told after it, never
 * while its lock is held. Returns every package's result, in the packages' order.
 */
export async function runUnits(units: SelectedUnit[], c: UnitsContext): Promise<PackageRunResult[]> {
  const { inputs, mode, feedback } = c;
  const atOnce = Math.min(packagesAtOnce(mode, inputs.packageConcurrency), units.length);
  if (atOnce > 1)
    core.info(
      `${mode}: ${units.length} packages, up to ${atOnce} at once (one connection pool, one discovery)`,
    );
  const results: PackageRunResult[] = [];
  let reported = Promise.resolve();
  const runUnit = async (unit: SelectedUnit): Promise<PackageRunResult> => {
    // one package at a time logs as it goes; several at once keep each package's lines together
    const lines: string[] | undefined = atOnce > 1 ? [] : undefined;
    const log = (line: string) => (lines ? lines.push(line) : core.info(line));
    const gate = mode === 'apply' && !unit.removed ? await feedback?.gate(unit.path) : undefined;
    if (!lines) core.startGroup(`${mode} ${unit.path}`);
    let result = await runOne(unit, c, eventLogger(log), log, gate);
    if (c.untrusted) result = forUntrustedReaders(result);
    if (lines) {
      core.startGroup(`${mode} ${unit.path}`);
      for (const line of lines) core.info(line);
    }
    core.endGroup();
    feedback?.verdict(unit.path, result.planCheck);
    const secrets = packageSecretValues(result);
    const rollback = reportRollback(result, secrets);
    const summary =
      mode === 'rollback'
        ? rollback + reportPackage(result, secrets)
        : reportPackage(result, secrets) + rollback + (feedback?.summarySection(unit.path) ?? '');
    results.push(result);
    // the PR comment goes out with other packages' (writes are spaced by the request policy); the job
    // summary section and the apply feedback one package at a time, in the order packages finish
    const comments = c.comments;
    const comment =
      result.preview && comments
        ? Promise.resolve(unit.tree).then((tree) => comments.onPreview(result, tree))
        : Promise.resolve();
    reported = reported.then(async () => {
      core.appendSummary(summary);
      if (feedback && mode === 'apply') await feedback.report(result, secrets);
    });
    await Promise.all([comment, reported]);
    return result;
  };
  const rule = {
    mode,
    packageConcurrency: inputs.packageConcurrency,
    keepGoing: inputs.keepGoing,
    signal: c.signal,
  };
  const loop = new PackageLoop(units, rule, (u) => u.path);
  await Promise.all(
    loop.lanes().map(async () => {
      for (let next = loop.take(); next; next = loop.take())
        loop.finished(next, (await runUnit(next.item)).outcome === 'success');
    }),
  );
  for (const e of loop.skipped()) {
    core.error(`${e.item.path}: ${e.skipped}`, { title: `kpt-live-action: ${e.item.path} not run` });
    const skipped = skippedResult(e.item.path, mode, e.skipped);
    results.push(skipped);
    if (feedback && mode === 'apply') await feedback.report(skipped, []);
  }
  // the packages' order, whichever finished first
  const order = new Map(units.map((u, i) => [u.path, i]));
  return results.sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
}

async function runOne(
  unit: SelectedUnit,
  c: UnitsContext,
  emit: ReturnType<typeof eventLogger>,
  log: (line: string) => void,
  gate: Awaited<ReturnType<ApplyFeedback['gate']>>,
): Promise<PackageRunResult> {
  const { inputs, ctx, mode, conn } = c;
  if (mode === 'rollback') {
    // rollback's own code is a chunk of its own, loaded only by this mode
    const { runRollback } = await import('../pipeline/rollback-package.js');
    return runRollback(conn.client, unit.path, {
      repoRoot: c.repoRoot,
      defaultNamespace: inputs.namespace || conn.access.namespace,
      options: inputs.run,
      prune: inputs.onFailure.prune,
      ...(inputs.rollbackTo ? { to: inputs.rollbackTo } : { steps: inputs.rollbackSteps }),
      dryRun: false,
      history: { trigger: ctx.runUrl, keep: inputs.historyLimit, allowStale: true },
      emit,
      signal: c.signal,
      onProgress: log,
      onPreview: (doc) => log(renderPreviewText(doc)),
      previewContext: { cluster: conn.access.clusterName, runUrl: ctx.runUrl },
    });
  }
  if (unit.removed && (mode === 'preview' || mode === 'apply')) {
    return runRemovedPackage(conn.client, unit, mode, {
      repoRoot: c.repoRoot,
      options: inputs.run,
      destroyRemovedPackages: inputs.destroyRemovedPackages,
      emit,
    });
  }
  return runPackage(conn.client, unit.path, mode, {
    repoRoot: c.repoRoot,
    defaultNamespace: inputs.namespace || conn.access.namespace,
    options: inputs.run,
    emit,
    signal: c.signal,
    history: {
      commit: ctx.sha,
      ...(unit.tree ? { tree: unit.tree } : {}),
      trigger: ctx.runUrl,
      keep: inputs.historyLimit,
      allowStale: inputs.allowStale,
    },
    onProgress: log,
    gate,
    onFailure: inputs.onFailure,
    rollbackEvents: (to) => {
      log(`the apply of ${unit.path} failed: rolling back to ${to.slice(0, 7)}, its last successful deploy`);
      return emit;
    },
    previewContext: {
      cluster: conn.access.clusterName,
      commit: ctx.pullRequest?.headSha ?? ctx.mergeGroup?.headSha ?? ctx.sha,
      targetBranch: ctx.defaultBranch,
      runUrl: ctx.runUrl,
    },
  });
}
