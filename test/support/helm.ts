import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { controlPlane } from './cluster.js';
import { type ToolResult, testTool } from './test-tools.js';

/** Helm's own folders (repositories, cache, plugins) in one temp directory per test process. */
let home: string | undefined;

/**
 * Real `helm ARGS` (Helm 3.22.0, built from Go modules) against the test server as the admin user, with
 * Helm's folders in a temp directory. Throws on a non-zero exit.
 */
export function helm(args: string[], opts: { cwd?: string } = {}): Promise<ToolResult> {
  home ??= fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-helm-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    HELM_CACHE_HOME: path.join(home, 'cache'),
    HELM_CONFIG_HOME: path.join(home, 'config'),
    HELM_DATA_HOME: path.join(home, 'data'),
    KUBECONFIG: controlPlane().kubeconfigPath,
  };
  return new Promise((resolve, reject) => {
    execFile(
      testTool('helm'),
      args,
      { env, cwd: opts.cwd ?? home, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`helm ${args.join(' ')} exited ${err.code}: ${stderr || stdout}`));
        else resolve({ code: 0, stdout, stderr });
      },
    );
  });
}

/** `helm create NAME` in a fresh temp directory (Helm's starter chart: nginx Deployment, Service, ServiceAccount); returns the chart's path. */
export async function helmCreateChart(name: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-chart-'));
  await helm(['create', name], { cwd: dir });
  return path.join(dir, name);
}

/**
 * What a user renders to turn a release into a kpt package: `helm get values RELEASE -o yaml` (the values the
 * release was installed with), then `helm template RELEASE CHART -n NAMESPACE -f values.yaml`. Returns the
 * rendered YAML (Helm's test hooks left out with `--skip-tests`: they are not part of the release's objects).
 */
export async function helmTemplateRelease(
  release: string,
  namespace: string,
  chart: string,
): Promise<string> {
  const values = await helm(['get', 'values', release, '-n', namespace, '-o', 'yaml']);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-values-')), 'values.yaml');
  fs.writeFileSync(file, values.stdout);
  const out = await helm(['template', release, chart, '-n', namespace, '-f', file, '--skip-tests']);
  return out.stdout;
}
