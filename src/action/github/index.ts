/**
 * The GitHub side of the action: the run's event context, which files a change touched (pull request
 * files, push diffs, the compare API, git in a shallow checkout), the drift issue, merged pulls and the
 * per-package PR comment. What the files mean for packages (plain git and package logic the CLI uses
 * too) is in src/changes.
 * Everything takes its Octokit, repository directory and environment as arguments, so tests drive it
 * against the local server in test/support/github-server.ts and throwaway git repositories.
 */

export {
  apiBaseUrl,
  apiMessageOf,
  httpStatusOf,
  refusalHint,
  type TokenPermission,
} from './api-response.js';
export {
  COMPARE_FILES_CAP,
  changeSetForEvent,
  type GitOptions,
  LIST_FILES_CAP,
  pullRequestChangeSet,
  pushChangeSet,
} from './change-set.js';
export {
  DRIFT_LABEL,
  type DriftIssueInput,
  type DriftIssueResult,
  driftIssueSkipReason,
  listDriftIssues,
  pickDriftIssue,
  syncDriftIssue,
} from './drift-issue.js';
export { type EventContext, isDefaultBranchPush, type PullRequestInfo, readEventContext } from './event.js';
export { isAuthoredBy, tokenIdentity, WORKFLOW_TOKEN_LOGIN } from './identity.js';
export { type MergedPull, mergedPullsOf, mergedPullsOfCommits } from './merged-pulls.js';
// the Octokit itself is imported on demand (see octokit.ts): only its type from here
export type { GitHubClient } from './octokit.js';
export {
  type CommentThread,
  findMarkedComment,
  type ListedComment,
  markedComments,
  pickMarkedComment,
  readCommentThread,
  startsWithMarker,
  type UpsertCommentInput,
  type UpsertCommentResult,
  upsertPreviewComment,
  writeMarkedComment,
} from './pr-comment.js';
export { RateLimitBudgetError } from './rate-limit.js';
export { noteUnposted, runStateOf, type TokenIdentity, type Unposted } from './run-state.js';
