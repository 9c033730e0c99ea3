/**
 * Escaping for GitHub-flavoured markdown. Object names, server errors and diffs are untrusted text: any of
 * them could otherwise end a table cell, open a code fence or close a `<details>` block early.
 */

/** Escapes text for HTML contexts (`<summary>`, `<sub>`). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** One line of text: line breaks become spaces, so a message cannot start a new block. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/**
 * Inline text that renders literally: markdown punctuation is backslash-escaped, `<`/`>` too (so no HTML
 * tag can form). Pipes are left for `cell` to escape, so a value outside a table reads naturally.
 */
export function escapeText(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]<>#~!]/g, (ch) => `\\${ch}`);
}

/** An inline code span that holds any text: the fence is longer than any backtick run inside. */
export function code(text: string): string {
  const content = oneLine(text);
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = content.startsWith('`') || content.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${content}${pad}${fence}`;
}

/** A table cell: GitHub splits cells on `|` even inside code spans, so every pipe is escaped last. */
export function cell(markdown: string): string {
  return markdown.replace(/\|/g, '\\|');
}

/** A fenced code block whose fence outlasts any backtick run in `body`, so the body cannot close it. */
export function fenced(body: string, info = ''): string {
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${body}\n${fence}`;
}

/** Truncates to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
