/**
 * Which packages a change touches, from plain git and the package tree: the changed files as data
 * (`ChangeSet`), the deployable units they fall in, inventory info of packages deleted since the base
 * commit (read at that commit), the explicit `packages` list, and the git runner and commit fetching they
 * need. Both front ends use it: the action with files GitHub lists, the CLI's `resolve` with `git diff`.
 */
export { type ChangedFile, type ChangeSet, type FileStatus, parseNameStatus } from './changed-file.js';
export { type ChangedPackages, type ChangedUnit, changedPackages } from './changed-packages.js';
export { globToRegExp, resolveExplicitPackages } from './explicit-packages.js';
export { isZeroSha } from './fetch-commits.js';
export { GitError, git } from './git.js';
export { readInventoryAtCommit, unitsAtCommit } from './inventory-at-commit.js';
