import { describe, expect, it } from 'vitest';
import { cell, code, escapeText, fenced } from '../../../src/report/markdown.js';
import { checkBalanced } from '../../../src/report/markdown-balance.js';

describe('checkBalanced', () => {
  it.each<[string, string, boolean]>([
    ['plain text', 'hello\nworld', true],
    ['closed fence', '```diff\n-a\n+b\n```', true],
    ['open fence', '```diff\n-a\n', false],
    ['longer closing fence', '```\nx\n`````', true],
    ['shorter closing fence does not close', '````\n```\n', false],
    ['tilde fence not closed by backticks', '~~~\n```\n', false],
    ['details pair', '<details><summary>x</summary>\n\nbody\n</details>', true],
    ['details left open', '<details><summary>x</summary>\nbody', false],
    ['stray closing details', 'text\n</details>', false],
    ['summary left open', '<details><summary>x\n</details>', false],
    ['tags inside a code block are text', '```\n<details>\n```', true],
    [
      'details closed inside a fence does not count',
      '<details><summary>x</summary>\n```\n</details>\n```',
      false,
    ],
    [
      'nested details',
      '<details><summary>a</summary>\n<details><summary>b</summary>\n</details>\n</details>',
      true,
    ],
    ['inline triple backticks with backtick info are not a fence', '```a`b\ntext', true],
  ])('%s', (_name, markdown, balanced) => {
    expect(checkBalanced(markdown).balanced).toBe(balanced);
  });

  it('names the line of the problem', () => {
    expect(checkBalanced('a\n```\nb').problems).toEqual(['line 2: code fence never closed']);
  });
});

describe('escaping', () => {
  it('makes a code span that holds backticks', () => {
    expect(code('a`b')).toBe('``a`b``');
    expect(code('`x`')).toBe('`` `x` ``');
    expect(code('multi\nline')).toBe('`multi line`');
  });

  it('escapes every pipe in a table cell, including inside code', () => {
    expect(cell(`${code('a|b')} x|y`)).toBe('`a\\|b` x\\|y');
  });

  it('renders markup characters literally and cannot open HTML', () => {
    expect(escapeText('<details> *bold* _x_ [link](u) `c`')).toBe(
      '\\<details\\> \\*bold\\* \\_x\\_ \\[link\\](u) \\`c\\`',
    );
  });

  it('chooses a fence longer than any backtick run in the body', () => {
    const block = fenced('```\ninner\n````', 'diff');
    expect(block.startsWith('`````diff\n')).toBe(true);
    expect(checkBalanced(`${block}\nafter`).balanced).toBe(true);
  });
});
