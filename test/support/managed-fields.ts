import type { KubeObject } from '../../src/common/kube-object.js';
import { fieldName, managedFieldsOf, ownedPaths } from '../../src/inventory/managed-fields.js';

/** Managers whose entries come and go with the controllers' timing: left out where a test compares shapes. */
export const ControllerManagers = new Set(['kube-controller-manager']);

/** Each managedFields entry as `manager Operation[ subresource]`, sorted: `kubectl Update scale`. */
export function shapes(obj: Pick<KubeObject, 'metadata'>, opts: { controllers?: boolean } = {}): string[] {
  return managedFieldsOf(obj)
    .filter((e) => opts.controllers || !ControllerManagers.has(e.manager ?? ''))
    .map((e) => [e.manager, e.operation, e.subresource].filter(Boolean).join(' '))
    .sort();
}

/** The fields one entry owns, as the server names them in a conflict (`.spec.replicas`). */
export function fieldsOf(obj: Pick<KubeObject, 'metadata'>, shape: string): string[] {
  const entry = managedFieldsOf(obj).find(
    (e) => [e.manager, e.operation, e.subresource].filter(Boolean).join(' ') === shape,
  );
  if (!entry)
    throw new Error(
      `no managedFields entry "${shape}" (there are: ${shapes(obj, { controllers: true }).join(', ')})`,
    );
  return ownedPaths(entry.fieldsV1).map(fieldName).sort();
}
