import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../../src/common/kube-object.js';
import type { ObjectId } from '../../../src/common/object-id.js';

/** Parses a multi-document YAML string into objects, the way the package loader hands them over. */
export function objects(yaml: string): KubeObject[] {
  return parseAllDocuments(yaml)
    .map((doc) => doc.toJS() as KubeObject | null)
    .filter((obj): obj is KubeObject => obj !== null);
}

/** `Kind/name` or `Kind/ns/name` for compact expectations. */
export function short(id: ObjectId): string {
  return id.namespace ? `${id.kind}/${id.namespace}/${id.name}` : `${id.kind}/${id.name}`;
}

export const shortWaves = (waves: ObjectId[][]): string[][] => waves.map((w) => w.map(short));

/** A minimal object; `dependsOn` sets the depends-on annotation verbatim. */
export function obj(
  apiVersion: string,
  kind: string,
  name: string,
  namespace?: string,
  dependsOn?: string,
): KubeObject {
  return {
    apiVersion,
    kind,
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      ...(dependsOn !== undefined ? { annotations: { 'config.kubernetes.io/depends-on': dependsOn } } : {}),
    },
  };
}
