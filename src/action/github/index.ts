/**
 * The GitHub side of the action: the run's event context, which files and deployable units a change
 * touched (pull request files, push diffs, the compare API, git in a shallow checkout), inventory info
 * of deleted packages from the base commit, the `packages` input, and the per-package PR comment.
 * Everything takes its Octokit, repository directory and environment as arguments, so tests drive it
 * against the local server in test/support/github-server.ts and throwaway git repositories.
 */
export {
  type ChangeSet,
  COMPARE_FILES_CAP,
  changeSetForEvent,
  type GitOptions,
  LIST_FILES_CAP,
  pullRequestChangeSet,
  pushChangeSet,
} from './change-set.js';
export { type ChangedFile, type FileStatus, parseNameStatus } from './changed-file.js';
export { type ChangedPackages, type ChangedUnit, changedPackages } from './changed-packages.js';
export {
  DRIFT_LABEL,
  type DriftIssueInput,
  type DriftIssueResult,
  listDriftIssues,
  pickDriftIssue,
  syncDriftIssue,
} from './drift-issue.js';
export { type EventContext, isDefaultBranchPush, type PullRequestInfo, readEventContext } from './event.js';
export { globToRegExp, resolveExplicitPackages } from './explicit-packages.js';
export { GitError, isZeroSha } from './git.js';
export { readInventoryAtCommit, unitsAtCommit } from './inventory-at-commit.js';
export { type MergedPull, mergedPullsOf } from './merged-pulls.js';
export { apiBaseUrl, createOctokit, type GitHubClient, httpStatusOf } from './octokit.js';
export {
  type CommentThread,
  findMarkedComment,
  type ListedComment,
  pickMarkedComment,
  readCommentThread,
  type UpsertCommentInput,
  type UpsertCommentResult,
  upsertPreviewComment,
  writeMarkedComment,
} from './pr-comment.js';
