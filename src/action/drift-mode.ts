import { resolveExplicitPackages } from '../changes/index.js';
import { correctionFailed, driftRemains } from '../drift/correction.js';
import type { DriftDocument, DriftPackage } from '../drift/types.js';
import { findUnits } from '../package/find-packages.js';
import { formatPackageError } from '../package/package-error.js';
import { type DriftRunResult, runDriftPackage } from '../pipeline/drift-package.js';
import { collectSecretValues, scrub } from '../preview/redact.js';
import { correctionMessage } from '../report/drift-correction.js';
import { driftDocument, driftPackageJson } from '../report/drift-json.js';
import { renderDriftMarkdown } from '../report/drift-markdown.js';
import { renderDriftText } from '../report/drift-text.js';
import { connectCluster } from './cluster-access.js';
import { correctDriftedPackages } from './drift-correction.js';
import { fileDriftIssues } from './drift-issues.js';
import type { EventContext, GitHubClient } from './github/index.js';
import type { ActionInputs } from './inputs.js';
import * as core from './toolkit.js';

/**
 * `mode: drift` (a `schedule:` or `workflow_dispatch` job): every deployable unit on the checked-out
 * commit (or the `packages` input) checked against the cluster, read-only; with `drift-correct: true`,
 * then each drifted package re-applied (src/action/drift-correction.ts); a job summary section per
 * package; outputs `drifted`, `corrected` and `result`; with `drift-issue: true`, one issue per drifted
 * package kept up to date (closed once corrected). Fails the step on a fatal error, a failed correction,
 * or, with `fail-on-drift: true`, on drift that remains (all drift without correction; held packages and
 * status drift with it).
 */
export async function runDriftMode(
  inputs: ActionInputs,
  ctx: EventContext,
  repoRoot: string,
  octokit: GitHubClient | undefined,
  signal: AbortSignal,
): Promise<void> {
  const units = await driftUnits(repoRoot, inputs.packages);
  core.setOutput('packages', JSON.stringify(units));
  const results: DriftRunResult[] = [];
  let applied = new Map<string, string>();
  if (units.length === 0) {
    core.info(
      'no deployable kpt package (a package with inventory information) in the checkout: nothing to check',
    );
  } else {
    const conn = await connectCluster(inputs.kubeconfig, inputs.context);
    try {
      for (const unit of units) {
        if (signal.aborted) break;
        core.startGroup(`drift ${unit}`);
        const r = await runDriftPackage(conn.client, unit, {
          repoRoot,
          defaultNamespace: inputs.namespace || conn.access.namespace,
          options: inputs.run,
          previewContext: { cluster: conn.access.clusterName, commit: ctx.sha, runUrl: ctx.runUrl },
          signal,
          onProgress: (line) => core.info(line),
        });
        const secrets = collectSecretValues(r.prepared?.objects.map((o) => o.object) ?? []);
        if (r.error) r.error = scrub(r.error, secrets);
        core.info(
          renderDriftText(driftPackageJson(r), {
            preview: r.preview,
            namespace: namespaceOf(r),
            correcting: inputs.driftCorrect,
          }),
        );
        core.endGroup();
        report(r);
        results.push(r);
      }
      if (inputs.driftCorrect && !signal.aborted)
        applied = await correctDriftedPackages(results, { inputs, ctx, repoRoot, conn, signal });
    } finally {
      conn.client.close();
    }
  }
  // the correction's apply section after its drift section (a blank line between: the drift section may
  // end in an HTML block, which would swallow a heading right after it)
  for (const r of results) {
    const drift = renderDriftMarkdown(driftPackageJson(r), { namespace: namespaceOf(r) });
    const apply = applied.get(r.path);
    core.appendSummary(apply ? `${drift}\n${apply}` : drift);
  }
  const doc = driftDocument(results);
  const drifted = doc.packages.filter((p) => p.drifted).map((p) => p.path);
  const corrected = doc.packages.filter((p) => p.correction?.result === 'corrected').map((p) => p.path);
  core.setOutput('drifted', JSON.stringify(drifted));
  core.setOutput('corrected', JSON.stringify(corrected));
  core.setOutput('result', JSON.stringify(doc));
  if (inputs.driftIssue) await fileDriftIssues(inputs, ctx, octokit, results);
  conclude(doc, inputs, signal);
}

/** The step's result: fatal errors and failed corrections fail it; remaining drift with fail-on-drift. */
function conclude(doc: DriftDocument, inputs: ActionInputs, signal: AbortSignal) {
  const fatal = doc.packages.filter((p) => p.error);
  const failedFixes = doc.packages.filter((p) => correctionFailed(p.correction));
  const remaining = doc.packages.filter((p) => driftRemains(p) && !correctionFailed(p.correction));
  const corrected = doc.packages.filter((p) => p.correction?.result === 'corrected');
  const names = (ps: DriftPackage[]) =>
    ps.map((p) => (p.correction ? `${p.path} (${p.correction.result})` : p.path)).join(', ');
  const problems = [
    ...fatal.map((p) => `${p.path}: ${p.error ?? 'could not be checked'}`),
    ...failedFixes.map((p) => `${p.path}: ${correctionMessage(p.correction!)}`),
  ];
  if (inputs.failOnDrift && remaining.length > 0)
    problems.push(
      inputs.driftCorrect
        ? `drift remains in ${names(remaining)} (fail-on-drift: true)`
        : `drift found in ${names(remaining)} (fail-on-drift: true)`,
    );
  if (corrected.length > 0) core.info(`drift corrected in ${corrected.map((p) => p.path).join(', ')}`);
  if (signal.aborted) core.setFailed('cancelled before every package was checked');
  else if (problems.length > 0) core.setFailed(problems.join('\n'));
  else if (remaining.length > 0)
    core.info(
      `drift ${inputs.driftCorrect ? 'remains' : 'found'} in ${names(remaining)}; the step passes (fail-on-drift: false)`,
    );
  else if (doc.packages.length > 0 && corrected.length === 0)
    core.info('every package is in sync with the cluster');
}

/** The `packages` input (paths, globs), else every deployable unit of the checkout. */
async function driftUnits(repoRoot: string, explicit: string[]): Promise<string[]> {
  if (explicit.length > 0) {
    const { paths, notes } = await resolveExplicitPackages(repoRoot, explicit);
    for (const n of notes) core.info(n);
    return paths;
  }
  return (await findUnits(repoRoot)).map((u) => u.dir);
}

const namespaceOf = (r: DriftRunResult) => r.prepared?.inventory.namespace;

/** Annotations: an error for a package that could not be checked, a warning per drifted package. */
function report(r: DriftRunResult) {
  for (const n of r.notices) core.notice(n, { title: r.path });
  for (const e of r.packageErrors ?? []) {
    core.error(formatPackageError(e), {
      title: `kpt-live-action: ${r.path}`,
      file: e.file,
      startLine: e.line,
    });
  }
  if (r.error && !r.packageErrors) core.error(r.error, { title: `kpt-live-action: ${r.path}` });
  if (r.outcome === 'drifted') {
    core.warning(`${r.objects.length} object(s) differ from the package`, { title: `drift: ${r.path}` });
  }
}
