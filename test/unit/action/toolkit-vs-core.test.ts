import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as core from '@actions/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as toolkit from '../../../src/action/toolkit.js';

/**
 * The action's runner toolkit replaces `@actions/core` (whose import costs start-up time): for the same
 * calls it must write the same bytes, to stdout (workflow commands, log lines) and to the files the runner
 * reads (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY). Each script below runs through both and the outputs are
 * compared byte for byte. One thing is normalised: the heredoc delimiter of a file output, which both draw
 * at random (`ghadelimiter_<uuid>`). Only the calls the toolkit offers are compared (it has no
 * exportVariable, debug or saveState: the action never calls them).
 */

interface Runner {
  info(message: string): void;
  notice(message: string, p?: toolkit.AnnotationProperties): void;
  warning(message: string, p?: toolkit.AnnotationProperties): void;
  error(message: string, p?: toolkit.AnnotationProperties): void;
  setFailed(message: string): void;
  startGroup(name: string): void;
  endGroup(): void;
  setSecret(value: string): void;
  setOutput(name: string, value: unknown): void;
  appendSummary(markdown: string): Promise<void> | void;
}

const viaCore: Runner = {
  ...core,
  // the job summary as `@actions/core` users write a block of markdown: addRaw with its newline, then write
  appendSummary: async (markdown) => {
    await core.summary.addRaw(markdown, true).write();
  },
};
const viaToolkit: Runner = { ...toolkit };

type Script = (r: Runner) => Promise<void> | void;

const scripts: [string, Script][] = [
  [
    'log lines, with what workflow commands escape left as is',
    (r) => {
      r.info('plain line');
      r.info('100% done: a, b\nsecond line');
      r.info('');
    },
  ],
  [
    'annotations without properties',
    (r) => {
      r.notice('a notice');
      r.warning('a warning');
      r.error('an error');
    },
  ],
  [
    'annotations with every property, escaped',
    (r) => {
      const at = { title: 'Deployment/web: failed, 50%', file: 'deploy/app/web.yaml', startLine: 12 };
      r.error('line one\nline two\r100%', { ...at, endLine: 14, startColumn: 3, endColumn: 9 });
      r.warning('only a title', { title: 'kpt-live-action: plan changed' });
      r.notice('a file without a line', { file: 'deploy/a,b:c.yaml' });
      r.warning('empty and zero properties are left out', { title: '', startLine: 0, file: 'x.yaml' });
    },
  ],
  [
    'annotations whose properties are all empty',
    (r) => {
      r.warning('no file to point at', { file: undefined, startLine: undefined });
      r.error('an empty title', { title: '' });
    },
  ],
  [
    'setFailed (an error annotation)',
    (r) => {
      r.setFailed('deploy/app: 2 object(s) failed\nsee the summary');
    },
  ],
  [
    'groups and masks',
    (r) => {
      r.startGroup('preview deploy/app: 3 objects');
      r.info('inside');
      r.endGroup();
      r.setSecret('s3cr3t-value');
      r.setSecret('multi\nline%secret');
    },
  ],
  [
    'outputs in GITHUB_OUTPUT: text, several lines, objects, numbers, nothing',
    (r) => {
      r.setOutput('exit-code', '0');
      r.setOutput('result', JSON.stringify({ packages: [{ outcome: 'success' }] }, null, 2));
      r.setOutput('object', { a: [1, 2], b: 'c' });
      r.setOutput('number', 3);
      r.setOutput('empty', undefined);
      r.setOutput('null', null);
    },
  ],
  [
    'outputs without GITHUB_OUTPUT (the set-output command)',
    (r) => {
      delete process.env.GITHUB_OUTPUT;
      r.setOutput('exit-code', '3');
      r.setOutput('lines', 'a\nb');
    },
  ],
  [
    'the job summary, appended block by block',
    async (r) => {
      await r.appendSummary(
        '### Preview · `deploy/app`\n\n| | object |\n|---|---|\n| ✏️ | `Deployment/web` |',
      );
      await r.appendSummary('<sub>Server-side dry-run</sub>');
    },
  ],
];

/** What a script wrote: stdout, and the runner files, delimiters normalised. */
async function outputsOf(runner: Runner, script: Script, dir: string) {
  const files = { GITHUB_OUTPUT: 'output', GITHUB_STEP_SUMMARY: 'summary', GITHUB_STATE: 'state' } as const;
  for (const [env, name] of Object.entries(files)) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, '');
    process.env[env] = file;
  }
  const written: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  try {
    await script(runner);
    toolkit.flushLog();
  } finally {
    spy.mockRestore();
  }
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  const normal = (s: string) => s.replace(/ghadelimiter_[0-9a-f-]{36}/g, 'ghadelimiter_<uuid>');
  const read = (name: string) => normal(fs.readFileSync(path.join(dir, name), 'utf8'));
  return {
    stdout: normal(written.join('')),
    exitCode,
    output: read(files.GITHUB_OUTPUT),
    summary: read(files.GITHUB_STEP_SUMMARY),
    state: read(files.GITHUB_STATE),
  };
}

describe('the toolkit writes what @actions/core writes', () => {
  let dir: string;
  const saved = { ...process.env };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolkit-vs-core-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    for (const k of ['GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY', 'GITHUB_STATE']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it.each(scripts)('%s', async (_name, script) => {
    const expected = await outputsOf(viaCore, script, dir);
    const actual = await outputsOf(viaToolkit, script, dir);
    expect(actual).toEqual(expected);
    // the comparison is about something: every script writes
    expect(`${expected.stdout}${expected.output}${expected.summary}`).not.toBe('');
  });
});
