import { Annotations } from '../common/constants.js';
import { cloneJson, type KubeObject } from '../common/kube-object.js';
import { KubeApiError } from '../kube/api-error.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import { idOf } from '../plan/object-id.js';
import { upgradedManagedFields } from './client-side-takeover.js';
import type { ApplyOperation } from './events.js';
import { deleteForReplace, immutableFields, type UpdateStrategy } from './update-strategy.js';

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
 * The update strategy may skip an existing object, or replace it (delete, wait, create).
 */
export async function applyObject(
  client: ClusterClient,
  manifest: KubeObject,
  live: KubeObject | null | undefined,
  options: {
    fieldManager: string;
    force: boolean;
    dryRun?: boolean;
    strategy?: UpdateStrategy;
    deleteTimeoutMs?: number;
  },
): Promise<AppliedObject> {
  const strategy = options.strategy ?? '';
  if (live && strategy === 'skip') return { object: live, operation: 'skipped' };
  if (live && strategy === 'always-replace' && !options.dryRun) {
    await deleteForReplace(client, live, options.deleteTimeoutMs ?? 0);
    return { object: await ssa(client, manifest, options), operation: 'replaced' };
  }
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
    const object = await ssa(client, manifest, options);
    const operation: ApplyOperation = !live
      ? 'created'
      : object.metadata.resourceVersion === live.metadata.resourceVersion
        ? 'unchanged'
        : 'configured';
    return { object, operation };
  } catch (err) {
    if (live && strategy === 'fallback-on-replace' && immutableFields(err) && !options.dryRun) {
      await deleteForReplace(client, live, options.deleteTimeoutMs ?? 0);
      return { object: await ssa(client, manifest, options), operation: 'replaced' };
    }
    throw explainApplyError(err);
  }
}

function ssa(
  client: ClusterClient,
  manifest: KubeObject,
  options: { fieldManager: string; force: boolean; dryRun?: boolean },
) {
  return client.apply(manifest, {
    fieldManager: options.fieldManager,
    force: options.force,
    dryRun: options.dryRun,
  });
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
  const fields = immutableFields(err);
  if (fields && err instanceof KubeApiError) {
    return new KubeApiError(
      err.code,
      err.reason,
      `${err.message}. An immutable field changed: set the annotation kapp.k14s.io/update-strategy: fallback-on-replace ` +
        'to delete and re-create the object',
      err.causes,
    );
  }
  return err instanceof Error ? err : new Error(String(err));
}
