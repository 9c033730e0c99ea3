import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHeadCommit } from '../../../src/changes/head-commit.js';
import { git } from '../../support/git-repo.js';

/** A repository with two commits on main. */
function repo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-head-'));
  git(dir, 'init', '-q');
  for (const n of [1, 2]) {
    fs.writeFileSync(path.join(dir, 'f'), String(n));
    git(dir, 'add', 'f');
    git(dir, 'commit', '-q', '-m', `c${n}`);
  }
  return dir;
}

const gitHead = (dir: string) => git(dir, 'rev-parse', 'HEAD');

describe('readHeadCommit', () => {
  it('reads what git rev-parse HEAD says: a branch, a detached HEAD, packed refs, a worktree', () => {
    const dir = repo();
    expect(readHeadCommit(dir, {})).toBe(gitHead(dir));

    git(dir, 'checkout', '-q', 'HEAD~1');
    expect(readHeadCommit(dir, {})).toBe(gitHead(dir));
    git(dir, 'checkout', '-q', 'main');

    git(dir, 'pack-refs', '--all');
    expect(fs.existsSync(path.join(dir, '.git/refs/heads/main'))).toBe(false);
    expect(readHeadCommit(dir, {})).toBe(gitHead(dir));

    const wt = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-head-wt-')), 'wt');
    git(dir, 'worktree', 'add', '-q', '-b', 'side', wt, 'HEAD~1');
    expect(fs.statSync(path.join(wt, '.git')).isFile()).toBe(true);
    expect(readHeadCommit(wt, {})).toBe(gitHead(wt));
    expect(gitHead(wt)).not.toBe(gitHead(dir));
  });

  it('leaves to git what the files do not say for certain', () => {
    const unborn = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-head-'));
    git(unborn, 'init', '-q');
    expect(readHeadCommit(unborn, {})).toBeUndefined();

    const dir = repo();
    expect(readHeadCommit(dir, { GIT_DIR: path.join(dir, '.git') })).toBeUndefined();
    expect(readHeadCommit(dir, { GIT_CEILING_DIRECTORIES: os.tmpdir() })).toBeUndefined();
  });

  it('finds the checkout from a directory inside it, and knows a directory outside any', () => {
    const dir = repo();
    fs.mkdirSync(path.join(dir, 'sub/pkg'), { recursive: true });
    expect(readHeadCommit(path.join(dir, 'sub/pkg'), {})).toBe(gitHead(dir));
    // the temporary directory is in no checkout (git says so too)
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-head-'));
    expect(() => git(outside, 'rev-parse', 'HEAD')).toThrow();
    expect(readHeadCommit(outside, {})).toBeNull();
  });
});
