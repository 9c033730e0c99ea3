/**
 * A separate process that applies one package and prints every engine event as a JSON line, so a test can
 * SIGKILL it at a chosen point. Usage: node --import tsx apply-child.ts <kubeconfig> <repo> <pkg> <namespace>
 */
import { defaultRunOptions } from '../../src/apply/run-options.js';
import { connect } from '../../src/kube/connect.js';
import { runPackage } from '../../src/pipeline/run-package.js';

const [kubeconfigPath, repoRoot, rel, namespace] = process.argv.slice(2);
const { client } = await connect({ kubeconfigPath });
const result = await runPackage(client, rel, 'apply', {
  repoRoot,
  defaultNamespace: namespace,
  options: defaultRunOptions({ concurrency: 2, reconcileTimeoutMs: 60_000, lockLeaseSeconds: 3 }),
  emit: (e) => process.stdout.write(`${JSON.stringify(e)}\n`),
});
process.stdout.write(`${JSON.stringify({ type: 'done', exitCode: result.exitCode, error: result.error })}\n`);
client.close();
process.exit(result.exitCode);
