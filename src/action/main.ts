import { failed, isBlockedOutcome } from '../apply/run-result.js';
import type { CatchUpOutcome } from '../changes/catch-up-state.js';
import type { Connection } from '../kube/connect.js';
import { packagesAtOnce, runPackages } from '../pipeline/package-concurrency.js';
import { type PackageRunResult, packageSecretValues, runPackage } from '../pipeline/run-package.js';
import { catchUpLogLines, renderCatchUpSummary } from '../report/catch-up-summary.js';
import { ApplyFeedback } from './apply-feedback.js';
import { connectCluster } from './cluster-access.js';
import { runDriftMode } from './drift-mode.js';
import { type EventContext, readEventContext } from './github/index.js';
import { type ActionInputs, parseInputs } from './inputs.js';
import { PreviewComments } from './preview-comments.js';
import { runRemovedPackage } from './removed-package.js';
import { eventLogger, reportPackage } from './report-package.js';
import { packageResultJson, totals } from './result-json.js';
import { type RunMode, resolveMode, runScope } from './run-scope.js';
import { type SelectedUnit, type Selection, selectPackages } from './select-packages.js';
import * as core from './toolkit.js';
import { saveWatermark } from './watermark-save.js';

/**
 * The action: inputs → which packages → run each (preview / apply / destroy / status / drift) → report → outputs.
 * `parsed`: the inputs src/index.ts parsed (and may have started connecting with), or why they do not parse.
 */
