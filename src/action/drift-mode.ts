import { resolveExplicitPackages } from '../changes/index.js';
import { findUnits } from '../package/find-packages.js';
import { formatPackageError } from '../package/package-error.js';
import { type DriftRunResult, runDriftPackage } from '../pipeline/drift-package.js';
import { collectSecretValues, scrub } from '../preview/redact.js';
import { driftDocument, driftPackageJson } from '../report/drift-json.js';
import {
  driftIssueTitle,
  driftMarker,
  renderDriftIssueBody,
  renderDriftMarkdown,
} from '../report/drift-markdown.js';
import { renderDriftText } from '../report/drift-text.js';
import { connectCluster } from './cluster-access.js';
import { apiMessageOf } from './github/api-response.js';
import {
  DRIFT_LABEL,
  driftIssueSkipReason,
  type EventContext,
  type GitHubClient,
  httpStatusOf,
  listDriftIssues,
  noteUnposted,
  syncDriftIssue,
} from './github/index.js';
import type { ActionInputs } from './inputs.js';
import * as core from './toolkit.js';

/**
 * `mode: drift` (a `schedule:` or `workflow_dispatch` job): every deployable unit on the checked-out
 * commit (or the `packages` input) checked against the cluster, read-only; a job summary section per
 * package; outputs `drifted` and `result`; with `drift-issue: true`, one issue per drifted package kept
 * up to date. Fails the step only on a fatal error, or on drift with `fail-on-drift: true`.
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
        core.info(renderDriftText(driftPackageJson(r), { preview: r.preview, namespace: namespaceOf(r) }));
        core.endGroup();
        report(r);
        core.appendSummary(renderDriftMarkdown(driftPackageJson(r), { namespace: namespaceOf(r) }));
        results.push(r);
      }
    } finally {
      conn.client.close();
    }
  }
  const doc = driftDocument(results);
  const drifted = doc.packages.filter((p) => p.drifted).map((p) => p.path);
  core.setOutput('drifted', JSON.stringify(drifted));
  core.setOutput('result', JSON.stringify(doc));
  if (inputs.driftIssue) await fileIssues(inputs, ctx, octokit, results);
  const fatal = results.filter((r) => r.outcome === 'error');
  const problems = [
    ...fatal.map((r) => `${r.path}: ${r.error ?? 'could not be checked'}`),
    ...(inputs.failOnDrift && drifted.length > 0
      ? [`drift found in ${drifted.join(', ')} (fail-on-drift: true)`]
      : []),
  ];
  if (signal.aborted) core.setFailed('cancelled before every package was checked');
  else if (problems.length > 0) core.setFailed(problems.join('\n'));
  else if (drifted.length > 0)
    core.info(`drift found in ${drifted.join(', ')}; the step passes (fail-on-drift: false)`);
  else if (results.length > 0) core.info('every package is in sync with the cluster');
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

/** One issue per drifted package (and comment key); packages that could not be checked are left alone. */
async function fileIssues(
  inputs: ActionInputs,
  ctx: EventContext,
  octokit: GitHubClient | undefined,
  results: DriftRunResult[],
) {
  if (!octokit) {
    core.notice('no github-token: drift issues not written (the job summary has the drift)');
    return;
  }
  const checked = results.filter((r) => r.outcome !== 'error');
  if (checked.length === 0) return;
  let issues: Awaited<ReturnType<typeof listDriftIssues>>;
  try {
    issues = await listDriftIssues(octokit, ctx.owner, ctx.repo);
  } catch (err) {
    const status = httpStatusOf(err);
    const what = `listing the "${DRIFT_LABEL}" issues`;
    if (status === 403 || status === 404 || status === 410)
      core.notice(driftIssueSkipReason(status, apiMessageOf(err), what));
    else core.warning(`drift issues not written: ${what} failed: ${apiMessageOf(err)}`);
    return;
  }
  const key = inputs.commentKey || undefined;
  const checkedAt = new Date().toISOString();
  for (const r of checked) {
    const pkg = driftPackageJson(r);
    try {
      const res = await syncDriftIssue(octokit, issues, {
        owner: ctx.owner,
        repo: ctx.repo,
        marker: driftMarker(r.path, key),
        title: driftIssueTitle(r.path, key),
        body: renderDriftIssueBody(pkg, {
          key,
          namespace: namespaceOf(r),
          runUrl: ctx.runUrl,
          commit: ctx.sha,
          checkedAt,
        }),
        drifted: pkg.drifted,
        inSyncComment: `In sync again: checked ${checkedAt}${ctx.runUrl ? ` in ${ctx.runUrl}` : ''}. Closing.`,
      });
      if (res.action === 'skipped') core.notice(res.reason, { title: `drift issue: ${r.path}` });
      else if (res.action !== 'none')
        core.info(`drift issue ${res.action}: #${res.number}${res.url ? ` ${res.url}` : ''}`);
    } catch (err) {
      const reason = (err as Error).message;
      core.warning(`could not update the drift issue of ${r.path}: ${reason}`);
      noteUnposted(octokit, `the drift issue of ${r.path}`, reason);
    }
  }
}
