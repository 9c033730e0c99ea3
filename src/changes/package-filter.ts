import path from 'node:path';
import { globToRegExp, resolveExplicitPackages } from './explicit-packages.js';

const GLOB_CHARS = /[*?[]/;

/**
 * The `packages` input as a filter (on push: over the catch-up set). Each line resolves as an explicit
 * package list does (a package directory, a directory inside a unit, or a glob over package
 * directories), and may also name a unit deleted from the checkout (`gone`). A line that matches
 * nothing, present or gone, is an error naming it, so a typo never silently filters everything out.
 */
export async function resolvePackageFilter(
  repoRoot: string,
  lines: readonly string[],
  gone: readonly string[],
): Promise<{ units: Set<string>; gone: Set<string>; notes: string[] }> {
  const units = new Set<string>();
  const goneMatched = new Set<string>();
  const notes: string[] = [];
  const problems: string[] = [];
  for (const line of lines) {
    const entry = path.posix.normalize(line.replace(/\\/g, '/')).replace(/\/+$/, '') || '.';
    let hits: string[] = [];
    try {
      const re = GLOB_CHARS.test(entry) ? globToRegExp(entry) : undefined;
      hits = gone.filter((g) => (re ? re.test(g) : g === entry || g.startsWith(`${entry}/`)));
    } catch {
      // a bad glob: resolveExplicitPackages says what is wrong with it
    }
    for (const g of hits) goneMatched.add(g);
    try {
      const r = await resolveExplicitPackages(repoRoot, [line]);
      for (const p of r.paths) units.add(p);
      notes.push(...r.notes);
    } catch (err) {
      if (hits.length === 0) problems.push((err as Error).message.replace(/^input "packages": /, ''));
    }
  }
  if (problems.length) throw new Error(`input "packages": ${problems.join('; ')}`);
  return { units, gone: goneMatched, notes: [...new Set(notes)] };
}
