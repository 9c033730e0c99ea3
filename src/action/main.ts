import { failed, isBlockedOutcome } from '../apply/run-result.js';
import { packagesAtOnce, runPackages } from '../pipeline/package-concurrency.js';
import { type PackageRunResult, packageSecretValues, runPackage } from '../pipeline/run-package.js';
import { ApplyFeedback } from './apply-feedback.js';
import { connectCluster } from './cluster-access.js';
import { runDriftMode } from './drift-mode.js';
import {
  changeSetForEvent,
  type EventContext,
  isDefaultBranchPush,
  readEventContext,
} from './github/index.js';
import { type ActionInputs, parseInputs } from './inputs.js';
import { PreviewComments } from './preview-comments.js';
import {
  checkTargetCheckout,
  forUntrustedReaders,
  packagesRoot,
  restrictUntrustedPreview,
  untrustedSkip,
  untrustedSource,
} from './pull-request-trust.js';
import { runRemovedPackage } from './removed-package.js';
import { eventLogger, reportPackage } from './report-package.js';
import { packageResultJson, totals } from './result-json.js';
import { selectPackages } from './select-packages.js';
import * as core from './toolkit.js';
import { reportUnposted } from './unposted.js';

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
    const repoRoot = packagesRoot(inputs);
    const mode = resolveMode(inputs, ctx);
    // Octokit (and the HTTP client under it) is loaded only when there is a token to use it with
    const octokit = inputs.githubToken
      ? (await import('./github/octokit.js')).createOctokit(inputs.githubToken, { baseUrl: ctx.apiUrl })
      : undefined;
    if (mode === 'drift') {
      await runDriftMode(inputs, ctx, repoRoot, octokit, abort.signal);
      reportUnposted(octokit);
      return;
    }
    await checkTargetCheckout(ctx, repoRoot);
    // a fork's (or Dependabot's) pull request: no secrets means nothing to preview with; with credentials
    // its preview runs restricted, and shows no cluster values
    const untrusted = mode === 'preview' ? untrustedSource(ctx) : undefined;
    if (mode === 'preview') {
      const skip = untrustedSkip(inputs, ctx);
      if (skip) {
        core.notice(skip.notice);
        core.appendSummary(skip.summary);
        core.setOutput('packages', '[]');
        setOutputs([]);
        return;
      }
      if (untrusted) {
        const changed = await changeSetForEvent(ctx, { repoDir: repoRoot, octokit });
        for (const n of restrictUntrustedPreview(inputs, untrusted, changed)) core.notice(n);
      }
    }
    const units = await selectPackages(repoRoot, inputs.packages, ctx, octokit);
    core.setOutput('packages', JSON.stringify(units.map((u) => u.path)));
    if (mode === 'resolve') {
      core.info(`packages: ${units.map((u) => u.path).join(', ') || '(none)'}`);
      return;
    }
    const comments = new PreviewComments(inputs, ctx, octokit);
    const feedback = mode === 'apply' && ctx.push ? new ApplyFeedback(inputs, ctx, octokit) : undefined;
    if (mode === 'preview') await comments.begin(units.map((u) => u.path));
    feedback?.begin(units.map((u) => u.path));
    if (units.length === 0) {
      if (mode === 'preview') await comments.finish([]);
      core.info('no kpt package with inventory info is touched by this change: nothing to do');
      setOutputs([]);
      return;
    }
    const conn = await connectCluster(inputs.kubeconfig, inputs.context);
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
    const runUnit = async (unit: (typeof units)[number]): Promise<PackageRunResult> => {
      // one package at a time logs as it goes; several at once keep each package's lines together
      const lines: string[] | undefined = atOnce > 1 ? [] : undefined;
      const log = (line: string) => (lines ? lines.push(line) : core.info(line));
      const emit = eventLogger(log);
      // GitHub is asked before the run (the reviewed plan) and told after it, never while the lock is held
      const gate = mode === 'apply' ? await feedback?.gate(unit.path) : undefined;
      if (!lines) core.startGroup(`${mode} ${unit.path}`);
      let result: PackageRunResult;
      if (unit.removed && (mode === 'preview' || mode === 'apply')) {
        result = await runRemovedPackage(conn.client, unit, mode, {
          repoRoot,
          options: inputs.run,
          destroyRemovedPackages: inputs.destroyRemovedPackages,
          emit,
        });
      } else {
        result = await runPackage(conn.client, unit.path, mode, {
          repoRoot,
          defaultNamespace: inputs.namespace || conn.access.namespace,
          options: inputs.run,
          emit,
          signal: abort.signal,
          history: {
            commit: ctx.sha,
            trigger: ctx.runUrl,
            keep: inputs.historyLimit,
            allowStale: inputs.allowStale,
          },
          onProgress: log,
          gate,
          previewContext: {
            cluster: conn.access.clusterName,
            commit: ctx.pullRequest?.headSha ?? ctx.sha,
            targetBranch: ctx.defaultBranch,
            runUrl: ctx.runUrl,
          },
        });
      }
      if (untrusted) result = forUntrustedReaders(result);
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
      const comment = result.preview && mode === 'preview' ? comments.onPreview(result) : Promise.resolve();
      reported = reported.then(async () => {
        core.appendSummary(summary);
        if (feedback && mode === 'apply') await feedback.report(result, secrets);
      });
      await Promise.all([comment, reported]);
      return result;
    };
    try {
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
    } finally {
      conn.client.close();
    }
    // the packages' order, whichever finished first
    const order = new Map(units.map((u, i) => [u.path, i]));
    results.sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
    if (mode === 'preview' && !abort.signal.aborted)
      await comments.finish([...units.map((u) => u.path), ...results.map((r) => r.path)]);
    await feedback?.finish();
    reportUnposted(octokit);
    setOutputs(results);
    const bad = results.filter((r) => r.outcome !== 'success');
    if (abort.signal.aborted) core.setFailed('cancelled: stopped starting new work; the inventory was saved');
    else if (bad.length > 0) {
      core.setFailed(bad.map((r) => `${r.path}: ${r.error ?? describeFailure(r)}`).join('\n'));
    }
  } catch (err) {
    core.setFailed(err instanceof Error ? err.message : String(err));
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

function resolveMode(inputs: ActionInputs, ctx: EventContext): Exclude<ActionInputs['mode'], 'auto'> {
  if (inputs.mode !== 'auto') return inputs.mode;
  if (ctx.pullRequest) return 'preview';
  if (isDefaultBranchPush(ctx)) return 'apply';
  core.info(`mode auto on ${ctx.name} (${ctx.ref}): previewing; only a push to the default branch applies`);
  return 'preview';
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
