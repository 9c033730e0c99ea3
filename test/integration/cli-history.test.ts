import { describe, expect, it } from 'vitest';
import { adminClient, createNamespace } from '../support/cluster.js';
import { packageIn, runCli } from './cli-helpers.js';

describe('kpt-live history', () => {
  it('lists one record per apply and destroy, newest first, and --history-limit bounds them', async () => {
    const ns = await createNamespace(adminClient(), 'clihist');
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
    const api = adminClient();
    const ns = await createNamespace(api, 'clihistd');
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
});
