import fs from 'node:fs';
import path from 'node:path';

const sha = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The commit HEAD names in the checkout that holds `dir`, read from the files git keeps (`.git/HEAD`, the
 * branch's loose ref, `packed-refs`; a worktree's `.git` file and `commondir`), without starting git (a spawn
 * costs a CLI run ~15–25 ms of its main thread). Null when no directory from `dir` up has a `.git` (not a
 * checkout: git would find none either). Undefined whenever the files do not say it for certain (GIT_DIR or
 * GIT_CEILING_DIRECTORIES set, an unborn branch, a ref store git keeps elsewhere such as reftable): then ask git.
 */
export function readHeadCommit(dir: string, env: NodeJS.ProcessEnv = process.env): string | null | undefined {
  if (env.GIT_DIR || env.GIT_COMMON_DIR || env.GIT_CEILING_DIRECTORIES) return undefined;
  let repoRoot = path.resolve(dir);
  while (!fs.existsSync(path.join(repoRoot, '.git'))) {
    const parent = path.dirname(repoRoot);
    if (parent === repoRoot) return null;
    repoRoot = parent;
  }
  try {
    const dotGit = path.join(repoRoot, '.git');
    let gitDir = dotGit;
    if (fs.statSync(dotGit).isFile()) {
      const m = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
      if (!m) return undefined;
      gitDir = path.resolve(repoRoot, m[1].trim());
    }
    const common = fs.existsSync(path.join(gitDir, 'commondir'))
      ? path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim())
      : gitDir;
    const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (sha.test(head)) return head;
    const ref = /^ref: (refs\/heads\/[^\s]+)$/.exec(head)?.[1];
    if (!ref || ref.split('/').some((part) => part === '..' || part.startsWith('.'))) return undefined;
    // a loose ref wins over packed-refs, as in git
    const loose = path.join(common, ref);
    if (fs.existsSync(loose)) {
      const value = fs.readFileSync(loose, 'utf8').trim();
      return sha.test(value) ? value : undefined;
    }
    const packed = path.join(common, 'packed-refs');
    if (!fs.existsSync(packed)) return undefined;
    for (const line of fs.readFileSync(packed, 'utf8').split('\n')) {
      const [value, name] = line.trim().split(' ');
      if (name === ref && sha.test(value)) return value;
    }
    return undefined;
  } catch {
    return undefined;
  }
}
