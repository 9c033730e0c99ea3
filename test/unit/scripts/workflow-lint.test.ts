import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every workflow of the repository and every example is linted with actionlint (and shellcheck, which it
 * runs on each `run:` script), the real tools: scripts/lint-workflows.sh builds actionlint once per machine
 * (scripts/ensure-actionlint.sh; .ci/run provides it before the tests) and ignores exactly the one message
 * its version gives for `queue`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const lint = (...files: string[]) =>
  spawnSync('bash', [path.join(root, 'scripts/lint-workflows.sh'), ...files], {
    cwd: root,
    encoding: 'utf8',
    // a first build of actionlint takes a while on a loaded machine
    timeout: 15 * 60_000,
  });

function workflow(text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wf-'));
  const file = path.join(dir, 'w.yml');
  fs.writeFileSync(file, text);
  return file;
}

const job = (steps: string, concurrency = '') => `name: w
on: push
permissions:
  contents: read
jobs:
  j:
    runs-on: ubuntu-latest
${concurrency}    steps:
${steps}`;

describe('scripts/lint-workflows.sh (actionlint 1.7.12 with shellcheck)', () => {
  it(
    'passes every workflow in .github/workflows and examples/workflows',
    () => {
      const r = lint();
      expect(r.stdout + r.stderr).not.toMatch(/\[[a-z-]+\]/);
      expect(r.status, r.stdout + r.stderr).toBe(0);
    },
    15 * 60_000,
  );

  it(
    'fails a workflow that does not parse (a run: line with ": " in it), naming the line',
    () => {
      const expression = ['$', '{{ github.sha }}'].join('');
      const file = workflow(job(`      - run: echo 'drifted packages: ${expression}'\n`));
      const r = lint(file);
      expect(r.status).not.toBe(0);
      expect(r.stdout).toMatch(
        /w\.yml:9:\d+: could not parse as YAML: mapping values are not allowed in this context/,
      );
    },
    15 * 60_000,
  );

  it(
    'ignores exactly the `queue` key of concurrency, not another unknown key',
    () => {
      const queue = '    concurrency:\n      group: g\n      cancel-in-progress: false\n      queue: max\n';
      expect(lint(workflow(job('      - run: echo ok\n', queue))).status).toBe(0);
      const typo = queue.replace('queue:', 'queues:');
      const r = lint(workflow(job('      - run: echo ok\n', typo)));
      expect(r.status).not.toBe(0);
      expect(r.stdout).toContain('unexpected key "queues" for "concurrency" section');
    },
    15 * 60_000,
  );

  it(
    'runs shellcheck on run: scripts',
    () => {
      const r = lint(workflow(job('      - run: |\n          files=$(ls)\n          echo $files\n')));
      expect(r.status).not.toBe(0);
      expect(r.stdout).toMatch(/shellcheck reported issue in this script: SC2086/);
    },
    15 * 60_000,
  );
});
