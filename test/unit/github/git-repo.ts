import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Throwaway git repositories in a temp dir: a working repo, its bare origin, and shallow clones of it. */

const identity = [
  '-c',
  'user.name=Test',
  '-c',
  'user.email=test@example.invalid',
  '-c',
  'commit.gpgsign=false',
];

export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...identity, ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  }).trim();
}

export interface Sandbox {
  dir: string;
  /** Working repository that commits and pushes to `origin`. */
  work: string;
  /** Bare repository, the `origin` of `work` and of clones. */
  origin: string;
  /** Writes (string) or deletes (null) files in `work`, commits them all, returns the commit SHA. */
  commit(files: Record<string, string | null>, message?: string): string;
  /**
   * Commits many files on the current branch with `git fast-import`, without writing them to the work
   * tree (creating thousands of files is slow on this file system). Leaves the work tree behind HEAD,
   * so use it last before pushing.
   */
  bulkCommit(files: Record<string, string>, message?: string): string;
  push(ref?: string): void;
  /** `git clone --depth 1 --branch <branch> file://origin`, like actions/checkout. */
  shallowClone(branch: string, name?: string): string;
  cleanup(): void;
}

export function makeSandbox(): Sandbox {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kpt-live-gh-'));
  const work = path.join(dir, 'work');
  const origin = path.join(dir, 'origin.git');
  mkdirSync(work);
  sh(dir, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
  sh(work, 'init', '--quiet', '--initial-branch=main');
  sh(work, 'remote', 'add', 'origin', origin);
  let n = 0;
  return {
    dir,
    work,
    origin,
    commit(files, message) {
      for (const [file, text] of Object.entries(files)) {
        const abs = path.join(work, file);
        if (text === null) rmSync(abs, { recursive: true, force: true });
        else {
          mkdirSync(path.dirname(abs), { recursive: true });
          writeFileSync(abs, text);
        }
      }
      sh(work, 'add', '--all');
      sh(work, 'commit', '--quiet', '--allow-empty', '-m', message ?? `commit ${++n}`);
      return sh(work, 'rev-parse', 'HEAD');
    },
    bulkCommit(files, message = 'bulk commit') {
      const branch = sh(work, 'symbolic-ref', 'HEAD');
      const parent = sh(work, 'rev-parse', 'HEAD');
      const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
      const stream = [
        `commit ${branch}\n`,
        'committer Test <test@example.invalid> 1767225600 +0000\n',
        data(message),
        `from ${parent}\n`,
        ...Object.entries(files).map(([file, text]) => `M 100644 inline ${file}\n${data(text)}`),
      ].join('');
      execFileSync('git', ['fast-import', '--quiet'], { cwd: work, input: stream });
      return sh(work, 'rev-parse', 'HEAD');
    },
    push(ref = 'HEAD:refs/heads/main') {
      sh(work, 'push', '--quiet', '--force', 'origin', ref);
    },
    shallowClone(branch, name = `clone-${branch.replace(/\W/g, '-')}`) {
      const target = path.join(dir, name);
      sh(
        dir,
        'clone',
        '--quiet',
        '--depth',
        '1',
        '--no-tags',
        '--branch',
        branch,
        `file://${origin}`,
        target,
      );
      return target;
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Kptfile; with `inventory` it holds kpt's deprecated `inventory:` section. */
export function kptfile(name: string, inventory?: { name: string; namespace: string; id: string }): string {
  const inv = inventory
    ? `inventory:\n  name: ${inventory.name}\n  namespace: ${inventory.namespace}\n  inventoryID: ${inventory.id}\n`
    : '';
  return `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n${inv}`;
}

/** A resourcegroup.yaml as `kpt live init` writes it. */
export function resourceGroup(name: string, namespace: string, id: string): string {
  return [
    'apiVersion: kpt.dev/v1alpha1',
    'kind: ResourceGroup',
    'metadata:',
    `  name: ${name}`,
    `  namespace: ${namespace}`,
    '  labels:',
    `    cli-utils.sigs.k8s.io/inventory-id: ${id}`,
    '',
  ].join('\n');
}

export function configMap(name: string, value: string): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  key: "${value}"\n`;
}

/** A deployable package: Kptfile, resourcegroup.yaml and one ConfigMap, keyed by path under `dir`. */
export function unitFiles(dir: string, id: string, value = 'v1'): Record<string, string> {
  const name = path.posix.basename(dir);
  return {
    [`${dir}/Kptfile`]: kptfile(name),
    [`${dir}/resourcegroup.yaml`]: resourceGroup(`inventory-${name}`, 'apps', id),
    [`${dir}/cm.yaml`]: configMap(name, value),
  };
}
