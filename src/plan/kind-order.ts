import { compareIds, type ObjectId } from '../common/object-id.js';

/**
 * cli-utils' apply order of kinds (pkg/ordering/sort.go, v0.37.2). Kinds listed first get negative
 * indexes in this order, unlisted kinds 0, ValidatingWebhookConfiguration 1 (it goes last so webhooks
 * cannot reject the objects applied with them).
 */
const ORDER_FIRST: readonly (readonly [group: string, kind: string])[] = [
  ['', 'Namespace'],
  ['', 'ResourceQuota'],
  ['storage.k8s.io', 'StorageClass'],
  ['apiextensions.k8s.io', 'CustomResourceDefinition'],
  ['admissionregistration.k8s.io', 'MutatingWebhookConfiguration'],
  ['', 'ServiceAccount'],
  ['extensions', 'PodSecurityPolicy'],
  ['policy', 'PodSecurityPolicy'],
  ['rbac.authorization.k8s.io', 'Role'],
  ['rbac.authorization.k8s.io', 'ClusterRole'],
  ['rbac.authorization.k8s.io', 'RoleBinding'],
  ['rbac.authorization.k8s.io', 'ClusterRoleBinding'],
  ['', 'ConfigMap'],
  ['', 'Secret'],
  ['', 'Service'],
  ['', 'LimitRange'],
  ['scheduling.k8s.io', 'PriorityClass'],
  ['extensions', 'Deployment'],
  ['apps', 'Deployment'],
  ['apps', 'StatefulSet'],
  ['batch', 'CronJob'],
  ['policy', 'PodDisruptionBudget'],
];

const ORDER_LAST: readonly (readonly [group: string, kind: string])[] = [
  ['admissionregistration.k8s.io', 'ValidatingWebhookConfiguration'],
];

const groupKindKey = (group: string, kind: string): string => `${group}/${kind}`;

const KIND_INDEX: ReadonlyMap<string, number> = new Map([
  ...ORDER_FIRST.map(([g, k], i): [string, number] => [groupKindKey(g, k), i - ORDER_FIRST.length]),
  ...ORDER_LAST.map(([g, k], i): [string, number] => [groupKindKey(g, k), i + 1]),
]);

/** The kind's position in cli-utils' order: negative for the kinds applied first, 0 for the rest, 1 last. */
export function kindOrderIndex(group: string, kind: string): number {
  return KIND_INDEX.get(groupKindKey(group, kind)) ?? 0;
}

/**
 * The order objects are applied in within one wave, as cli-utils sorts them (ordering.SortableMetas):
 * kind index, then group, kind, namespace and name. Deterministic whatever the input order, so
 * events and previews come out the same on every run.
 */
export function compareForApply(a: ObjectId, b: ObjectId): number {
  return kindOrderIndex(a.group, a.kind) - kindOrderIndex(b.group, b.kind) || compareIds(a, b);
}
