import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { onTestFinished } from 'vitest';
import { controlPlane } from '../support/cluster.js';

/** Running `kpt-live` from source as a subprocess, and the CLI test packages in temp directories. */

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../..');
const cliEntry = path.join(repoRoot, 'src/cli/index.ts');
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
export const goldenDir = path.join(repoRoot, 'test/golden/kpt');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  /** Called with the process once started and on every stdout chunk (to send signals at the right time). */
  onStdout?: (stdoutSoFar: string, child: ChildProcess) => void;
  /** Called on every stderr chunk with all of stderr so far (progress lines go there). */
  onStderr?: (stderrSoFar: string, child: ChildProcess) => void;
}

/** `node --import tsx src/cli/index.ts ARGS` with KUBECONFIG pointing at the shared control plane. */
export function runCli(args: string[], opts: CliOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, cliEntry, ...args], {
      cwd: opts.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, KUBECONFIG: controlPlane().kubeconfigPath, NO_COLOR: '1', ...opts.env },
    });
    const run: CliRun = { code: null, stdout: '', stderr: '' };
    child.stdout.on('data', (chunk: Buffer) => {
      run.stdout += chunk.toString();
      opts.onStdout?.(run.stdout, child);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      run.stderr += chunk.toString();
      opts.onStderr?.(run.stderr, child);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      run.code = code;
      resolve(run);
    });
  });
}

/**
 * Copies test/fixtures/cli/<fixture> into a fresh temp directory as `<workdir>/<name>`, with `NAMESPACE`
 * in its files replaced by the test's namespace; returns the work directory (run the CLI there). Call it
 * inside a test: the directory is removed when the test finishes.
 */
export async function packageIn(fixture: string, namespace: string, name = fixture): Promise<string> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'kpt-live-cli-'));
  onTestFinished(() => rm(work, { recursive: true, force: true }));
  const dir = path.join(work, name);
  await cp(path.join(repoRoot, 'test/fixtures/cli', fixture), dir, { recursive: true });
  for (const file of await readdir(dir)) {
    const abs = path.join(dir, file);
    await writeFile(abs, (await readFile(abs, 'utf8')).replaceAll('NAMESPACE', namespace));
  }
  return work;
}

/** A kpt golden with the test's namespace in place of `NAMESPACE`. */
export async function golden(file: string, namespace: string): Promise<string> {
  return (await readFile(path.join(goldenDir, file), 'utf8')).replaceAll('NAMESPACE', namespace);
}

/** JSON lines with every `timestamp` set to the goldens' fixed one. */
export function fixTimestamps(jsonLines: string): string {
  return jsonLines.replace(/"timestamp":"[^"]+"/g, '"timestamp":"2000-01-01T00:00:00Z"');
}

/**
 * Drops `reconcile pending` lines (text) and `"status":"Pending"` wait lines (JSON): kpt and kpt-live both
 * print one only for an object that was not yet reconciled when the wait began, which depends on timing.
 */
export function withoutPending(output: string): string {
  return output
    .split('\n')
    .filter(
      (l) =>
        !l.endsWith(' reconcile pending') &&
        !(l.includes('"type":"wait"') && l.includes('"status":"Pending"')),
    )
    .join('\n');
}

/** No stack trace frames anywhere in the output. */
export function hasStackTrace(text: string): boolean {
  return /^\s+at .+[:(]\d+/m.test(text);
}
