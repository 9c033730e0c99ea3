import { describe, expect, it } from 'vitest';
import { diffLines, type LineOp, unifiedDiff } from '../../../src/preview/diff-lines.js';

/** Length of a longest common subsequence, by dynamic programming: the reference the diff must meet. */
function lcs(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = x === b[j - 1] ? diag + 1 : Math.max(row[j], row[j - 1]);
      diag = up;
    }
  }
  return row[b.length];
}

function side(ops: LineOp[], keep: '-' | '+'): string[] {
  return ops.filter((op) => op.op === ' ' || op.op === keep).map((op) => op.line);
}

/** A small deterministic generator so failures reproduce. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('diffLines', () => {
  it('rebuilds both sides and keeps a longest common subsequence (random inputs)', () => {
    const rnd = random(42);
    for (let round = 0; round < 300; round++) {
      const a = Array.from({ length: Math.floor(rnd() * 25) }, () => 'abcde'[Math.floor(rnd() * 5)]);
      const b = Array.from({ length: Math.floor(rnd() * 25) }, () => 'abcde'[Math.floor(rnd() * 5)]);
      const ops = diffLines(a, b);
      expect(side(ops, '-')).toEqual(a);
      expect(side(ops, '+')).toEqual(b);
      expect(ops.filter((op) => op.op === ' ').length).toBe(lcs(a, b));
    }
  });

  it('lists removals before additions within a changed block', () => {
    expect(diffLines(['a', 'x', 'y', 'b'], ['a', 'p', 'q', 'b']).map((op) => op.op + op.line)).toEqual([
      ' a',
      '-x',
      '-y',
      '+p',
      '+q',
      ' b',
    ]);
  });

  it('stays correct when the edit distance exceeds the search limit', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 3000 }, (_, i) => `b${i}`);
    const ops = diffLines(['top', ...a, 'end'], ['top', ...b, 'end']);
    expect(side(ops, '-')).toEqual(['top', ...a, 'end']);
    expect(side(ops, '+')).toEqual(['top', ...b, 'end']);
  });
});

describe('unifiedDiff', () => {
  const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');

  it('is empty for equal texts', () => {
    expect(unifiedDiff(before, before)).toBe('');
  });

  it('shows 3 lines of context and separates distant hunks with @@', () => {
    const after = before.replace('line 2\n', 'line two\n').replace('line 15\n', 'line fifteen\n');
    expect(unifiedDiff(before, after)).toBe(
      [' line 0', ' line 1', '-line 2', '+line two', ' line 3', ' line 4', ' line 5', '@@']
        .concat([
          ' line 12',
          ' line 13',
          ' line 14',
          '-line 15',
          '+line fifteen',
          ' line 16',
          ' line 17',
          ' line 18',
        ])
        .join('\n'),
    );
  });

  it('merges hunks whose context overlaps', () => {
    const after = before.replace('line 5\n', 'five\n').replace('line 10\n', 'ten\n');
    expect(unifiedDiff(before, after)).not.toContain('@@');
  });

  it('honours a custom context', () => {
    const after = before.replace('line 10\n', 'ten\n');
    expect(unifiedDiff(before, after, 1)).toBe(' line 9\n-line 10\n+ten\n line 11');
  });

  it('renders a create as all additions', () => {
    expect(unifiedDiff('', 'a: 1\nb: 2\n')).toBe('+a: 1\n+b: 2');
  });
});
