import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/cli-io.js';
import { main } from '../../../src/cli/main.js';
import { VERSION } from '../../../src/common/version.js';

/** Runs the CLI in-process with collected output; no command here reaches a cluster. */
async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    cwd: os.tmpdir(),
    env: {},
  };
  const code = await main(args, ctx);
  return { code, stdout, stderr };
}

/** A kubeconfig that does not exist: a command that got past flag parsing fails with exit 1 naming it. */
const missingKubeconfig = ['--kubeconfig', path.join(os.tmpdir(), 'kpt-live-no-such-kubeconfig')];
const pastParsing = `error: cannot use the kubeconfig: kubeconfig not found: ${path.join(os.tmpdir(), 'kpt-live-no-such-kubeconfig')}\n`;

describe('kpt-live main', () => {
  it('--version prints the package version, exit 0', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    expect(VERSION).toBe(pkg.version);
    const r = await cli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });

  it('--help lists every command and the exit codes, exit 0', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const cmd of [
      'init',
      'preview',
      'apply',
      'destroy',
      'status',
      'resolve',
      'install-resource-group',
      'migrate',
      'drift',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^  ${cmd} `, 'm'));
    }
    expect(r.stdout).toContain('Exit codes: 0 success, 1 fatal error');
    expect(r.stdout).toContain('--allow-skipped lets those pass');
  });

  it.each([
    [
      'apply',
      [
        '--reconcile-timeout',
        '--prune-propagation-policy',
        '--no-prune',
        '--wait-for-controller',
        '--progress',
        '--status-policy',
        '--allow-skipped',
        '--no-fail-fast',
      ],
    ],
    [
      'destroy',
      [
        '--prune-timeout',
        '--delete-propagation-policy',
        '--inventory-policy',
        '--dry-run',
        '--allow-skipped',
      ],
    ],
    ['preview', ['--output-file', '--field-manager', '--force-conflicts']],
    ['resolve', ['--base', '--head']],
    ['drift', ['--reconcile-timeout', '--field-manager', '--no-prune', '--output', 'Exit codes: 0 in sync']],
    ['init', ['--name', '--inventory-id', '--force']],
  ])('%s --help names its flags', async (cmd, flags) => {
    const r = await cli([cmd, '--help']);
    expect(r.code).toBe(0);
    for (const flag of flags) expect(r.stdout).toContain(flag);
  });

  it('no command prints the help on stderr and exits 2', async () => {
    const r = await cli([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: kpt-live');
  });

  it.each([
    [['apply', '--nope'], "error: unknown option '--nope'\n"],
    [['apply', '--reconcile-timeout'], "error: option '--reconcile-timeout <duration>' argument missing\n"],
    [
      ['status', '--output', 'xml'],
      "error: option '--output <format>' argument 'xml' is invalid. Allowed choices are events, json, table.\n",
    ],
    [['apply', '--progres', 'always'], "error: unknown option '--progres' (Did you mean --progress?)\n"],
    [
      ['apply', '--wait-for-controller', 'forever'],
      `error: option '--wait-for-controller <duration>' argument 'forever' is invalid. "forever" is not a duration: use a number with a unit, e.g. 90s, 2m or 1h30m (0 = no limit)\n`,
    ],
    [
      ['destroy', '--dry-run=perhaps'],
      'error: invalid argument "perhaps" for "--dry-run" flag: use true or false\n',
    ],
    [['resolve', 'a', 'b'], "error: too many arguments for 'resolve'. Expected 1 argument but got 2.\n"],
    [
      ['drift', '--output', 'markdown'],
      "error: option '--output <format>' argument 'markdown' is invalid. Allowed choices are text, json.\n",
    ],
    [['drift', '--dry-run'], "error: unknown option '--dry-run'\n"],
    [
      ['apply', '--conflicts', 'always'],
      "error: option '--conflicts <mode>' argument 'always' is invalid. Allowed choices are take-hand-edits, fail, force.\n",
    ],
    [
      ['apply', '--conflicts', 'fail', '--force-conflicts', ...missingKubeconfig],
      'error: --conflicts: "fail" contradicts --force-conflicts (which takes every field, as conflicts "force" does): set one of them\n',
    ],
    [
      [
        'preview',
        '--conflicts-take',
        'helm,kubectl-edit',
        '--conflicts-keep',
        'kubectl-edit',
        ...missingKubeconfig,
      ],
      'error: --conflicts-take and --conflicts-keep: field manager "kubectl-edit" listed in both: a manager\'s fields are either taken over or kept, not both\n',
    ],
    [
      [
        'drift',
        '--conflicts-keep',
        'a',
        '--conflicts-keep',
        'b',
        '--conflicts-take',
        'b',
        ...missingKubeconfig,
      ],
      'error: --conflicts-take and --conflicts-keep: field manager "b" listed in both: a manager\'s fields are either taken over or kept, not both\n',
    ],
  ])('%j is a usage error: one line, exit 2', async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(message);
  });

  it.each([
    [
      'apply',
      [
        '--reconcile-timeout=2m',
        '--output=json',
        '--install-resource-group',
        '--show-status-events',
        '--server-side',
        '--status-policy=all',
        '--inventory-policy=adopt',
        '--prune-timeout',
        '0',
        '--field-manager=x',
        '--force-conflicts=true',
        '--dry-run=false',
        '--no-prune',
        '--no-wait',
        '--wait-for-jobs',
        '--wait-for-controller=15s',
        '--no-fail-fast',
        '-n',
        'ns',
        '--context',
        'c',
      ],
    ],
    [
      'apply',
      [
        '--install-resource-group=false',
        '--server-side=true',
        '--prune=false',
        '--output',
        'table',
        '--progress=never',
      ],
    ],
    [
      'destroy',
      [
        '--delete-timeout=1m',
        '--delete-propagation-policy=Foreground',
        '--output=json',
        '--show-status-events',
      ],
    ],
    ['preview', ['--output=markdown', '--output-file', 'x.md', '--allow-empty-prune']],
    ['status', ['--output=json', '--wait-for-jobs']],
    ['install-resource-group', []],
    ['migrate', ['--dry-run', '--name', 'inv', '--force']],
  ])("%s accepts kpt's flag forms %j", async (cmd, flags) => {
    const r = await cli(
      [cmd, 'pkg', ...flags, ...missingKubeconfig].filter(
        (a) => !(cmd === 'install-resource-group' && a === 'pkg'),
      ),
    );
    expect(r.stderr).toBe(pastParsing);
    expect(r.code).toBe(1);
  });
});
