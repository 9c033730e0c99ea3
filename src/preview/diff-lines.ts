/**
 * A line diff (Myers' O(ND) algorithm) and its unified rendering. Written here rather than taken from a
 * package because the output format is ours: ` `/`-`/`+` prefixes, no `---`/`+++` headers, and hunks
 * separated by a bare `@@` line, which GitHub's ```diff highlighting shows as a separator.
 */

export type LineOp = { op: ' ' | '-' | '+'; line: string };

/** Beyond this many differences the middle is shown as removed-then-added (memory stays ~D²). */
const MAX_EDIT_DISTANCE = 2000;

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function commonSuffix(a: readonly string[], b: readonly string[], prefix: number): number {
  let i = 0;
  while (i < a.length - prefix && i < b.length - prefix && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}

/** Myers' greedy forward search; `trace[d][k + d]` is the furthest x on diagonal k after d edits. */
function myers(a: readonly string[], b: readonly string[]): LineOp[] | undefined {
  const n = a.length;
  const m = b.length;
  const trace: Int32Array[] = [];
  for (let d = 0; d <= n + m; d++) {
    if (d > MAX_EDIT_DISTANCE) return undefined;
    const prev = trace[d - 1];
    const cur = new Int32Array(2 * d + 1);
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (d === 0) x = 0;
      else if (k === -d || (k !== d && prev[k - 1 + d - 1] < prev[k + 1 + d - 1])) x = prev[k + 1 + d - 1];
      else x = prev[k - 1 + d - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      cur[k + d] = x;
      if (x >= n && y >= m) {
        trace.push(cur);
        return backtrack(a, b, trace, d, k);
      }
    }
    trace.push(cur);
  }
  return [];
}

function backtrack(
  a: readonly string[],
  b: readonly string[],
  trace: Int32Array[],
  end: number,
  endK: number,
) {
  const ops: LineOp[] = [];
  let k = endK;
  let x = trace[end][k + end];
  for (let d = end; d > 0; d--) {
    const prev = trace[d - 1];
    const down = k === -d || (k !== d && prev[k - 1 + d - 1] < prev[k + 1 + d - 1]);
    const prevK = down ? k + 1 : k - 1;
    const prevX = prev[prevK + d - 1];
    const startX = down ? prevX : prevX + 1;
    for (; x > startX; x--) ops.push({ op: ' ', line: a[x - 1] });
    if (down) ops.push({ op: '+', line: b[prevX - prevK] });
    else ops.push({ op: '-', line: a[prevX] });
    x = prevX;
    k = prevK;
  }
  for (; x > 0; x--) ops.push({ op: ' ', line: a[x - 1] });
  return ops.reverse();
}

/** Within each run of changes, removals first: how people read a replaced block. */
function groupChanges(ops: LineOp[]): LineOp[] {
  const out: LineOp[] = [];
  let removed: LineOp[] = [];
  let added: LineOp[] = [];
  const flush = () => {
    out.push(...removed, ...added);
    removed = [];
    added = [];
  };
  for (const op of ops) {
    if (op.op === ' ') {
      flush();
      out.push(op);
    } else (op.op === '-' ? removed : added).push(op);
  }
  flush();
  return out;
}

/** Every line of `a` and `b` as kept (` `), removed (`-`) or added (`+`), in order. */
export function diffLines(a: readonly string[], b: readonly string[]): LineOp[] {
  const prefix = commonPrefix(a, b);
  const suffix = commonSuffix(a, b, prefix);
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  const middle = myers(midA, midB) ?? [
    ...midA.map((line): LineOp => ({ op: '-', line })),
    ...midB.map((line): LineOp => ({ op: '+', line })),
  ];
  return groupChanges([
    ...a.slice(0, prefix).map((line): LineOp => ({ op: ' ', line })),
    ...middle,
    ...a.slice(a.length - suffix).map((line): LineOp => ({ op: ' ', line })),
  ]);
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * A unified diff of two texts with `context` unchanged lines around each change; '' when they are equal.
 * Hunks further apart than twice the context are separated by a line `@@`.
 */
export function unifiedDiff(before: string, after: string, context = 3): string {
  const ops = diffLines(splitLines(before), splitLines(after));
  const keep = new Array<boolean>(ops.length).fill(false);
  ops.forEach((op, i) => {
    if (op.op === ' ') return;
    for (let j = Math.max(0, i - context); j <= Math.min(ops.length - 1, i + context); j++) keep[j] = true;
  });
  const out: string[] = [];
  let gap = false;
  ops.forEach((op, i) => {
    if (!keep[i]) {
      gap = out.length > 0;
      return;
    }
    if (gap) out.push('@@');
    gap = false;
    out.push(op.op + op.line);
  });
  return out.join('\n');
}
