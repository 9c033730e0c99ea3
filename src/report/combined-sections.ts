import { APPLIED_MARKER } from './pr-comment-body.js';

/**
 * The text structure of the combined preview comment (one comment per pull request and `comment-key`
 * instead of one per package), as plain string functions: its marker with the part number, and one
 * section per package between two hidden lines, so a later run (or the apply job) finds a package's
 * preview, plan digest and Applied section without reading anything else:
 *
 *     <!-- kpt-live-action:preview combined part=1 key=prod -->
 *     ...table of packages...
 *     <!-- kpt-live-action:section package=deploy/a -->
 *     <details>...the package's preview...</details>
 *     <!-- kpt-live-action:plan v1 ... -->
 *     <!-- kpt-live-action:applied -->            (after the merge)
 *     ### Applied · `deploy/a` · ✅ applied ...
 *     <!-- kpt-live-action:section-end -->
 */

const COMBINED = /^<!-- kpt-live-action:preview combined part=(\d+)(?: key=(.*))? -->$/;
const SECTION_END = '<!-- kpt-live-action:section-end -->';

/** The first line of part `part` of the combined comment (`key`: the `comment-key`, when set). */
export function combinedMarker(part: number, key = ''): string {
  return `<!-- kpt-live-action:preview combined part=${part}${key ? ` key=${key}` : ''} -->`;
}

/** The part number and key a comment's first line names, if it is a combined comment's marker. */
export function parseCombinedMarker(body: string): { part: number; key: string } | undefined {
  const first = body.trimStart().split('\n', 1)[0];
  const m = first.match(COMBINED);
  return m ? { part: Number(m[1]), key: m[2] ?? '' } : undefined;
}

const encodePackage = (pkg: string) => pkg.replace(/[%>\r\n]/g, (ch) => encodeURIComponent(ch));

/** The hidden line that opens a package's section. */
export function sectionStart(pkg: string): string {
  return `<!-- kpt-live-action:section package=${encodePackage(pkg)} -->`;
}

/** A whole section: its start line, `inner`, its end line. */
export function wrapSection(pkg: string, inner: string): string {
  return `${sectionStart(pkg)}\n${inner.trim()}\n${SECTION_END}`;
}

/** Where the package's section lies in `body` (start of its first line, end after its end line). */
function sectionRange(body: string, pkg: string): { start: number; end: number } | undefined {
  const head = `${sectionStart(pkg)}\n`;
  const start = body.indexOf(head);
  if (start < 0) return undefined;
  const close = body.indexOf(SECTION_END, start + head.length);
  if (close < 0) return undefined;
  return { start, end: close + SECTION_END.length };
}

/** The text inside the package's section ('' lines trimmed), or undefined when the body has none. */
export function packageSection(body: string, pkg: string): string | undefined {
  const r = sectionRange(body, pkg);
  if (!r) return undefined;
  return body.slice(r.start + sectionStart(pkg).length + 1, r.end - SECTION_END.length).trim();
}

/** Every package that has a section in `body`, in order. */
export function sectionPackages(body: string): string[] {
  const out: string[] = [];
  for (const m of body.matchAll(/^<!-- kpt-live-action:section package=(.*) -->$/gm)) {
    try {
      out.push(decodeURIComponent(m[1]));
    } catch {
      out.push(m[1]);
    }
  }
  return out;
}

/** `body` with the package's section holding `inner` (appended at the end when it had none). */
export function replaceSection(body: string, pkg: string, inner: string): string {
  const whole = wrapSection(pkg, inner);
  const r = sectionRange(body, pkg);
  if (!r) return `${body.trimEnd()}\n\n${whole}\n`;
  return body.slice(0, r.start) + whole + body.slice(r.end);
}

/** A section's text before its Applied part. */
export function sectionPreview(inner: string): string {
  const at = inner.indexOf(APPLIED_MARKER);
  return (at < 0 ? inner : inner.slice(0, at)).trimEnd();
}

/** A section's text with `applied` (from renderAppliedSection) as its Applied part, replacing an earlier one. */
export function withSectionApplied(inner: string, applied: string): string {
  const preview = sectionPreview(inner);
  return preview ? `${preview}\n\n${applied.trim()}` : applied.trim();
}
