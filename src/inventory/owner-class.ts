import type { ConflictSettings } from '../common/conflict-settings.js';
import { Annotations, type InventoryPolicy } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';
import { type ManagedFieldsEntry, managedFieldsOf, ownedPaths, samePath } from './managed-fields.js';
import { ownershipOf } from './ownership.js';

/**
 * Who a field manager is to the package, decided on its name AND operation AND subresource:
 * - `ours`: our field manager, and the client-side apply managers whose fields we take over whole
 *   (`kubectl-client-side-apply`, and kpt's `kubectl` Update, on an object with kubectl's last-applied
 *   annotation), as kubectl's client-side to server-side upgrade does;
 * - `hand-edit`: kubectl's imperative commands (`kubectl-edit`, `-patch`, `-label`, `-annotate`, `-set`,
 *   `-replace`, `-create`, `-rollout`, any `kubectl-*` Update), `kubectl` Update, `before-first-apply`;
 * - `previous-owner`: only when adopting (an inventory policy takes an object no inventory owns): the manager
 *   that owns Helm's `meta.helm.sh/release-name` annotation, whatever its name and operation (`helm` for
 *   Helm 3's CLI, `helm-controller` for Flux, Apply for Helm 4), and every other server-side applier
 *   (an Apply entry: `kubectl apply --server-side`, Argo CD, Flux's kustomize-controller);
 * - `co-owner`: everything else (controllers, webhooks, other appliers after adoption), and every entry
 *   written through a subresource (`kubectl scale` and an autoscaler alike write `spec.replicas` through
 *   `scale`): never taken unless conflicts is `force`.
 * `conflicts-take` moves a manager to `hand-edit`, `conflicts-keep` to `co-owner` (not for subresource
 * entries, and never our own field manager).
 */
export type OwnerClass = 'ours' | 'hand-edit' | 'previous-owner' | 'co-owner';

export interface OwnerContext {
  /** Our field manager (`field-manager`). */
  fieldManager: string;
  /** The apply adopts this object: see isAdoption. */
  adopting: boolean;
  /** The settings for this object (objectConflictSettings: the run's, overridden by its annotation). */
  settings: ConflictSettings;
}

/** A managedFields entry's identity: the server names a conflict's manager with these three. */
export interface ManagerRef {
  manager: string;
  operation: string;
  subresource?: string;
}

export interface ClassifiedManager extends ManagerRef {
  class: OwnerClass;
  /** Why, in words for a preview row or a log line. */
  why: string;
}

/** The managers that client-side apply (`kubectl apply`, kpt's default `kpt live apply`) writes as. */
const ClientSideManagers = new Set(['kubectl-client-side-apply', 'kubectl', 'kpt']);

/** Helm's release annotation: its owner is the release's field manager. */
export const HelmReleaseAnnotation = 'meta.helm.sh/release-name';
const HelmReleasePath = ['f:metadata', 'f:annotations', `f:${HelmReleaseAnnotation}`];

/**
 * Whether applying over `live` adopts it: the inventory policy (adopt, force-adopt) takes an object no
 * inventory owns. Taking one from another inventory (force-adopt) is not an adoption here: the other
 * inventory's applier is a co-owner, as before.
 */
export function isAdoption(
  live: Pick<KubeObject, 'metadata'> | undefined,
  inventoryId: string,
  policy: InventoryPolicy,
): boolean {
  return !!live && policy !== 'strict' && ownershipOf(live, inventoryId) === 'Empty';
}

/** The entry that owns Helm's release-name annotation (the release's manager), if any. */
export function helmReleaseEntry(live: Pick<KubeObject, 'metadata'>): ManagedFieldsEntry | undefined {
  return managedFieldsOf(live).find((e) => ownedPaths(e.fieldsV1).some((p) => samePath(p, HelmReleasePath)));
}

/** The same managedFields entry: manager, operation and subresource alike. */
export const sameRef = (a: ManagerRef, b: ManagerRef) =>
  a.manager === b.manager && a.operation === b.operation && (a.subresource ?? '') === (b.subresource ?? '');

/**
 * The class of one manager (a managedFields entry of `live`, or a conflict's manager) for this object.
 * `live` supplies what the name alone cannot tell: the last-applied annotation and Helm's release manager.
 */
export function classifyManager(
  ref: ManagerRef,
  live: Pick<KubeObject, 'metadata'>,
  ctx: OwnerContext,
): ClassifiedManager {
  const out = (cls: OwnerClass, why: string): ClassifiedManager => ({
    manager: ref.manager,
    operation: ref.operation,
    ...(ref.subresource ? { subresource: ref.subresource } : {}),
    class: cls,
    why,
  });
  const { manager, operation, subresource } = ref;
  if (subresource) return out('co-owner', `${manager} writes it through the ${subresource} subresource`);
  if (manager === ctx.fieldManager) return out('ours', 'our field manager');
  if (ctx.settings.keep.includes(manager)) return out('co-owner', `${manager} is listed in conflicts-keep`);
  if (ctx.settings.take.includes(manager)) return out('hand-edit', `${manager} is listed in conflicts-take`);
  const lastApplied = live.metadata.annotations?.[Annotations.LastApplied] !== undefined;
  if (operation === 'Update' && lastApplied && ClientSideManagers.has(manager))
    return out('ours', `${manager} is client-side apply (kubectl apply, kpt live apply)`);
  if (ctx.adopting) {
    const helm = helmReleaseEntry(live);
    if (
      helm?.manager !== undefined &&
      sameRef(ref, { manager: helm.manager, operation: helm.operation ?? '' })
    ) {
      const release = live.metadata.annotations?.[HelmReleaseAnnotation];
      return out('previous-owner', `the manager of Helm release ${release ?? '?'}`);
    }
    if (operation === 'Apply') return out('previous-owner', 'a server-side applier before the adoption');
  }
  if (operation === 'Update' && (manager === 'kubectl' || manager.startsWith('kubectl-')))
    return out('hand-edit', `${manager} is a hand edit (kubectl)`);
  if (operation === 'Update' && manager === 'before-first-apply')
    return out(
      'hand-edit',
      'before-first-apply holds what the object had before its first server-side apply',
    );
  return out('co-owner', `${manager} is another field manager (a controller or another applier)`);
}

/** Every managedFields entry of `live` with its class. */
export function classifyManagedFields(
  live: Pick<KubeObject, 'metadata'>,
  ctx: OwnerContext,
): (ClassifiedManager & { entry: ManagedFieldsEntry })[] {
  return managedFieldsOf(live).map((entry) => ({
    ...classifyManager(
      {
        manager: entry.manager ?? '',
        operation: entry.operation ?? '',
        ...(entry.subresource ? { subresource: entry.subresource } : {}),
      },
      live,
      ctx,
    ),
    entry,
  }));
}
