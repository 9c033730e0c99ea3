import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/main.js';
import type { RunFlags } from '../../../src/cli/options.js';
import { explicitOptions } from '../../../src/cli/rollback-command.js';

/** The rollback command's flags as commander parses them, and where each value came from. */
function parsed(args: string[]) {
  let flags: RunFlags | undefined;
  let source: ((name: string) => string | undefined) | undefined;
  const ctx = { stdout: { write: () => true }, stderr: { write: () => true }, cwd: '/', env: {} };
  const program = buildProgram(ctx, () => {});
  const rollback = program.commands.find((c) => c.name() === 'rollback')!;
  rollback.action((_dirs: string[], f: RunFlags, cmd) => {
    flags = f;
    source = (name) => cmd.getOptionValueSource(name);
  });
  program.parse(['rollback', 'app', ...args], { from: 'user' });
  return explicitOptions(flags!, source!);
}

describe('kpt-live rollback: the settings given on the command line', () => {
  it('are those whose flags were given; the defaults leave the recorded settings alone', () => {
    expect(parsed([])).toEqual({});
    expect(parsed(['--reconcile-timeout', '2m', '--field-manager', 'platform', '--no-wait'])).toEqual({
      reconcileTimeoutMs: 120_000,
      fieldManager: 'platform',
      wait: false,
    });
    expect(parsed(['--no-preflight', '--to', 'abc1234', '--rollback-prune'])).toEqual({ preflight: 'off' });
  });
});
