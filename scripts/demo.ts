import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultRunOptions } from '../src/apply/run-options.js';
import { countOutcomes } from '../src/apply/run-result.js';
import { shortName } from '../src/common/object-id.js';
import { connect } from '../src/kube/connect.js';
import { type Mode, runPackage } from '../src/pipeline/run-package.js';
import { renderEventText } from '../src/report/events-text.js';
import { renderPreviewMarkdown } from '../src/report/preview-markdown.js';
import { renderPreviewText } from '../src/report/preview-text.js';
import { startControlPlane } from './control-plane/control-plane.js';
import { startKubeletSimulator } from './control-plane/kubelet-simulator.js';

/**
 * The README's first command. Starts an embedded Kubernetes control plane (building it on the first run),
 * then walks the seeds' story on examples/wordpress: preview (the PR comment), apply with reconcile waits,
 * change the package (rename a ConfigMap, bump replicas), preview again (configure + prune), apply again
 * (the prune happens), status, destroy; then examples/wordpress-with-dependencies to show waves. Stops
 * everything it started. The example packages are copied to a temporary directory, never edited in place.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'demo-output');
const say = (line = '') => console.log(line);
const step = (title: string) => say(`\n━━━ ${title} ━━━`);

step('1. start a local control plane');
say(
  'etcd + kube-apiserver + kube-controller-manager on loopback, and a kubelet simulator (pods become Ready).',
);
const cp = await startControlPlane({ log: (l) => say(`  ${l}`) });
const sim = await startKubeletSimulator(cp.admin);
const { client } = await connect({ kubeconfigPath: cp.kubeconfigPath });
let failed = false;

try {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-demo-'));
  for (const p of ['wordpress', 'wordpress-with-dependencies']) {
    fs.cpSync(path.join(root, 'examples', p), path.join(work, 'examples', p), { recursive: true });
  }
  fs.mkdirSync(outDir, { recursive: true });
  // the packages expect this Secret to exist (the seeds create it with kubectl)
  await cp.admin.request('POST', '/api/v1/namespaces/default/secrets', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'mysql-pass' },
    stringData: { password: 'demo-only-password' },
  });

  const options = defaultRunOptions({ reconcileTimeoutMs: 120_000 });
  const run = async (mode: Mode, pkg: string) => {
    const r = await runPackage(client, pkg, mode, {
      repoRoot: work,
      defaultNamespace: 'default',
      options,
      emit: (e) => {
        const line = renderEventText(e);
        if (line !== undefined) say(`  ${line}`);
      },
      onProgress: (l) => say(`  … ${l}`),
      previewContext: { cluster: 'local', targetBranch: 'main' },
    });
    if (r.error) say(`  error: ${r.error}`);
    if (r.exitCode !== 0) failed = true;
    return r;
  };
  const preview = async (pkg: string, file: string) => {
    const r = await run('preview', pkg);
    if (!r.preview) return;
    say(renderPreviewText(r.preview).replace(/^/gm, '  '));
    const md = renderPreviewMarkdown(r.preview);
    fs.writeFileSync(path.join(outDir, file), md);
    say(`\n  The PR comment (markdown, ${md.length} characters) is in demo-output/${file}:\n`);
    say(md.replace(/^/gm, '  │ '));
  };
  const summary = (r: Awaited<ReturnType<typeof run>>) => {
    const c = countOutcomes(r.run?.objects ?? []);
    say(
      `  → ${r.outcome} in ${((r.run?.durationMs ?? 0) / 1000).toFixed(1)}s: ${c.created} created, ${c.configured} configured, ${c.unchanged} unchanged, ${c.pruned} pruned, ${c.failed} failed`,
    );
  };

  step('2. preview examples/wordpress (what a reviewer sees on the pull request)');
  await preview('examples/wordpress', 'preview-1.md');

  step('3. apply it (server-side apply, inventory, reconcile waits)');
  summary(await run('apply', 'examples/wordpress'));

  step('4. change the package: rename ConfigMap wp-config-1 → wp-config-2, replicas 1 → 2');
  const cfg = path.join(work, 'examples/wordpress/config.yaml');
  fs.writeFileSync(cfg, fs.readFileSync(cfg, 'utf8').replace('name: wp-config-1', 'name: wp-config-2'));
  const dep = path.join(work, 'examples/wordpress/deployment/deployment.yaml');
  fs.writeFileSync(
    dep,
    fs.readFileSync(dep, 'utf8').replace('spec:\n  selector:', 'spec:\n  replicas: 2\n  selector:'),
  );

  step('5. preview again: one create, one configure, one prune');
  await preview('examples/wordpress', 'preview-2.md');

  step('6. apply again: the old ConfigMap is pruned');
  summary(await run('apply', 'examples/wordpress'));

  step('7. status of everything the inventory tracks');
  const st = await run('status', 'examples/wordpress');
  for (const s of st.status ?? []) say(`  ${shortName(s.id)} is ${s.status}: ${s.message}`);

  step('8. destroy');
  summary(await run('destroy', 'examples/wordpress'));

  step('9. examples/wordpress-with-dependencies: depends-on makes two waves');
  summary(await run('apply', 'examples/wordpress-with-dependencies'));
  summary(await run('destroy', 'examples/wordpress-with-dependencies'));
} finally {
  client.close();
  sim.stop();
  await cp.stop();
  step('done: stopped the control plane');
}
if (failed) {
  say('some step did not succeed (see above)');
  process.exit(1);
}
