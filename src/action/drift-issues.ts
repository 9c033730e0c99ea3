import type { DriftRunResult } from '../pipeline/drift-package.js';
import { renderCorrectedComment } from '../report/drift-correction.js';
import { driftPackageJson } from '../report/drift-json.js';
import { driftIssueTitle, driftMarker, renderDriftIssueBody } from '../report/drift-markdown.js';
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

const namespaceOf = (r: DriftRunResult) => r.prepared?.inventory.namespace;

/**
 * `drift-issue: true`: one issue per drifted package (and comment key), after every check and correction.
 * A drifted package's issue is opened or brought up to date (its correction, when one was tried, in the
 * body: failed with why, held with why, left); a package in sync closes its open issue ("In sync
 * again"); a corrected one closes it with what was reverted and the run's link. Packages that could not be
 * checked are left alone. A token that may not write issues is a notice, never a failure.
 */
export async function fileDriftIssues(
  inputs: ActionInputs,
  ctx: EventContext,
  octokit: GitHubClient | undefined,
  results: readonly DriftRunResult[],
): Promise<void> {
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
  const inRun = ctx.runUrl ? ` in ${ctx.runUrl}` : '';
  for (const r of checked) {
    const pkg = driftPackageJson(r);
    const corrected = pkg.correction?.result === 'corrected';
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
        // a corrected package is in sync again: its issue closes, saying what was set back
        drifted: pkg.drifted && !corrected,
        inSyncComment: corrected
          ? renderCorrectedComment(pkg, {
              namespace: namespaceOf(r),
              runUrl: ctx.runUrl,
              commit: ctx.sha,
              at: checkedAt,
            })
          : `In sync again: checked ${checkedAt}${inRun}. Closing.`,
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