export async function run(parsed: ActionInputs | Error = parseInputsOrError()): Promise<void> {
  const abort = new AbortController();
  const onSignal = (sig: string) => {
    core.warning(`received ${sig}: not starting new work; saving the inventory before exiting`);
    abort.abort();
  };
  process.once('SIGINT', () => onSignal('SIGINT'));
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  try {
    if (parsed instanceof Error) throw parsed;
    const inputs = parsed;
    const ctx = await readEventContext();
    const repoRoot = process.env.GITHUB_WORKSPACE || process.cwd();
    const resolved = resolveMode(inputs.mode, ctx);
    if (resolved.note) core.info(resolved.note);
    const mode = resolved.mode;
    // before any request: a mode, event and input that do not go together fail here
    const scope = mode === 'drift' ? undefined : runScope(mode, ctx, inputs.packages);
    // Octokit (and the HTTP client under it) is loaded only when there is a token to use it with
    const octokit = inputs.githubToken
      ? (await import('./github/octokit.js')).createOctokit(inputs.githubToken, { baseUrl: ctx.apiUrl })
      : undefined;
    if (mode === 'drift' || !scope) {
      await runDriftMode(inputs, ctx, repoRoot, octokit, abort.signal);
      return;
    }
    if (scope.kind === 'nothing') {
      core.notice(scope.reason);
      core.setOutput('packages', '[]');
      setOutputs([]);
      return;
    }
    // catch-up reads the cluster's deploy records before anything runs; resolve does when it can connect
    let conn: Connection | undefined;
    if (scope.kind === 'catch-up') {
      conn =
        mode === 'resolve'
          ? await connectCluster(inputs.kubeconfig, inputs.context).catch((err: Error) => {
              core.info(`mode resolve: no cluster connection (${err.message})`);
              return undefined;
            })
          : await connectCluster(inputs.kubeconfig, inputs.context);
    }
    try {
      const cluster = conn && { client: conn.client, namespace: inputs.namespace || conn.access.namespace };
      const selection = await selectPackages({
        repoRoot,
        scope,
        ctx,
        octokit,
        inputs,
        ...(cluster ? { cluster } : {}),
      });
      const units = selection.units;
      core.setOutput('packages', JSON.stringify(units.map((u) => u.path)));
      if (selection.catchUp) reportSelection(selection, ctx.push?.after ?? ctx.sha);
      if (mode === 'resolve') {
        core.info(`packages: ${units.map((u) => u.path).join(', ') || '(none)'}`);
        return;
      }
      const comments = new PreviewComments(inputs, ctx, octokit);
      const feedback =
        mode === 'apply' && (ctx.push || selection.catchUp)
          ? new ApplyFeedback(inputs, ctx, octokit, {
              repoRoot,
              units: new Map(units.map((u) => [u.path, { base: u.base, tree: u.tree }])),
            })
          : undefined;
      if (units.length === 0) {
        if (mode === 'preview') await comments.finish([]);
        core.info(
          selection.catchUp
            ? 'nothing to apply: the cluster runs this commit for every package this job covers'
            : 'no kpt package with inventory info is touched by this change: nothing to do',
        );
        if (selection.catchUp && mode === 'apply') await storeWatermark(selection, [], true, ctx);
        setOutputs([]);
        return;
      }
      conn ??= await connectCluster(inputs.kubeconfig, inputs.context);
      const { client, access } = conn;
      const rule = {
        mode,
        packageConcurrency: inputs.packageConcurrency,
        keepGoing: inputs.keepGoing,
        signal: abort.signal,
      };
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
        const emit = eventLogger(log);
        // GitHub is asked before the run (the reviewed plan) and told after it, never while the lock is held
        const gate = mode === 'apply' && !unit.removed ? await feedback?.gate(unit.path) : undefined;
        if (!lines) core.startGroup(`${mode} ${unit.path}`);
        let result: PackageRunResult;
        if (unit.removed && (mode === 'preview' || mode === 'apply')) {
          result = await runRemovedPackage(client, unit, mode, {
            repoRoot,
            options: inputs.run,
            destroyRemovedPackages: inputs.destroyRemovedPackages,
            emit,
          });
        } else {
          result = await runPackage(client, unit.path, mode, {
            repoRoot,
            defaultNamespace: inputs.namespace || access.namespace,
            options: inputs.run,
            emit,
            signal: abort.signal,
            history: {
              commit: ctx.sha,
              ...(unit.tree ? { tree: unit.tree } : {}),
              trigger: ctx.runUrl,
              keep: inputs.historyLimit,
              allowStale: inputs.allowStale,
            },
            onProgress: log,
            gate,
            previewContext: {
              cluster: access.clusterName,
              commit: ctx.pullRequest?.headSha ?? ctx.mergeGroup?.headSha ?? ctx.sha,
              targetBranch: ctx.defaultBranch,
              runUrl: ctx.runUrl,
            },
          });
        }
        if (lines) {
          core.startGroup(`${mode} ${unit.path}`);
          for (const line of lines) core.info(line);
        }
        core.endGroup();
        feedback?.verdict(unit.path, result.planCheck);
        const secrets = packageSecretValues(result);
        const summary = reportPackage(result, secrets) + (feedback?.summarySection(unit.path) ?? '');
        results.push(result);
        // the PR comment goes out concurrently with other packages' (a rate limit is waited out); the
        // job summary section and the apply feedback one package at a time, in the order packages finish
        const comment =
          result.preview && mode === 'preview' ? comments.onPreview(result, unit.tree) : Promise.resolve();
        reported = reported.then(async () => {
          core.appendSummary(summary);
          if (feedback && mode === 'apply') await feedback.report(result, secrets);
        });
        await Promise.all([comment, reported]);
        return result;
      };
      const entries = await runPackages(
        units,
        rule,
        (u) => u.path,
        runUnit,
        (r) => r.outcome === 'success',
      );
      for (const e of entries) {
        if (!('skipped' in e)) continue;
        core.error(`${e.item.path}: ${e.skipped}`, { title: `kpt-live-action: ${e.item.path} not run` });
        const skipped = skippedResult(e.item.path, mode, e.skipped);
        results.push(skipped);
        if (feedback && mode === 'apply') await feedback.report(skipped, []);
      }
      if (selection.catchUp && mode === 'apply') {
        const byPath = new Map(units.map((u) => [u.path, u]));
        const outcomes = results.map((r) => {
          const unit = byPath.get(r.path);
          return {
            path: r.path,
            removed: unit?.removed ?? false,
            tree: unit?.tree,
            outcome: r.outcome,
            ...(r.error ? { error: r.error } : {}),
            ...(unit?.removed && !inputs.destroyRemovedPackages ? { removalRefused: true } : {}),
          };
        });
        const complete = !abort.signal.aborted && results.every((r) => r.outcome !== 'skipped');
        await storeWatermark(selection, outcomes, complete, ctx);
      }
      await finishRun(units, results, mode, comments, abort.signal);
    } finally {
      conn?.client.close();
    }
  } catch (err) {
    core.setFailed(err instanceof Error ? err.message : String(err));
  }
}

