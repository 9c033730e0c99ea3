import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '../../src/common/kube-object.js';
import { uniqueName } from './cluster.js';
import { yamlOf } from './harness/builders.js';

/** A package file: YAML text as written, or objects (written as YAML documents). */
export type PackageFile = string | KubeObject | KubeObject[];
const text = (f: PackageFile) => (typeof f === 'string' ? f : yamlOf(...(Array.isArray(f) ? f : [f])));

const here = path.dirname(fileURLToPath(import.meta.url));
export const fixturesDir = path.resolve(here, '../fixtures');

/**
 * Copies a fixture package into a fresh temp "repository" and gives it a resourcegroup.yaml in `namespace`,
 * so every test owns its package and inventory. Returns the repo root and the package path inside it.
 */
export function packageCopy(
  fixture: string,
  namespace: string,
  extraFiles: Record<string, PackageFile> = {},
) {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-repo-'));
  const dir = path.join(repo, path.basename(fixture));
  fs.cpSync(path.resolve(fixturesDir, fixture), dir, { recursive: true });
  const name = uniqueName('inventory');
  fs.writeFileSync(
    path.join(dir, 'resourcegroup.yaml'),
    `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${name}-id\n`,
  );
  for (const [file, contents] of Object.entries(extraFiles)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text(contents));
  }
  return { repo, dir, rel: path.basename(fixture), inventory: { name, namespace, id: `${name}-id` } };
}

/** A package from inline YAML files (plus a Kptfile and a resourcegroup.yaml). */
export function inlinePackage(namespace: string, files: Record<string, PackageFile>) {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-repo-'));
  const dir = path.join(repo, 'pkg');
  fs.mkdirSync(dir);
  fs.writeFileSync(
    path.join(dir, 'Kptfile'),
    'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n',
  );
  const name = uniqueName('inventory');
  fs.writeFileSync(
    path.join(dir, 'resourcegroup.yaml'),
    `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${name}-id\n`,
  );
  const write = (f: Record<string, PackageFile>) => {
    for (const [file, contents] of Object.entries(f)) fs.writeFileSync(path.join(dir, file), text(contents));
  };
  write(files);
  return {
    repo,
    dir,
    rel: 'pkg',
    inventory: { name, namespace, id: `${name}-id` },
    /** Replaces the package's YAML files (keeps Kptfile and resourcegroup.yaml). */
    rewrite(next: Record<string, PackageFile>) {
      for (const f of fs.readdirSync(dir))
        if (f !== 'Kptfile' && f !== 'resourcegroup.yaml') fs.rmSync(path.join(dir, f));
      write(next);
    },
  };
}
