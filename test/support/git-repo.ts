import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Throwaway git repositories for end-to-end tests: a bare origin and a working clone that commits to it. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args],
    {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  ).trim();
}

export function createOriginAndClone() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-git-'));
  const origin = path.join(root, 'origin.git');
  const work = path.join(root, 'work');
  git(root, 'init', '--bare', origin);
  git(root, 'clone', `file://${origin}`, work);
  git(work, 'checkout', '-B', 'main');
  return {
    root,
    origin,
    work,
    /** Writes (or, with `null`, deletes) files, commits them on the current branch and pushes; returns the sha. */
    commit(files: Record<string, string | null>, message = 'change'): string {
      for (const [file, text] of Object.entries(files)) {
        const p = path.join(work, file);
        if (text === null) fs.rmSync(p, { recursive: true, force: true });
        else {
          fs.mkdirSync(path.dirname(p), { recursive: true });
          fs.writeFileSync(p, text);
        }
      }
      git(work, 'add', '-A');
      git(work, 'commit', '-q', '-m', message);
      const branch = git(work, 'rev-parse', '--abbrev-ref', 'HEAD');
      git(work, 'push', '-q', 'origin', branch);
      return git(work, 'rev-parse', 'HEAD');
    },
    /** A depth-1 checkout of `ref`, as actions/checkout makes by default. */
    shallowCheckout(ref: string): string {
      const dir = fs.mkdtempSync(path.join(root, 'ws-'));
      git(root, 'clone', '-q', '--depth', '1', '--branch', ref, `file://${origin}`, dir);
      return dir;
    },
  };
}
