import fs from 'node:fs';
import path from 'node:path';

/**
 * The environment a GitHub runner gives `node dist/index.js` (workflow_dispatch, inputs as INPUT_*): the
 * package `pkg` (a directory under `work`, the workspace), the mode, the kubeconfig's text, no comment.
 */
export function actionEnv(
  work: string,
  pkg: string,
  mode: string,
  kubeconfig: string,
  inputs: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const runner = path.join(work, 'runner');
  fs.mkdirSync(runner, { recursive: true });
  const eventPath = path.join(runner, 'event.json');
  fs.writeFileSync(eventPath, '{}');
  for (const f of ['output', 'summary.md']) fs.writeFileSync(path.join(runner, f), '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'workflow_dispatch',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: 'acme/platform',
    GITHUB_SHA: '0'.repeat(40),
    GITHUB_REF: 'refs/heads/main',
    GITHUB_WORKSPACE: work,
    GITHUB_API_URL: 'http://127.0.0.1:9',
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '1',
    GITHUB_OUTPUT: path.join(runner, 'output'),
    GITHUB_STEP_SUMMARY: path.join(runner, 'summary.md'),
    RUNNER_TEMP: runner,
    INPUT_MODE: mode,
    INPUT_PACKAGES: pkg,
    INPUT_KUBECONFIG: fs.readFileSync(kubeconfig, 'utf8'),
    INPUT_COMMENT: 'false',
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  return env;
}
