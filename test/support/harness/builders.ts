import { stringify } from 'yaml';
import type { KubeObject } from '../../../src/common/kube-object.js';

/**
 * Objects for tests, as plain data: the fields a test cares about are arguments, the rest is the smallest
 * valid object. `yamlOf` turns them into a package file. Builders leave `namespace` out unless given:
 * packages get theirs from the inventory's namespace, API calls from the path.
 */
export interface MetaOptions {
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  /** `config.kubernetes.io/depends-on` (kpt's dependency annotation). */
  dependsOn?: string;
}

export function metadata(name: string, o: MetaOptions = {}): KubeObject['metadata'] {
  const annotations = {
    ...o.annotations,
    ...(o.dependsOn ? { 'config.kubernetes.io/depends-on': o.dependsOn } : {}),
  };
  return {
    name,
    ...(o.namespace ? { namespace: o.namespace } : {}),
    ...(o.labels ? { labels: o.labels } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    ...(o.finalizers ? { finalizers: o.finalizers } : {}),
  };
}

export function configMap(
  name: string,
  data: Record<string, string> = { key: 'value' },
  o: MetaOptions = {},
): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: metadata(name, o), data };
}

export function secret(name: string, stringData: Record<string, string>, o: MetaOptions = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: metadata(name, o), stringData };
}

export function namespace(name: string, o: Omit<MetaOptions, 'namespace'> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: metadata(name, o) };
}

export interface DeploymentOptions extends MetaOptions {
  image?: string;
  /** A string makes a Deployment the server rejects (`replicas: three`). */
  replicas?: number | string;
  /** Pod template annotations (the kubelet simulator reads `sim.kpt-live-action.dev/*`). */
  podAnnotations?: Record<string, string>;
  /** The pod label `app` (default: the name). */
  app?: string;
  containerPort?: number;
  /** The container's name (default `main`). */
  containerName?: string;
  /** More fields of `spec` (progressDeadlineSeconds, strategy...). */
  spec?: Record<string, unknown>;
}

/** A Deployment of one container `main`, selecting `app: <name>`. */
export function deployment(name: string, o: DeploymentOptions = {}): KubeObject {
  const app = o.app ?? name;
  const container: Record<string, unknown> = {
    name: o.containerName ?? 'main',
    image: o.image ?? 'example/app:1',
  };
  // protocol spelled out: server-side apply on 1.20 rejects a port without it
  if (o.containerPort) container.ports = [{ containerPort: o.containerPort, protocol: 'TCP' }];
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: metadata(name, o),
    spec: {
      ...o.spec,
      replicas: o.replicas ?? 1,
      selector: { matchLabels: { app } },
      template: {
        metadata: { labels: { app }, ...(o.podAnnotations ? { annotations: o.podAnnotations } : {}) },
        spec: { containers: [container] },
      },
    },
  };
}

/** A ClusterIP Service on port 80 (protocol spelled out: server-side apply on 1.20 rejects a port without it). */
export function service(
  name: string,
  o: MetaOptions & { app?: string; targetPort?: number } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: metadata(name, o),
    spec: {
      selector: { app: o.app ?? name },
      ports: [{ port: 80, protocol: 'TCP', ...(o.targetPort ? { targetPort: o.targetPort } : {}) }],
    },
  };
}

export type PolicyRule = { apiGroups: string[]; resources: string[]; verbs: string[] };

export function role(name: string, rules: PolicyRule[], o: MetaOptions = {}): KubeObject {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: metadata(name, o), rules };
}

export function roleBinding(
  name: string,
  roleName: string,
  subject: { kind: string; name: string; namespace?: string },
  o: MetaOptions = {},
): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: metadata(name, o),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: roleName },
    subjects: [
      subject.kind === 'ServiceAccount' ? subject : { apiGroup: 'rbac.authorization.k8s.io', ...subject },
    ],
  };
}

export interface CrdOptions {
  group: string;
  kind: string;
  plural?: string;
  scope?: 'Namespaced' | 'Cluster';
  versions?: string[];
  /** The storage version (default: the first). */
  storage?: string;
  /** The schema of `spec` (default: any fields). */
  spec?: Record<string, unknown>;
  /** Adds the /status subresource. */
  status?: boolean;
}

/** A CRD, every version served; by default an open schema (`spec` and `status` take any fields), stored in its first version. */
export function crd(o: CrdOptions): KubeObject {
  const plural = o.plural ?? `${o.kind.toLowerCase()}s`;
  const open = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${o.group}` },
    spec: {
      group: o.group,
      scope: o.scope ?? 'Namespaced',
      names: { kind: o.kind, plural, singular: o.kind.toLowerCase(), listKind: `${o.kind}List` },
      versions: (o.versions ?? ['v1']).map((name, i) => ({
        name,
        served: true,
        storage: o.storage ? name === o.storage : i === 0,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: o.spec ?? open, status: open } } },
        ...(o.status ? { subresources: { status: {} } } : {}),
      })),
    },
  };
}

/** An object of a custom kind (`apiVersion` as `group/version`). */
export function customResource(
  apiVersion: string,
  kind: string,
  name: string,
  spec: Record<string, unknown>,
  o: MetaOptions = {},
): KubeObject {
  return { apiVersion, kind, metadata: metadata(name, o), spec };
}

/** Objects as one YAML file (documents separated by `---`). */
export function yamlOf(...objects: KubeObject[]): string {
  return objects.map((o) => stringify(o)).join('---\n');
}
