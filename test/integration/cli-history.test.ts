import { describe, expect, it } from 'vitest';
import { git as gitIn } from '../support/git-repo.js';
import { useCluster } from '../support/harness/index.js';
import { packageIn, runCli } from './cli-helpers.js';

describe('kpt-live history', () => {
  const cluster = useCluster({ namespace: false });

  it('lists one record per apply and destroy, newest first, and --history-limit bounds them', async () => {
    const ns = await cluster.namespace('clihist');
    const work = await packageIn('basic', ns);
    for (let i = 0; i < 3; i++) {
      const applied = await runCli(['apply', 'basic', '-n', ns, '--history-limit', '2'], { cwd: work });
      expect(applied.code, applied.stderr).toBe(0);
    }
    const listed = await runCli(['history', 'basic', '--output', 'json'], { cwd: work });
    expect(listed.code, listed.stderr).toBe(0);
    const records = JSON.parse(listed.stdout) as {
      mode: string;
      result: string;
      trigger: string;
      startedAt: string;
    }[];
    expect(records).toHaveLength(2);
    expect(
      records.every((r) => r.mode === 'apply' && r.result === 'success' && r.trigger.includes('@')),
    ).toBe(true);
    expect(records[0].startedAt >= records[1].startedAt).toBe(true);
    const text = await runCli(['history', 'basic'], { cwd: work });
    expect(text.stdout.split('\n').filter((l) => / apply +success /.test(l))).toHaveLength(2);
    const bad = await runCli(['apply', 'basic', '-n', ns, '--history-limit', 'zero'], { cwd: work });
    expect(bad.code).toBe(2);
  });

  it('destroy deletes the package deploy records with its inventory: nothing of ours is left', async () => {
    const { api } = cluster;
    const ns = await cluster.namespace('clihistd');
    const work = await packageIn('basic', ns);
    for (let i = 0; i < 2; i++)
      expect((await runCli(['apply', 'basic', '-n', ns], { cwd: work })).code).toBe(0);
    const records = async () =>
      (
        await api.request<{ items: unknown[] }>(
          'GET',
          `/api/v1/namespaces/${ns}/configmaps?labelSelector=kpt-live-action.dev%2Fhistory-of`,
        )
      ).body.items.length;
    expect(await records()).toBe(2);
    const destroyed = await runCli(['destroy', 'basic', '-n', ns], { cwd: work });
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(await records()).toBe(0);
    const listed = await runCli(['history', 'basic', '--output', 'json'], { cwd: work });
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });

  it("records the checkout's HEAD commit and refuses to apply an older one (looked up while the run starts)", async () => {
    const ns = await cluster.namespace('clistale');
    const work = await packageIn('basic', ns);
    const git = (...args: string[]) => gitIn(work, ...args);
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'one');
    const older = git('rev-parse', 'HEAD');
    git('commit', '-q', '--allow-empty', '-m', 'two');
    const newer = git('rev-parse', 'HEAD');
    const applied = await runCli(['apply', 'basic', '-n', ns], { cwd: work });
    expect(applied.code, applied.stderr).toBe(0);
    const records = () =>
      runCli(['history', 'basic', '--output', 'json'], { cwd: work }).then(
        (r) => JSON.parse(r.stdout) as { commit?: string }[],
      );
    expect((await records())[0].commit).toBe(newer);

    git('checkout', '-q', older);
    const stale = await runCli(['apply', 'basic', '-n', ns], { cwd: work });
    expect(stale.code).toBe(1);
    expect(stale.stderr + stale.stdout).toMatch(
      new RegExp(`commit ${older.slice(0, 12)} is older than ${newer.slice(0, 12)}`),
    );
    expect(await records()).toHaveLength(1); // refused before its first write: no record
    const allowed = await runCli(['apply', 'basic', '-n', ns, '--allow-stale'], { cwd: work });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect((await records())[0].commit).toBe(older);
  });
});
