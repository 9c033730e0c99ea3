import { ResourceGroupApiVersion, ResourceGroupKind } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import { KubeApiError } from '../kube/api-error.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { loadYaml } from '../startup/yaml-module.js';
import { ResourceGroupCrdYaml } from './resourcegroup-crd.js';

export type CrdInstallResult = 'present' | 'installed';

/** kpt's ResourceGroup CRD manifest as an object. */
export async function resourceGroupCrd(): Promise<KubeObject> {
  return (await loadYaml()).parse(ResourceGroupCrdYaml) as KubeObject;
}

/**
 * Makes sure `resourcegroups.kpt.dev` is served: installs kpt's CRD when it is missing and waits until
 * it is Established (then refreshes discovery). An existing CRD is left alone, whatever its spec, so users
 * without CRD permissions are never asked to "update" it.
 */
export async function ensureResourceGroupCrd(
  client: ClusterClient,
  options: { install: boolean; timeoutMs?: number },
): Promise<CrdInstallResult> {
  if (await client.resolve(ResourceGroupApiVersion, ResourceGroupKind)) return 'present';
  if (!options.install) {
    throw new Error(
      'type ResourceGroup not found: the ResourceGroup CRD (resourcegroups.kpt.dev) is not installed; ' +
        'run `kpt-live install-resource-group` (or `kpt live install-resource-group`) with cluster-admin rights',
    );
  }
  try {
    await client.create(await resourceGroupCrd());
  } catch (err) {
    if (err instanceof KubeApiError && err.forbidden) {
      throw new Error(
        'the ResourceGroup CRD (resourcegroups.kpt.dev) is not installed, and these credentials may not create ' +
          'customresourcedefinitions (cluster-wide). Ask a cluster admin to run `kpt-live install-resource-group` ' +
          `(or \`kpt live install-resource-group\`) once. Server said: ${err.message}`,
      );
    }
    if (!(err instanceof KubeApiError && err.code === 409)) throw err;
  }
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    const crd = await client.get({
      apiVersion: 'apiextensions.k8s.io/v1',
      group: 'apiextensions.k8s.io',
      kind: 'CustomResourceDefinition',
      namespace: '',
      name: 'resourcegroups.kpt.dev',
    });
    const conditions =
      (crd?.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
    if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) {
      client.resetDiscovery();
      if (await client.resolve(ResourceGroupApiVersion, ResourceGroupKind)) return 'installed';
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the ResourceGroup CRD was created but did not become Established in time');
}
