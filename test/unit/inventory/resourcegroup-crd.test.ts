import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ResourceGroupCrdYaml } from '../../../src/inventory/resourcegroup-crd.js';
import { GOLDEN_DIR } from '../report/golden.js';

/** What kpt 1.0.0-beta.56 installs, extracted from its binary (test/golden/kpt/README.md says how). */
const kptCrd = readFileSync(join(GOLDEN_DIR, 'kpt', 'resourcegroup-crd.v1.yaml'), 'utf8');

describe('the ResourceGroup CRD we install', () => {
  it('is byte-identical to the one kpt installs (kpt re-installs a CRD whose spec differs)', () => {
    expect(ResourceGroupCrdYaml).toBe(kptCrd);
  });

  it('is the v1 CRD of resourcegroups.kpt.dev, namespaced, version v1alpha1', () => {
    const crd = parse(ResourceGroupCrdYaml);
    expect(crd.apiVersion).toBe('apiextensions.k8s.io/v1');
    expect(crd.metadata.name).toBe('resourcegroups.kpt.dev');
    expect(crd.spec.scope).toBe('Namespaced');
    expect(crd.spec.versions.map((v: { name: string }) => v.name)).toEqual(['v1alpha1']);
  });
});
