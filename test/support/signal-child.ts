/**
 * A separate process that runs one package the way the CLI would, with SIGINT and SIGTERM wired to an
 * AbortController, and prints every engine event as a JSON line (signals too), so a test can cancel it as
 * a CI runner does. Usage: node --import tsx signal-child.ts <kubeconfig> <repo> <pkg> <namespace> [apply|destroy]
 */
import { defaultRunOptions } from '../../src/apply/run-options.js';
import { connect } from '../../src/kube/connect.js';
import { runPackage } from '../../src/pipeline/run-package.js';

const [kubeconfigPath, repoRoot, rel, namespace, mode = 'apply'] = process.argv.slice(2);
const line = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
const abort = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    line({ type: 'signal', signal: sig, at: Date.now() });
    process.stderr.write(`received ${sig}: not starting new work; saving the inventory before exiting\n`);
    abort.abort();
  });
}
const { client } = await connect({ kubeconfigPath });
const result = await runPackage(client, rel, mode === 'destroy' ? 'destroy' : 'apply', {
  repoRoot,
  defaultNamespace: namespace,
  options: defaultRunOptions({ concurrency: 2, reconcileTimeoutMs: 120_000, lockLeaseSeconds: 5 }),
  emit: (e) => line(e),
  signal: abort.signal,
});
line({ type: 'done', exitCode: result.exitCode, error: result.error, at: Date.now() });
if (result.error) process.stderr.write(`error: ${result.error}\n`);
client.close();
process.exit(result.exitCode);
