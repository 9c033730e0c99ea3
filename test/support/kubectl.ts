import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { controlPlane } from './cluster.js';
import { type ToolResult, testTool } from './test-tools.js';

/** kubectl's discovery cache, per test process (not the user's ~/.kube/cache). */
let cacheDir: string | undefined;

/**
 * Real `kubectl ARGS` against the test server, as the admin user (`--kubeconfig` of the control plane).
 * Throws on a non-zero exit unless `allowFailure`; `env` adds variables (KUBE_EDITOR for `kubectl edit`).
 */
export function kubectl(
  args: string[],
  opts: { input?: string; env?: NodeJS.ProcessEnv; allowFailure?: boolean; kubeconfig?: string } = {},
): Promise<ToolResult> {
  cacheDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-kubectl-cache-'));
  const full = [
    `--kubeconfig=${opts.kubeconfig ?? controlPlane().kubeconfigPath}`,
    `--cache-dir=${cacheDir}`,
    ...args,
  ];
  return new Promise((resolve, reject) => {
    const child = execFile(
      testTool('kubectl'),
      full,
      { env: { PATH: process.env.PATH, HOME: os.tmpdir(), ...opts.env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        if (code !== 0 && !opts.allowFailure)
          reject(new Error(`kubectl ${args.join(' ')} exited ${code}: ${stderr || stdout}`));
        else resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(opts.input ?? '');
  });
}

/** `kubectl get ... -o json --show-managed-fields`, parsed. */
export async function kubectlGet<T = Record<string, unknown>>(args: string[]): Promise<T> {
  const r = await kubectl(['get', ...args, '-o', 'json', '--show-managed-fields']);
  return JSON.parse(r.stdout) as T;
}

/**
 * `kubectl edit TARGET` without a terminal: the editor is a script that runs `sed -i -e EXPR` on the file
 * kubectl hands it (YAML), as a user's editor would change and save it.
 */
export async function kubectlEdit(args: string[], sedExpression: string): Promise<ToolResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-editor-'));
  const editor = path.join(dir, 'editor.sh');
  fs.writeFileSync(editor, '#!/bin/sh\nexec sed -i -e "$KPT_LIVE_EDIT_SED" "$1"\n', { mode: 0o755 });
  try {
    return await kubectl(['edit', ...args], {
      env: { KUBE_EDITOR: editor, KPT_LIVE_EDIT_SED: sedExpression },
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
