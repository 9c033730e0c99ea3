import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCluster } from '../support/harness/index.js';
import { fixTimestamps, golden, packageIn, runCli, withoutPending } from './cli-helpers.js';

/**
 * `kpt-live apply|destroy|status` against the outputs kpt 1.0.0-beta.56 printed for the same package and
 * the same steps (test/golden/kpt/README.md says how they were recorded). Byte for byte, except that
 * `reconcile pending` lines are dropped on both sides where a Deployment may or may not be ready when the
 * wait begins, status lines are compared as a set (kpt prints them in the order its poller answers), and a
 * destroy's wait lines as a set per wait phase (the order the server confirms deletions differs by version).
 */

const sortLines = (text: string) => text.split('\n').filter(Boolean).sort().join('\n');

/**
 * Each run of consecutive wait lines sorted: they follow the order in which the server confirms the deletions.
 * 1.20 answers a Service DELETE with a `Status` (gone at once, no watch), current servers with the object (gone
 * when the watch says so), so the same destroy prints its wait lines in another order there.
 */
const isWait = (line: string) => / reconcile |"type":"wait"/.test(line);
const sortWaitRuns = (text: string) => {
  const out: string[] = [];
  let run: string[] = [];
  for (const line of text.split('\n')) {
    if (isWait(line)) run.push(line);
    else {
      out.push(...run.sort(), line);
      run = [];
    }
  }
  return [...out, ...run.sort()].join('\n');
};

type Format = 'events' | 'json';
const ext = (format: Format) => (format === 'events' ? 'events.txt' : 'jsonl');

describe.each<Format>(['events', 'json'])('kpt-live --output %s matches kpt', (format) => {
  const cluster = useCluster({ namespace: false });
  it('dry-run, create, unchanged, status, dry-run prune, prune, destroy', async () => {
    const ns = await cluster.namespace(`cli-golden-${format}`);
    const cwd = await packageIn('basic', ns);
    const flags = ['-n', ns, '--output', format, '--reconcile-timeout', '90s'];
    const normal = (out: string) => (format === 'json' ? fixTimestamps(out) : out);
    type Compare = 'exact' | 'pending' | 'sorted' | 'waits-unordered';
    const step = async (args: string[], goldenFile: string, compare: Compare) => {
      const run = await runCli(args, { cwd });
      expect(run.stderr, `${args.join(' ')}: stderr`).toBe('');
      expect(run.code, `${args.join(' ')}: exit code`).toBe(0);
      const want = await golden(goldenFile, ns);
      const got = normal(run.stdout);
      if (compare === 'exact') expect(got).toBe(want);
      else if (compare === 'pending') expect(withoutPending(got)).toBe(withoutPending(want));
      else if (compare === 'waits-unordered')
        expect(sortWaitRuns(withoutPending(got))).toBe(sortWaitRuns(withoutPending(want)));
      else expect(sortLines(got)).toBe(sortLines(want));
    };

    await step(['apply', 'basic', '--dry-run', ...flags], `apply-dry-create.${ext(format)}`, 'exact');
    await step(['apply', 'basic', ...flags], `apply-create.${ext(format)}`, 'pending');
    await step(['apply', 'basic', ...flags], `apply-unchanged.${ext(format)}`, 'exact');
    await step(['status', 'basic', '--output', format], `status.${ext(format)}`, 'sorted');

    const cm = path.join(cwd, 'basic/configmap.yaml');
    await writeFile(cm, (await readFile(cm, 'utf8')).replace('config-map-1', 'config-map-2'));
    await step(['apply', 'basic', '--dry-run', ...flags], `apply-dry-prune.${ext(format)}`, 'exact');
    await step(['apply', 'basic', ...flags], `apply-prune.${ext(format)}`, 'pending');
    await step(['destroy', 'basic', '--output', format], `destroy.${ext(format)}`, 'waits-unordered');
  }, 240_000);
});