/** Log lines, warnings for held packages, and the job summary section of a catch-up selection. */
function reportSelection(selection: Selection, head: string) {
  const input = {
    head,
    run: selection.units.map((u) => ({ path: u.path, reason: u.reason ?? '', removed: u.removed })),
    held: selection.held,
    upToDate: selection.upToDate,
    skipped: selection.skipped,
  };
  for (const line of catchUpLogLines(input)) core.info(line);
  for (const h of selection.held)
    core.warning(`${h.path}: ${h.reason}`, { title: `kpt-live-action: ${h.path} held` });
  core.appendSummary(renderCatchUpSummary(input));
}

async function storeWatermark(
  selection: Selection,
  results: CatchUpOutcome[],
  complete: boolean,
  ctx: EventContext,
) {
  if (!selection.catchUp) return;
  const said = await saveWatermark(selection.catchUp, results, { complete, runUrl: ctx.runUrl });
  if (said.info) core.info(said.info);
  if (said.warning) core.warning(said.warning);
}

/** Comments of packages a pull request no longer changes, outputs, and the step's result. */
async function finishRun(
  units: SelectedUnit[],
  results: PackageRunResult[],
  mode: RunMode,
  comments: PreviewComments,
  signal: AbortSignal,
) {
  // the packages' order, whichever finished first
  const order = new Map(units.map((u, i) => [u.path, i]));
  results.sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
  if (mode === 'preview' && !signal.aborted)
    await comments.finish([...units.map((u) => u.path), ...results.map((r) => r.path)]);
  setOutputs(results);
  const bad = results.filter((r) => r.outcome !== 'success');
  if (signal.aborted) core.setFailed('cancelled: stopped starting new work; the inventory was saved');
  else if (bad.length > 0) {
    core.setFailed(bad.map((r) => `${r.path}: ${r.error ?? describeFailure(r)}`).join('\n'));
  }
}

function parseInputsOrError(): ActionInputs | Error {
  try {
    return parseInputs();
  } catch (err) {
    return err as Error;
  }
}

/** A package the loop did not start (an earlier one failed, or the run was cancelled). */
function skippedResult(path: string, mode: PackageRunResult['mode'], why: string): PackageRunResult {
  return { path, mode, outcome: 'skipped', error: why, notices: [], exitCode: 3 };
}

function describeFailure(r: PackageRunResult): string {
  const objects = r.run?.objects ?? [];
  const notDone = objects.filter((o) => failed(o));
  if (notDone.length > 0) {
    return notDone
      .map((o) => {
        const verb = isBlockedOutcome(o) ? 'blocked' : o.reconcile === 'Timeout' ? 'timed out' : 'failed';
        return `${o.id.kind}/${o.id.name} ${verb}: ${o.message ?? ''}`;
      })
      .join('; ');
  }
  if (r.preview) {
    const { error, blocked } = r.preview.summary;
    const parts = [
      ...(error > blocked ? [`${error - blocked} object(s) rejected by the server`] : []),
      ...(blocked > 0 ? [`${blocked} object(s) blocked: apply would not deploy them`] : []),
    ];
    return parts.join('; ') || 'failed';
  }
  return 'failed';
}

function setOutputs(results: PackageRunResult[]) {
  const json = results.map(packageResultJson);
  const t = totals(json);
  core.setOutput('created', String(t.created));
  core.setOutput('configured', String(t.configured));
  core.setOutput('unchanged', String(t.unchanged));
  core.setOutput('pruned', String(t.pruned));
  core.setOutput('failed', String(t.failed));
  core.setOutput('result', JSON.stringify({ packages: json }));
}
