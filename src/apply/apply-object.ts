import { Annotations } from '../common/constants.js';
import { cloneJson, type KubeObject } from '../common/kube-object.js';

/** The manifest we send: the package's object plus our owning-inventory annotation. */
export function withOwningInventory(obj: KubeObject, inventoryId: string): KubeObject {
  const copy = cloneJson(obj);
  copy.metadata.annotations = {
    ...(copy.metadata.annotations ?? {}),
    [Annotations.OwningInventory]: inventoryId,
  };
  return copy;
}
