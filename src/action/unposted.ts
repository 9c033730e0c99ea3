import { escapeText } from '../report/markdown.js';
import { type GitHubClient, runStateOf } from './github/index.js';
import { describeBudget } from './github/rate-limit.js';
import * as core from './toolkit.js';

/**
 * At the end of a run: what it meant to post on GitHub and could not (its rate-limit budget spent, a
 * comment GitHub refused), as one warning and a job summary section, so nothing is lost silently. The
 * results themselves are in the job summary either way.
 */
export function reportUnposted(octokit: GitHubClient | undefined): void {
  if (!octokit) return;
  const { unposted, policy } = runStateOf(octokit);
  if (unposted.length === 0) return;
  const budget = policy.exhausted
    ? ` GitHub's rate limits used up this run's ${describeBudget(policy.budgetMs)} budget for waiting.`
    : '';
  core.warning(
    `${unposted.length} thing(s) not posted on GitHub: ${unposted.map((u) => u.what).join(', ')}.${budget} The job summary has the results.`,
    { title: 'kpt-live-action: not posted on GitHub' },
  );
  const lines = [
    '### Not posted on GitHub',
    '',
    ...(budget ? [budget.trim(), ''] : []),
    ...unposted.map((u) => `- ${escapeText(u.what)}: ${escapeText(u.reason)}`),
    '',
  ];
  try {
    core.appendSummary(lines.join('\n'));
  } catch {
    // no job summary outside a runner: the warning above says it
  }
}
