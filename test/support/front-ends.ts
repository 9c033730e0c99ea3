import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/**
 * How the reliability tests start the two front ends as separate processes: the CLI from source (tsx) and
 * the bundled action (`node dist/index.js`) with the environment a runner gives it.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const distIndex = path.join(root, 'dist/index.js');
export const cliEntry = path.join(root, 'src/cli/index.ts');
/** tsx by file URL: a child whose cwd is a package's repository cannot resolve the bare name `tsx`. */
export const tsxLoader = pathToFileURL(path.join(root, 'node_modules/tsx/dist/loader.mjs')).href;

export interface ProcessResult {
  code: number;
  /** stdout then stderr. */
  out: string;
}

/** Runs node with `args` to completion; a non-zero exit is a result, not an error. */
export function runNode(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<ProcessResult> {
  return promisify(execFile)(process.execPath, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof e.code === 'number' ? e.code : -1,
      out: (e.stdout ?? '') + (e.stderr ?? ''),
    }),
  );
}

/** `kpt-live <args>` from source, in `cwd`, without the debug stack traces. */
export function runCli(args: string[], cwd: string): Promise<ProcessResult> {
  return runNode(['--import', tsxLoader, cliEntry, ...args], {
    cwd,
    env: { ...process.env, KPT_LIVE_DEBUG: '' },
  });
}

/**
 * The environment a runner gives the action for a `workflow_dispatch` run of `packages` in `workspace`
 * (no GitHub API needed: the packages are explicit), plus the given inputs.
 */
export function actionEnv(opts: {
  workspace: string;
  packages: string;
  kubeconfig: string;
  namespace: string;
  inputs?: Record<string, string>;
}): NodeJS.ProcessEnv {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-runner-'));
  const eventPath = path.join(dir, 'event.json');
  fs.writeFileSync(eventPath, JSON.stringify({ ref: 'refs/heads/main', inputs: {} }));
  for (const f of ['output', 'summary.md']) fs.writeFileSync(path.join(dir, f), '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'workflow_dispatch',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: 'acme/platform',
    GITHUB_SHA: 'a'.repeat(40),
    GITHUB_REF: 'refs/heads/main',
    GITHUB_WORKSPACE: opts.workspace,
    GITHUB_API_URL: 'http://127.0.0.1:9',
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '4242',
    GITHUB_OUTPUT: path.join(dir, 'output'),
    GITHUB_STEP_SUMMARY: path.join(dir, 'summary.md'),
    RUNNER_TEMP: dir,
    INPUT_MODE: 'apply',
    INPUT_PACKAGES: opts.packages,
    INPUT_KUBECONFIG: opts.kubeconfig,
    INPUT_NAMESPACE: opts.namespace,
  };
  for (const [k, v] of Object.entries(opts.inputs ?? {})) env[`INPUT_${k.toUpperCase()}`] = v;
  return env;
}
