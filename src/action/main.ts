import type { CatchUpOutcome } from '../changes/catch-up-state.js';
import type { Connection } from '../kube/connect.js';
import { catchUpLogLines, renderCatchUpSummary } from '../report/catch-up-summary.js';
import type { ApplyFeedback } from './apply-feedback.js';
import { connectCluster } from './cluster-access.js';
import { changeSetForEvent, type EventContext, readEventContext } from './github/index.js';
import { type ActionInputs, parseInputs } from './inputs.js';
import {
  checkTargetCheckout,
  packagesRoot,
  restrictUntrustedPreview,
  untrustedSkip,
  untrustedSource,
} from './pull-request-trust.js';
import { concludeRun, setOutputs } from './run-outputs.js';
import { checkDriftCorrect, resolveMode, runScope } from './run-scope.js';
import { runUnits } from './run-units.js';
import { type Selection, selectPackages } from './select-packages.js';
import * as core from './toolkit.js';
import { reportUnposted } from './unposted.js';
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
    const repoRoot = packagesRoot(inputs);
    const resolved = resolveMode(inputs.mode, ctx);
    if (resolved.note) core.info(resolved.note);
    const mode = resolved.mode;
    // before any request: a mode, event and input that do not go together fail here
    const scope = mode === 'drift' ? undefined : runScope(mode, ctx, inputs.packages);
    if (mode === 'drift' && inputs.driftCorrect) checkDriftCorrect(ctx);
    // Octokit (and the HTTP client under it) is loaded only when there is a token to use it with
    const octokit = inputs.githubToken
      ? (await import('./github/octokit.js')).createOctokit(inputs.githubToken, { baseUrl: ctx.apiUrl })
      : undefined;
    if (mode === 'drift' || !scope) {
      // each mode's own code is a chunk of its own, loaded when the mode runs (less to compile at start)
      const { runDriftMode } = await import('./drift-mode.js');
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
      const comments =
        mode === 'preview'
          ? new (await import('./preview-comments.js')).PreviewComments(inputs, ctx, octokit)
          : undefined;
      const feedback: ApplyFeedback | undefined =
        mode === 'apply' && (ctx.push || selection.catchUp)
          ? new (await import('./apply-feedback.js')).ApplyFeedback(inputs, ctx, octokit, {
              repoRoot,
              units: new Map(units.map((u) => [u.path, { base: u.base, tree: u.tree }])),
            })
          : undefined;
      await comments?.begin(units.map((u) => u.path));
      feedback?.begin(units.map((u) => u.path));
      if (units.length === 0) {
        await comments?.finish([]);
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
      const results = await runUnits(units, {
        inputs,
        ctx,
        mode,
        repoRoot,
        conn,
        comments,
        feedback,
        untrusted,
        signal: abort.signal,
      });
      if (selection.catchUp && mode === 'apply') {
        const byPath = new Map(units.map((u) => [u.path, u]));
        const outcomes = await Promise.all(
          results.map(async (r) => {
            const unit = byPath.get(r.path);
            return {
              path: r.path,
              removed: unit?.removed ?? false,
              tree: await unit?.tree,
              outcome: r.outcome,
              ...(r.error ? { error: r.error } : {}),
              ...(unit?.removed && !inputs.destroyRemovedPackages ? { removalRefused: true } : {}),
            };
          }),
        );
        const complete = !abort.signal.aborted && results.every((r) => r.outcome !== 'skipped');
        await storeWatermark(selection, outcomes, complete, ctx);
      }
      if (comments && !abort.signal.aborted)
        await comments.finish([...units.map((u) => u.path), ...results.map((r) => r.path)]);
      await feedback?.finish();
      reportUnposted(octokit);
      concludeRun(results, abort.signal.aborted);
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

function parseInputsOrError(): ActionInputs | Error {
  try {
    return parseInputs();
  } catch (err) {
    return err as Error;
  }
}
