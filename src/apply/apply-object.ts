import { Annotations } from '../common/constants.js';
import { cloneJson, type KubeObject } from '../common/kube-object.js';
import { KubeApiError } from '../kube/api-error.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { idOf } from '../plan/object-id.js';
import { upgradedManagedFields } from './client-side-takeover.js';
import type { ApplyOperation } from './events.js';

/** The manifest we send: the package's object plus our owning-inventory annotation. */
export function withOwningInventory(obj: KubeObject, inventoryId: string): KubeObject {
  const copy = cloneJson(obj);
  copy.metadata.annotations = {
    ...(copy.metadata.annotations ?? {}),
    [Annotations.OwningInventory]: inventoryId,
  };
  return copy;
}

export interface AppliedObject {
  object: KubeObject;
  operation: ApplyOperation;
}

/**
 * Server-side applies one object (taking over fields a client-side apply owned first) and says whether
 * it was created, configured or left unchanged (the server skips no-op writes: same resourceVersion).
 */
export async function applyObject(
  client: ClusterClient,
  manifest: KubeObject,
  live: KubeObject | null | undefined,
  options: { fieldManager: string; force: boolean; dryRun?: boolean },
): Promise<AppliedObject> {
  if (live && !options.dryRun) {
    const upgraded = upgradedManagedFields(live, options.fieldManager);
    if (upgraded) {
      await client.jsonPatch({ ...idOf(manifest), apiVersion: manifest.apiVersion }, [
        { op: 'test', path: '/metadata/resourceVersion', value: live.metadata.resourceVersion },
        { op: 'replace', path: '/metadata/managedFields', value: upgraded },
      ]);
    }
  }
  try {
    const object = await client.apply(manifest, {
      fieldManager: options.fieldManager,
      force: options.force,
      dryRun: options.dryRun,
    });
    const operation: ApplyOperation = !live
      ? 'created'
      : object.metadata.resourceVersion === live.metadata.resourceVersion
        ? 'unchanged'
        : 'configured';
    return { object, operation };
  } catch (err) {
    throw explainApplyError(err);
  }
}

/** Conflicts name the fields and the managers that own them, and the way out. */
export function explainApplyError(err: unknown): Error {
  if (err instanceof KubeApiError && err.conflict && err.causes.length > 0) {
    const fields = err.causes.map((c) => `${c.field ?? '?'} (${c.message ?? ''})`).join(', ');
    return new Error(
      `${err.message}. Conflicting fields: ${fields}. Another field manager owns them: remove them from the package, ` +
        'or take them over with force-conflicts',
    );
  }
  return err instanceof Error ? err : new Error(String(err));
}
