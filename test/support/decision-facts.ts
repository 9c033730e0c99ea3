import type { ObjectFacts } from '../../src/apply/decision.js';
import type { KubeObject } from '../../src/common/kube-object.js';
import { idOf, type ObjectId } from '../../src/common/object-id.js';
import type { ResourceInfo } from '../../src/kube/discovery.js';
import { configMap } from './harness/builders.js';

/**
 * Facts about one object for the decision ladder's tables (decision.ts): `facts()` is a ConfigMap that
 * exists (our own last apply), that the server serves, with no strategy and nothing special, so each row
 * changes only what its rule is about; and the answers a dry-run apply gives for it.
 */
export const ns = 'team';
export const ours = 'kpt-live-action';
export const cmInfo: ResourceInfo = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  resource: 'configmaps',
  namespaced: true,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  hasStatus: false,
};
const manifest = configMap('a', { x: '1' }, { namespace: ns });
const entry = (manager: string, operation: string, time: string) => ({
  manager,
  operation,
  apiVersion: 'v1',
  time,
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:data': { 'f:x': {} } },
});
export const live: KubeObject = {
  ...manifest,
  metadata: {
    ...manifest.metadata,
    uid: 'uid-a',
    resourceVersion: '10',
    managedFields: [entry(ours, 'Apply', '2024-01-01T00:00:00Z')],
  },
};
const id = idOf(manifest);
export const nsId: ObjectId = { group: '', kind: 'Namespace', namespace: '', name: ns };
export const deployId: ObjectId = { group: 'apps', kind: 'Deployment', namespace: ns, name: 'web' };

export function facts(over: Partial<ObjectFacts> = {}): ObjectFacts {
  return {
    id,
    manifest,
    live,
    info: cmInfo,
    crdInPackage: false,
    strategy: '',
    provenUnchanged: false,
    fieldManager: ours,
    ...over,
  };
}

/** The live object with another value and a later managedFields time (what a dry-run apply returns). */
export const changed = (x: string, rv = '10'): KubeObject => ({
  ...live,
  metadata: {
    ...live.metadata,
    resourceVersion: rv,
    managedFields: [entry(ours, 'Apply', '2024-02-02T00:00:00Z')],
  },
  data: { x },
});
/** The live object as a no-op dry-run returns it: only managedFields times differ. */
export const sameAsLive: KubeObject = changed('1');

export const deleting = (finalizers?: string[]): KubeObject => ({
  ...live,
  metadata: {
    ...live.metadata,
    deletionTimestamp: '2024-03-03T00:00:00Z',
    ...(finalizers ? { finalizers } : {}),
  },
});
