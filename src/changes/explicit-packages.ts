import { stat } from 'node:fs/promises';
import path from 'node:path';
import { findPackages, groupUnits, locateFile, PackageFailure } from '../package/index.js';

const GLOB_CHARS = /[*?[]/;

/**
 * Compiles a path glob to a RegExp over posix paths relative to the repository root: `*` and `?` stay
 * within one path segment, a `**` segment spans any number of segments (`deploy/**` is everything below
 * deploy, a leading `**` segment matches at any depth, `**` alone is everything), `[abc]` is a character
 * class. No braces or
 * negation: the `packages` input lists what to deploy, one entry per line, and must read plainly.
 */
export function globToRegExp(glob: string): RegExp {
  if (glob === '**') return /^.*$/;
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === '*' && glob[i + 1] === '*') {
      const atStart = i === 0 || glob[i - 1] === '/';
      const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
      if (atStart && glob[i + 2] === '/') {
        re += '(?:.*/)?';
        i += 2;
      } else if (atStart && atEnd) {
        re += '.*';
        i += 1;
      } else {
        re += '[^/]*';
        i += 1;
      }
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else if (ch === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0) throw new Error(`glob "${glob}": "[" without "]"`);
      const body = glob
        .slice(i + 1, close)
        .replace(/^!/, '^')
        .replace(/\\/g, '\\\\');
      re += `(?!/)[${body}]`;
      i = close;
    } else re += ch.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** `./deploy/app/` → `deploy/app`; `` or `./` → `.`. */
function normalizeEntry(entry: string): string {
  const p = path.posix.normalize(entry.replace(/\\/g, '/')).replace(/\/+$/, '');
  return p === '' || p === './' ? '.' : p;
}

/**
 * Resolves the `packages` input (one path or glob per line; blank lines and `#` comments ignored) to
 * deployable units, in path order. A plain path must be a package directory; a subpackage or a
 * directory inside a unit selects that unit, with a note. A glob matches package directories, each
 * standing for its unit; packages nothing deploys are noted. A path that does not exist, is not in a
 * deployable unit, or a glob that matches nothing throws, naming the input line, so a typo never turns
 * into a run that deploys nothing and succeeds.
 */
export async function resolveExplicitPackages(
  repoRoot: string,
  patterns: string | readonly string[],
): Promise<{ paths: string[]; notes: string[] }> {
  const lines = (typeof patterns === 'string' ? patterns.split(/\r?\n/) : patterns)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const problems: string[] = [];
  const notes: string[] = [];
  const selected = new Set<string>();
  let packages: Awaited<ReturnType<typeof findPackages>> | undefined;

  for (const line of lines) {
    const entry = normalizeEntry(line);
    if (entry === '..' || entry.startsWith('../') || path.posix.isAbsolute(entry)) {
      problems.push(`"${line}" is outside the repository; list paths relative to its root`);
      continue;
    }
    if (GLOB_CHARS.test(entry)) {
      packages ??= await findPackages(repoRoot);
      const units = groupUnits(packages);
      let re: RegExp;
      try {
        re = globToRegExp(entry);
      } catch (err) {
        problems.push((err as Error).message);
        continue;
      }
      const matched = packages.filter((p) => re.test(p.dir));
      if (matched.length === 0)
        problems.push(`"${line}" matches no package directory (a directory with a Kptfile)`);
      for (const p of matched) {
        const unit = units.find((u) => u.packages.includes(p.dir));
        if (unit) selected.add(unit.dir);
        else
          notes.push(`"${line}" matches package "${p.dir}", which has no inventory info; nothing deploys it`);
      }
      continue;
    }
    const isDir = await stat(path.join(repoRoot, entry)).then(
      (s) => s.isDirectory(),
      () => undefined,
    );
    if (isDir === undefined) {
      problems.push(`"${line}" does not exist in the checkout`);
      continue;
    }
    if (!isDir) {
      problems.push(`"${line}" is a file; list the package directory that holds it`);
      continue;
    }
    try {
      const loc = await locateFile(repoRoot, entry);
      if (!loc.unit) {
        problems.push(loc.note ?? `"${line}" is not in a package (no Kptfile in it or above it)`);
        continue;
      }
      if (loc.unit !== entry)
        notes.push(`"${line}" is part of the deployable unit "${loc.unit}", which is used`);
      selected.add(loc.unit);
    } catch (err) {
      if (!(err instanceof PackageFailure)) throw err;
      problems.push(`"${line}": ${err.message}`);
    }
  }
  if (problems.length) {
    throw new Error(`input "packages": ${problems.join('; ')}`);
  }
  return { paths: [...selected].sort(), notes: [...new Set(notes)] };
}
