import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const distIndex = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/index.js');

export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/**
 * Runs the bundled action (`node dist/index.js`) exactly as a runner does: inputs as INPUT_* variables,
 * the event payload in GITHUB_EVENT_PATH, outputs and the job summary in files.
 */
export async function runAction(opts: {
  event: 'pull_request' | 'pull_request_target' | 'push' | 'workflow_dispatch' | 'schedule' | 'merge_group';
  payload: Record<string, unknown>;
  inputs: Record<string, string>;
  workspace: string;
  apiUrl: string;
  sha: string;
  ref: string;
  /** The Node binary to run it with; default this process's (tests also pass Node 24, see node24.ts). */
  node?: string;
  /** More environment (e.g. another GITHUB_RUN_ID). */
  env?: Record<string, string>;
}): Promise<ActionRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-runner-'));
  const eventPath = path.join(dir, 'event.json');
  const outputPath = path.join(dir, 'output');
  const summaryPath = path.join(dir, 'summary.md');
  fs.writeFileSync(eventPath, JSON.stringify(opts.payload));
  fs.writeFileSync(outputPath, '');
  fs.writeFileSync(summaryPath, '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: opts.event,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: 'acme/platform',
    GITHUB_SHA: opts.sha,
    GITHUB_REF: opts.ref,
    GITHUB_WORKSPACE: opts.workspace,
    GITHUB_API_URL: opts.apiUrl,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '4242',
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    RUNNER_TEMP: dir,
    ...opts.env,
  };
  for (const [k, v] of Object.entries(opts.inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  return new Promise((resolve, reject) => {
    const proc = spawn(opts.node ?? process.execPath, [distIndex], {
      cwd: opts.workspace,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    proc.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    proc.on('error', reject);
    proc.on('exit', (code) => {
      resolve({
        code: code ?? -1,
        stdout,
        stderr,
        outputs: parseOutputs(fs.readFileSync(outputPath, 'utf8')),
        summary: fs.readFileSync(summaryPath, 'utf8'),
      });
    });
  });
}

/** The runner's GITHUB_OUTPUT file format: `name<<DELIM\nvalue\nDELIM`. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i]);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]);
    out[m[1]] = value.join('\n');
  }
  return out;
}
