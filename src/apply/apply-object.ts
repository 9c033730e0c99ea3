import { Annotations } from '../common/constants.js';
import type { KubeObject } from '../common/kube-object.js';

/** The manifest we send: the package's object plus our owning-inventory annotation. */
export function withOwningInventory(obj: KubeObject, inventoryId: string): KubeObject {
  // new top level, metadata and annotations; the rest is shared with obj (neither is changed afterwards)
  return {
    ...obj,
    metadata: {
      ...obj.metadata,
      annotations: { ...(obj.metadata.annotations ?? {}), [Annotations.OwningInventory]: inventoryId },
    },
  };
}
