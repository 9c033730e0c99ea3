import { splitApiVersion } from '../common/kube-object.js';

/**
 * Built-in Kubernetes kinds that are cluster-scoped, as `group/Kind` (core group: `/Kind`). Used only where
 * no cluster is asked (the namespace heuristic of `init`, like kpt's use of kyaml's built-in OpenAPI
 * schema); validation always uses discovery.
 */
const clusterScoped = new Set([
  '/Namespace',
  '/Node',
  '/PersistentVolume',
  '/ComponentStatus',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'apiregistration.k8s.io/APIService',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'storage.k8s.io/StorageClass',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/VolumeAttachment',
  'scheduling.k8s.io/PriorityClass',
  'node.k8s.io/RuntimeClass',
  'policy/PodSecurityPolicy',
  'extensions/PodSecurityPolicy',
  'networking.k8s.io/IngressClass',
  'certificates.k8s.io/CertificateSigningRequest',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
]);

/** True when `apiVersion`/`kind` is a built-in cluster-scoped kind. Unknown kinds answer false (namespaced, as kpt assumes). */
export function isKnownClusterScoped(apiVersion: string, kind: string): boolean {
  return clusterScoped.has(`${splitApiVersion(apiVersion).group}/${kind}`);
}
