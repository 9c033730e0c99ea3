import { shortName } from '../common/object-id.js';
import type { DriftKind, DriftObject } from '../drift/types.js';

/** Words shared by the drift report's text and markdown forms. */

export const DRIFT_SYMBOL: Record<DriftKind, string> = {
  configure: '~',
  create: '+',
  prune: '-',
  status: '!',
};

/** `Deployment/web`, or `Deployment/web (ns)` when the object is not in the package's namespace. */
export function driftObjectName(o: DriftObject, namespace?: string): string {
  const ns = o.id.namespace && namespace && o.id.namespace !== namespace ? ` (${o.id.namespace})` : '';
  return `${shortName(o.id)}${ns}`;
}

/** What the drift is, in plain words: `changed in the cluster (2 fields)`, `missing from the cluster`. */
export function driftWords(o: DriftObject): string {
  switch (o.drift) {
    case 'create':
      return 'missing from the cluster (apply would create it)';
    case 'prune':
      return 'in the inventory but no longer in the package (apply would prune it)';
    case 'configure': {
      const n = o.changes?.length ?? 0;
      const what = n > 0 ? `${n} field${n === 1 ? '' : 's'} differ${n === 1 ? 's' : ''}` : (o.message ?? '');
      const health = o.status ? `; ${o.status}: ${o.message ?? ''}` : '';
      return `changed in the cluster (${what}; apply would set it back)${health}`;
    }
    case 'status':
      return `${o.status ?? 'Unknown'}${o.message ? `: ${o.message}` : ''}`;
  }
}

/** `2 configure, 1 create` over a package's drifted objects, in the order configure, create, prune, status. */
export function driftCounts(objects: readonly DriftObject[]): string {
  const counts = new Map<DriftKind, number>();
  for (const o of objects) counts.set(o.drift, (counts.get(o.drift) ?? 0) + 1);
  return (['configure', 'create', 'prune', 'status'] as const)
    .filter((k) => counts.has(k))
    .map((k) => `${counts.get(k)} ${k}`)
    .join(', ');
}
