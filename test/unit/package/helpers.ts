import { readFileSync } from 'node:fs';
import { cp as cpAsync, mkdtemp as mkdtempAsync } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { PackageError } from '../../../src/package/package-error.js';
import type { ResourceScope, ScopeLookup } from '../../../src/package/scope.js';

/** test/fixtures/packages: the repository root the fixture packages are loaded against. */
export const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/packages');

/** Scopes of well-known built-in kinds, keyed `group/version/Kind` (`v1/Kind` for core): test data for a ScopeLookup. */
export const wellKnownKinds: Record<string, ResourceScope> = {
  'v1/Namespace': 'Cluster',
  'v1/ConfigMap': 'Namespaced',
  'v1/Secret': 'Namespaced',
  'v1/Service': 'Namespaced',
  'v1/ServiceAccount': 'Namespaced',
  'v1/PersistentVolumeClaim': 'Namespaced',
  'v1/PersistentVolume': 'Cluster',
  'apps/v1/Deployment': 'Namespaced',
  'apps/v1/StatefulSet': 'Namespaced',
  'rbac.authorization.k8s.io/v1/ClusterRole': 'Cluster',
  'rbac.authorization.k8s.io/v1/Role': 'Namespaced',
  'apiextensions.k8s.io/v1/CustomResourceDefinition': 'Cluster',
};

/** A ScopeLookup answering from a plain table, as discovery would for the kinds it serves. */
export function scopeFromTable(table: Record<string, ResourceScope> = wellKnownKinds): ScopeLookup {
  return (group, version, kind) => table[group ? `${group}/${version}/${kind}` : `${version}/${kind}`];
}

/** 1-based line of the first line of a fixture file containing `needle` at or after line `from`. */
export function lineOf(file: string, needle: string, from = 1): number {
  const lines = readFileSync(path.join(fixtures, file), 'utf8').split('\n');
  const i = lines.findIndex((l, idx) => idx + 1 >= from && l.includes(needle));
  if (i < 0) throw new Error(`${needle} not found in ${file}`);
  return i + 1;
}

/** A private copy of a fixture directory in a temp dir (for tests that write); returns [root, dir]. */
export async function copyFixture(name: string): Promise<{ root: string; dir: string }> {
  const root = await mkdtempAsync(path.join(os.tmpdir(), 'kpt-live-package-'));
  const dir = path.join(root, path.basename(name));
  await cpAsync(path.join(fixtures, name), dir, { recursive: true });
  return { root, dir };
}

/** Every error must say where (file, and line when it has one), which object, and how to fix it. */
export function expectActionable(
  error: PackageError | undefined,
  where: { file: string; line?: number; object?: string },
) {
  expect(error, 'expected an error').toBeDefined();
  expect(error?.file).toBe(where.file);
  if (where.line !== undefined) expect(error?.line).toBe(where.line);
  if (where.object !== undefined) expect(error?.object).toBe(where.object);
  expect(error?.fix ?? '').not.toBe('');
}
