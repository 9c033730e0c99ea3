import { describe, expect, it } from 'vitest';
import { catchUpLogLines, renderCatchUpSummary } from '../../../src/report/catch-up-summary.js';

describe('the catch-up job summary', () => {
  const input = {
    head: '3f2a1c0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    run: [
      { path: 'deploy/a', reason: 'changed since 1111111, the last commit applied here' },
      { path: 'deploy/gone', reason: 'deleted by this push', removed: true },
    ],
    held: [{ path: 'deploy/c', reason: 'tree of 2222222 failed; not retried until deploy/c changes' }],
    upToDate: [{ path: 'deploy/b', reason: '1111111 applied here' }],
    skipped: [{ path: 'deploy/x|y', reason: 'no deploy record | and <b>no</b> watermark' }],
  };

  it('says per package why it runs, which are held, skipped or up to date; names are escaped', () => {
    const md = renderCatchUpSummary(input);
    expect(md).toContain('### Packages to apply · `3f2a1c0`');
    expect(md).toContain('| `deploy/a` | changed since 1111111, the last commit applied here |');
    expect(md).toContain('| `deploy/gone` (deleted) | deleted by this push |');
    expect(md).toContain(
      '**Held** (a failed tree is not retried):\n\n- `deploy/c`: tree of 2222222 failed; not retried until deploy/c changes',
    );
    expect(md).toContain('- `deploy/x|y`: no deploy record | and \\<b\\>no\\</b\\> watermark');
    expect(md).toContain('**Up to date**: `deploy/b` (1111111 applied here)');
    expect(catchUpLogLines(input)).toEqual([
      'deploy/a: runs: changed since 1111111, the last commit applied here',
      'deploy/gone: runs: deleted by this push',
      'deploy/b: up to date: 1111111 applied here',
      'deploy/x|y: not applied: no deploy record | and <b>no</b> watermark',
    ]);
  });

  it('folds many up-to-date packages away, and says when nothing runs', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ path: `deploy/p${i}`, reason: 'x applied here' }));
    const md = renderCatchUpSummary({ ...input, run: [], held: [], skipped: [], upToDate: many });
    expect(md).toContain('Nothing to apply: the cluster already runs this commit.');
    expect(md).toContain('<details><summary>\n30 packages up to date\n</summary>');
  });
});
