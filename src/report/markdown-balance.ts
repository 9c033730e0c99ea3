/**
 * A checker for the two ways a truncated or badly escaped comment breaks on GitHub: a code fence left
 * open (everything after it renders as code) and `<details>`/`<summary>` tags that do not pair up (the
 * rest of the comment collapses). Tags inside code blocks are text and are not counted.
 */

export interface BalanceReport {
  balanced: boolean;
  /** What is wrong, with 1-based line numbers. */
  problems: string[];
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** Checks code fences and `<details>`/`<summary>` nesting in a markdown document. */
export function checkBalanced(markdown: string): BalanceReport {
  const problems: string[] = [];
  const lines = markdown.split('\n');
  let fence: { char: string; length: number; line: number } | undefined;
  let details: number[] = [];
  let summaries = 0;
  lines.forEach((line, i) => {
    const n = i + 1;
    if (fence) {
      const close = FENCE_CLOSE.exec(line);
      if (close && close[1][0] === fence.char && close[1].length >= fence.length) fence = undefined;
      return;
    }
    const open = FENCE_OPEN.exec(line);
    if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
      fence = { char: open[1][0], length: open[1].length, line: n };
      return;
    }
    for (const tag of line.matchAll(/<(\/?)(details|summary)(?=[\s>])[^>]*>/gi)) {
      const closing = tag[1] === '/';
      if (tag[2].toLowerCase() === 'summary') {
        summaries += closing ? -1 : 1;
        if (summaries < 0 || summaries > 1) problems.push(`line ${n}: unpaired <summary>`);
        summaries = Math.max(0, Math.min(1, summaries));
      } else if (!closing) details.push(n);
      else if (details.length === 0) problems.push(`line ${n}: </details> without an open <details>`);
      else details = details.slice(0, -1);
    }
  });
  if (fence) problems.push(`line ${fence.line}: code fence never closed`);
  for (const n of details) problems.push(`line ${n}: <details> never closed`);
  if (summaries !== 0) problems.push('a <summary> is never closed');
  return { balanced: problems.length === 0, problems };
}
