import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { PackageFailure } from './package-error.js';

/** A path that was checked to stay inside the root: its real location and its posix path from the root. */
export interface SafePath {
  /** The root with symlinks resolved. */
  realRoot: string;
  /** Absolute real path (symlinks resolved for the part that exists). */
  abs: string;
  /** Relative to `realRoot`, posix separators, `.` for the root itself. */
  rel: string;
}

/** Posix form of a relative path, `.` for the empty path, so ids and messages look the same on every OS. */
export function toPosix(rel: string): string {
  const p = rel.split(path.sep).join('/');
  return p === '' ? '.' : p;
}

function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Resolves the real path of `abs`, or of its deepest existing ancestor plus the missing rest: a file a pull
 * request deleted still has to map to a package, and must not escape through a symlinked parent.
 */
async function realpathLenient(abs: string): Promise<string> {
  const missing: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      const real = await realpath(cur);
      return missing.length ? path.join(real, ...missing.reverse()) : real;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
      const parent = path.dirname(cur);
      if (parent === cur) return abs;
      missing.push(path.basename(cur));
      cur = parent;
    }
  }
}

/**
 * Checks that `target` (relative to `root`, or absolute) stays inside `root`, both as written (`..`) and
 * after resolving symlinks, because a package path comes from a workflow file or a pull request and must
 * never make us read or write outside the repository. Throws a PackageFailure naming the path and the fix.
 */
export async function resolveInside(root: string, target: string, what = 'path'): Promise<SafePath> {
  const lexicalRoot = path.resolve(root);
  const realRoot = await realpath(lexicalRoot).catch(() => {
    throw new PackageFailure([
      { message: `root directory "${root}" does not exist`, fix: 'run from the repository checkout' },
    ]);
  });
  const lexical = path.resolve(lexicalRoot, target);
  const fix = 'use a path inside the repository (no "..", no symlinks that point outside it)';
  if (!isInside(lexicalRoot, lexical) && !isInside(realRoot, lexical)) {
    throw new PackageFailure([
      {
        message: `${what} "${target}" resolves outside the repository root "${realRoot}"`,
        file: target,
        fix,
      },
    ]);
  }
  const abs = await realpathLenient(lexical);
  if (!isInside(realRoot, abs)) {
    throw new PackageFailure([
      {
        message: `${what} "${target}" is a symlink (or inside one) that points to "${abs}", outside the repository root "${realRoot}"`,
        file: toPosix(path.relative(lexicalRoot, lexical)),
        fix,
      },
    ]);
  }
  return { realRoot, abs, rel: toPosix(path.relative(realRoot, abs)) };
}
