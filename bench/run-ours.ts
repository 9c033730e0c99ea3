/**
 * One measured run of this project's engine in its own process (cold start included): connect, then
 * runPackage in one mode (with deploy history, as the action runs it), then a JSON line on stdout. Exits by itself (no process.exit), so a handle left
 * open after the run shows up as exit latency.
 *
 *   node --import tsx bench/run-ours.ts --kubeconfig K --dir /path/to/pkg --mode apply|preview|destroy|status
 *     [--concurrency 32] [--namespace default] [--no-preflight]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultRunOptions } from '../src/apply/run-options.js';
import { connect } from '../src/kube/connect.js';
import { type Mode, runPackage } from '../src/pipeline/run-package.js';

const { values } = parseArgs({
  options: {
    kubeconfig: { type: 'string' },
    dir: { type: 'string' },
    mode: { type: 'string', default: 'apply' },
    concurrency: { type: 'string' },
    namespace: { type: 'string', default: 'default' },
    'no-preflight': { type: 'boolean', default: false },
  },
});
if (!values.kubeconfig || !values.dir) throw new Error('--kubeconfig and --dir are required');
const modes: Mode[] = ['preview', 'apply', 'destroy', 'status'];
const mode = values.mode as Mode;
if (!modes.includes(mode)) throw new Error(`--mode must be one of ${modes.join(', ')}`);

const dir = path.resolve(values.dir);
const { client } = await connect({ kubeconfigPath: values.kubeconfig });
const result = await runPackage(client, path.basename(dir), mode, {
  repoRoot: path.dirname(dir),
  defaultNamespace: values.namespace,
  options: defaultRunOptions({
    ...(values.concurrency ? { concurrency: Number(values.concurrency) } : {}),
    ...(values['no-preflight'] ? { preflight: 'off' as const } : {}),
  }),
  // deploy history as the action records it (no commit: the bench package is not in a git repository)
  history: { trigger: 'bench', keep: 20, allowStale: true },
});
client.close();

const actions: Record<string, number> = {};
for (const o of result.run?.objects ?? []) actions[o.action] = (actions[o.action] ?? 0) + 1;
process.stdout.write(
  `${JSON.stringify({
    exitCode: result.exitCode,
    outcome: result.outcome,
    error: result.error,
    actions,
    preview: result.preview?.summary,
    engineMs: result.run?.durationMs ?? result.preview?.context.durationMs,
    maxRssKb: process.resourceUsage().maxRSS,
  })}\n`,
);
process.exitCode = result.exitCode;
