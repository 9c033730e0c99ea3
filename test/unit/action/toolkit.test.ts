import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  appendSummary,
  commandLine,
  flushLog,
  getInput,
  notice,
  setFailed,
  setOutput,
  warning,
} from '../../../src/action/toolkit.js';

/** What the runner reads: the workflow-command lines and the output/summary files, as @actions/core writes them. */
describe('toolkit: workflow commands', () => {
  let written: string[];
  beforeEach(() => {
    written = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  it('escapes data and properties the way the runner decodes them', () => {
    expect(commandLine('warning', { title: 'a: b, c', file: 'x%y' }, 'line1\nline2 100%\r')).toBe(
      '::warning title=a%3A b%2C c,file=x%25y::line1%0Aline2 100%25%0D',
    );
    expect(commandLine('group', {}, 'preview deploy/app')).toBe('::group::preview deploy/app');
  });

  it('drops empty annotation properties and maps the names @actions/core maps', () => {
    warning('careful', { title: 'T', startLine: 3, endLine: undefined });
    notice('plain');
    // lines are held until the end of the event loop's turn, then written at once, in order
    expect(written).toEqual([]);
    flushLog();
    expect(written).toEqual([`::warning title=T,line=3::careful${os.EOL}::notice::plain${os.EOL}`]);
  });

  it('setFailed sets exit code 1 and writes an error annotation', () => {
    setFailed('it broke');
    expect(process.exitCode).toBe(1);
    flushLog();
    expect(written).toEqual([`::error::it broke${os.EOL}`]);
  });
});

describe('toolkit: inputs and files', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolkit-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads INPUT_<NAME> with spaces as underscores, upper case, trimmed', () => {
    const env = { 'INPUT_GITHUB-TOKEN': '  t0k  ', INPUT_MY_INPUT: 'v' };
    expect(getInput('github-token', env)).toBe('t0k');
    expect(getInput('my input', env)).toBe('v');
    expect(getInput('missing', env)).toBe('');
  });

  it('writes outputs as heredoc entries with a fresh delimiter each', () => {
    const file = path.join(dir, 'output');
    fs.writeFileSync(file, '');
    setOutput('result', '{"a":1}\nsecond line', { GITHUB_OUTPUT: file });
    setOutput('count', 3, { GITHUB_OUTPUT: file });
    const text = fs.readFileSync(file, 'utf8');
    const entries = [...text.matchAll(/^(\w+)<<(ghadelimiter_[0-9a-f-]{36})\n([\s\S]*?)\n\2\n/gm)];
    expect(entries.map((m) => [m[1], m[3]])).toEqual([
      ['result', '{"a":1}\nsecond line'],
      ['count', '3'],
    ]);
    expect(entries[0][2]).not.toBe(entries[1][2]);
  });

  it('appends to the job summary, and refuses a missing summary file', () => {
    const file = path.join(dir, 'summary.md');
    fs.writeFileSync(file, '# before\n');
    appendSummary('## package', { GITHUB_STEP_SUMMARY: file });
    expect(fs.readFileSync(file, 'utf8')).toBe(`# before\n## package${os.EOL}`);
    expect(() => appendSummary('x', {})).toThrow(/GITHUB_STEP_SUMMARY/);
    expect(() => appendSummary('x', { GITHUB_STEP_SUMMARY: path.join(dir, 'nope.md') })).toThrow(
      /Missing file/,
    );
  });
});
